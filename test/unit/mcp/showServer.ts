/**
 * [#42.4] A third-party MCP server whose tools and answers exercise what the tool runner shows:
 * output schemas met, missed, absent from the answer and unusable; annotations (read-only, idempotent,
 * destructive, open world); icons (a remote one that must never load, a data: one); resource links
 * (a loopback web link, a non-web URI) and an embedded resource; and hostile instructions.
 */
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startSdkServer, type SdkHttpServer } from './sdkHttpServer';

/** A 1x1 PNG. */
export const PNG_DATA_URI = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export const SHOW_INSTRUCTIONS = 'Call lookup before forecast.\u202E txt.exe\u0007\n\n\n\n<b>Bold</b> [quit](command:workbench.action.quit)\n' + 'x'.repeat(5000);

const WEATHER = { type: 'object', properties: { city: { type: 'string' }, celsius: { type: 'number' } }, required: ['city', 'celsius'] };

export const SHOW_TOOLS = [
  { name: 'forecast', description: 'Weather for a city.', inputSchema: { type: 'object', properties: { city: { type: 'string' } } }, outputSchema: WEATHER },
  { name: 'forecast_wrong', description: 'Weather, in the wrong shape.', inputSchema: { type: 'object' }, outputSchema: WEATHER },
  { name: 'forecast_missing', description: 'Weather, without structured content.', inputSchema: { type: 'object' }, outputSchema: WEATHER },
  { name: 'forecast_loop', description: 'Weather, with a schema that refers to itself.', inputSchema: { type: 'object' }, outputSchema: { type: 'object', $ref: '#' } },
  {
    name: 'lookup',
    description: 'Looks a word up.',
    inputSchema: { type: 'object', properties: { word: { type: 'string' } } },
    annotations: { readOnlyHint: true, idempotentHint: true },
    icons: [{ src: 'https://icons.example.test/lookup.png', mimeType: 'image/png' }, { src: PNG_DATA_URI, mimeType: 'image/png' }],
  },
  {
    name: 'delete_everything',
    title: 'Delete everything',
    description: 'Deletes every record.',
    inputSchema: { type: 'object', properties: { confirm: { type: 'string' } } },
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    icons: [{ src: 'data:image/svg+xml;base64,PHN2Zy8+', mimeType: 'image/svg+xml' }],
  },
  { name: 'links', description: 'Answers with links.', inputSchema: { type: 'object' } },
];

export function startShowServer(): Promise<SdkHttpServer> {
  return startSdkServer({ name: 'show-server', version: '1.0.0', instructions: SHOW_INSTRUCTIONS }, (server) => {
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: SHOW_TOOLS as never }));
    server.setRequestHandler(CallToolRequestSchema, async (r) => {
      const city = String((r.params.arguments as { city?: unknown } | undefined)?.city ?? 'Lisbon');
      switch (r.params.name) {
        case 'forecast':
          return { content: [{ type: 'text', text: `${city}: 21 °C` }], structuredContent: { city, celsius: 21 } };
        case 'forecast_wrong':
          return { content: [{ type: 'text', text: 'Lisbon: warm' }], structuredContent: { city: 'Lisbon', celsius: 'warm' } };
        case 'forecast_missing':
          return { content: [{ type: 'text', text: 'Lisbon: 21 °C' }] };
        case 'forecast_loop':
          return { content: [{ type: 'text', text: 'Lisbon: 21 °C' }], structuredContent: { city: 'Lisbon', celsius: 21 } };
        case 'delete_everything':
          return { content: [{ type: 'text', text: 'Deleted 42 records.' }] };
        case 'links':
          return {
            content: [
              { type: 'resource_link', uri: 'http://127.0.0.1:9/admin', name: 'admin', title: 'Admin page' },
              { type: 'resource_link', uri: 'kb://col_docs/doc_intro', name: 'doc_intro' },
              { type: 'resource', resource: { uri: 'file:///notes.md', mimeType: 'text/plain', text: 'Embedded notes' } },
            ],
          };
        default:
          return { content: [{ type: 'text', text: 'ok' }], structuredContent: { word: 'ok' } };
      }
    });
  });
}

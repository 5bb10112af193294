// The MCP client that the conformance suite's client scenarios drive (scripts/test-conformance.mjs):
// the project's own client (src/core/mcp/mcpClient.ts, the one the tool runner, agent chat and the
// relay use), bundled by esbuild for the run. The suite starts a test server, then runs
//
//   node <this file bundled by esbuild> <server URL>   (or, by hand: node --import tsx scripts/conformance-client.ts <URL>)
//
// with MCP_CONFORMANCE_SCENARIO naming the scenario. Each scenario below does what a user of the
// tool runner would: connect, list the tools, call one. Exit 0 when the client got what it asked
// for; the suite's own checks (on the server side) decide whether the scenario passed.
import { McpConnection, type ElicitHandler } from '../src/core/mcp/mcpClient';
import { McpOAuth, type McpOAuthRecord } from '../src/core/mcp/oauth';
import type { CallToolResult } from '../src/core/mcp/types';

type Step = (conn: McpConnection) => Promise<void>;

function texts(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' && typeof c.text === 'string' ? c.text : '')).join('\n');
}

async function callListedTool(conn: McpConnection, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const { tools } = await conn.listTools();
  if (!tools.some((t) => t.name === name)) throw new Error(`the server does not list the tool ${name}`);
  const { result } = await conn.callTool(name, args);
  if (result.isError) throw new Error(`${name} returned a tool error: ${texts(result)}`);
  return result;
}

/** Every auth/* scenario: sign in (the suite's test authorization server), list the tools, call one. */
const signedInCall: Step = async (conn) => {
  await callListedTool(conn, 'test-tool', {});
};

const STEPS: Record<string, Step> = {
  // The server asks for a form with defaults during the call; the user accepts without filling any
  // field, and the client sends every default back (SEP-1034: the SDK's applyDefaults, mcpClient.ts).
  'elicitation-sep1034-client-defaults': async (conn) => {
    await callListedTool(conn, 'test_client_elicitation_defaults', {});
  },
  // The handshake (initialize + notifications/initialized) is connect's work; then the tool list.
  initialize: async (conn) => {
    await conn.listTools();
  },
  tools_call: async (conn) => {
    const result = await callListedTool(conn, 'add_numbers', { a: 5, b: 3 });
    if (!/\b8\b/.test(texts(result))) throw new Error(`add_numbers(5, 3) answered ${JSON.stringify(texts(result))}`);
  },
  // The server closes the call's event stream after a priming event; the answer comes on the resumed GET.
  'sse-retry': async (conn) => {
    const result = await callListedTool(conn, 'test_reconnection', {});
    if (texts(result) === '') throw new Error('test_reconnection answered without text');
  },
  // 2026-07-28 (conformance 0.2.0-alpha.12; docs/MCP-ERAS.md). Per-request _meta and headers, and the
  // version retry, are connect's and every request's work; the tool list exercises them.
  'request-metadata': async (conn) => {
    await conn.listTools();
  },
  // Multi-round-trip calls: the form is accepted (acceptDefaults) and the call sent again with the
  // server's requestState exactly as it came (or none); a plain call in between carries nothing of it.
  'sep-2322-client-request-state': async (conn) => {
    for (const tool of ['test_mrtr_echo_state', 'test_mrtr_unrelated', 'test_mrtr_no_state', 'test_mrtr_no_result_type']) await callListedTool(conn, tool, {});
  },
  'http-standard-headers': async (conn) => {
    for (const tool of ['test_headers', 'my-hyphenated-tool']) await callListedTool(conn, tool, {});
  },
  // The calls the suite names in its context, each with its arguments (Mcp-Param-* headers).
  'http-custom-headers': async (conn) => {
    for (const call of contextToolCalls()) await callListedTool(conn, call.name, call.arguments);
  },
  // The client leaves tools with invalid x-mcp-header annotations out of the list; every tool left is called.
  'http-invalid-tool-headers': async (conn) => {
    const { tools } = await conn.listTools();
    for (const tool of tools) await callListedTool(conn, tool.name, sampleArguments(tool.inputSchema));
  },
  // Listing the tools must not fetch the network $ref in a tool's schema.
  'json-schema-ref-no-deref': async (conn) => {
    await conn.listTools();
  },
  // The focal tool's inputSchema goes back verbatim, as the client holds it, to the echo tool.
  'json-schema-2020-12-preservation': async (conn) => {
    const { tools } = await conn.listTools();
    const focal = tools.find((t) => t.name === 'json_schema_2020_12_tool');
    if (!focal) throw new Error('the server does not list json_schema_2020_12_tool');
    await callListedTool(conn, 'json_schema_echo', { schema: focal.inputSchema });
  },
};

/** The tool calls the suite's context names (http-custom-headers). */
function contextToolCalls(): Array<{ name: string; arguments: Record<string, unknown> }> {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { toolCalls?: Array<{ name: string; arguments?: Record<string, unknown> }> };
  if (!Array.isArray(context.toolCalls) || context.toolCalls.length === 0) throw new Error('the suite named no tool calls in MCP_CONFORMANCE_CONTEXT');
  return context.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments ?? {} }));
}

/** Arguments for a tool's required parameters: a sample value of each one's type. */
function sampleArguments(schema: Record<string, unknown>): Record<string, unknown> {
  const props = (schema.properties ?? {}) as Record<string, { type?: string }>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const samples: Record<string, unknown> = { string: 'us-west1', integer: 1, number: 1, boolean: true, object: {}, array: [] };
  return Object.fromEntries(required.map((k) => [k, samples[props[k]?.type ?? 'string'] ?? 'x']));
}

/** The user accepts every form as it is (no field filled in), and declines every URL. */
const acceptDefaults: ElicitHandler = async (request) => (request.mode === 'form' ? { action: 'accept', content: {} } : { action: 'decline' });

/**
 * The OAuth layer as the editor uses it (src/core/mcp/oauth.ts on the SDK's auth()), with the user's
 * side done without a browser: the suite's authorization endpoint redirects at once to the redirect
 * URI with a code, so "authorizing" is one GET whose Location is the redirect back. Tokens live in
 * memory. The suite's context (MCP_CONFORMANCE_CONTEXT) carries pre-registered client credentials for
 * the scenarios that need them; its Client ID Metadata Document URL is the one its CIMD scenario expects.
 */
function conformanceOAuth(url: string): McpOAuth {
  let record: McpOAuthRecord | undefined;
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { client_id?: string; client_secret?: string };
  return new McpOAuth(url, {
    redirectUrl: 'http://127.0.0.1:33418/callback',
    clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
    clientName: 'ai-gateway-vscode conformance client',
    ...(context.client_id ? { preRegistered: { client_id: context.client_id, ...(context.client_secret ? { client_secret: context.client_secret } : {}) } } : {}),
    store: {
      load: async () => record,
      save: async (r) => {
        record = r;
      },
      clear: async () => {
        record = undefined;
      },
    },
    authorize: async (authUrl, signal) => {
      const res = await fetch(authUrl, { redirect: 'manual', ...(signal ? { signal } : {}) });
      await res.body?.cancel();
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) throw new Error(`the authorization endpoint answered ${res.status} without a redirect`);
      return new URL(location, authUrl);
    },
  });
}

async function main(): Promise<number> {
  const url = process.argv[2];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  if (!url) {
    console.error('usage: conformance-client.ts <server URL> (MCP_CONFORMANCE_SCENARIO names the scenario)');
    return 2;
  }
  const step = scenario.startsWith('auth/') ? signedInCall : STEPS[scenario];
  if (!step) {
    console.error(`conformance-client: no steps for scenario "${scenario}"; add them here or name it as not applicable in scripts/test-conformance.mjs`);
    return 2;
  }
  const conn = await McpConnection.connect({
    url,
    fetch: (u, i) => fetch(u, i),
    getHeaders: async () => ({}),
    requestTimeoutMs: 20_000,
    ...(scenario.startsWith('auth/') ? { oauth: conformanceOAuth(url) } : {}),
    elicit: acceptDefaults,
    // As for a server the user added: server/discover first, the initialize handshake when not spoken (#42.3).
    era: 'auto',
  });
  try {
    await step(conn);
  } finally {
    await conn.close();
  }
  console.log(`conformance-client: ${scenario} done (server ${conn.server.name} ${conn.server.version}, protocol ${conn.server.protocolVersion})`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`conformance-client: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);

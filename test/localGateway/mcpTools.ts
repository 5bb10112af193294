/**
 * The local gateway's MCP tools: definitions (with realistic input/output schemas) and behaviour.
 * Pure functions of (caller, arguments); the HTTP and JSON-RPC framing lives in mcp.ts.
 *
 * Assumption (spec: "the full set of tools ... not shown"): besides the five named tools, three
 * knowledge-base tools (kb_list_collections, kb_search, kb_get_document), and WordPress sites and
 * abilities modelled on the WordPress Abilities API (names like `core/get-post`, annotations
 * `readonly` / `destructive` / `idempotent`).
 *
 * Fault triggers (tests and the sandbox): the ability `demo/slow-report`, or the marker `[[timeout]]`
 * anywhere in the arguments of a read, gives the tool error `timeout` with the upstream REST 504
 * kept in the message (G-MCP-12); the ability `demo/flaky-publish`, or `[[ambiguous]]` in the
 * arguments of run_site_ability, gives `ambiguous_outcome` (G-MCP-13).
 */
import { LOCAL_PERSON } from './mcpJwt';

export const MCP_SERVER_NAME = 'ai-gateway-local-mcp';
export const MCP_SERVER_VERSION = '1.4.0';

export interface McpCaller {
  /** 'user' key, 'account' key, or a verified 'jwt'. */
  kind: 'user' | 'account' | 'jwt';
  /** The acting person; undefined for Account keys (they act as nobody). */
  person: string | undefined;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

export interface ToolResult {
  content: Array<Record<string, unknown>>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

interface Site {
  site_id: string;
  name: string;
  url: string;
  /** People who connected their CMS account to this site. */
  connected: string[];
}

const SITES: Site[] = [
  { site_id: 'site_blog', name: 'Team Blog', url: 'https://blog.example.test', connected: [LOCAL_PERSON] },
  { site_id: 'site_shop', name: 'Shop', url: 'https://shop.example.test', connected: [] },
];

interface Ability {
  name: string;
  label: string;
  description: string;
  input_schema: Record<string, unknown>;
  annotations: { readonly: boolean; destructive: boolean; idempotent: boolean };
}

const ABILITIES: Ability[] = [
  {
    name: 'core/get-site-info',
    label: 'Get site info',
    description: 'Returns the site title, tagline, URL and WordPress version.',
    input_schema: { type: 'object', properties: {} },
    annotations: { readonly: true, destructive: false, idempotent: true },
  },
  {
    name: 'core/get-post',
    label: 'Get post',
    description: 'Fetches one post by id.',
    input_schema: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
    annotations: { readonly: true, destructive: false, idempotent: true },
  },
  {
    name: 'core/create-post',
    label: 'Create post',
    description: 'Creates a post (draft by default).',
    input_schema: {
      type: 'object',
      properties: { title: { type: 'string', minLength: 1 }, content: { type: 'string' }, status: { type: 'string', enum: ['draft', 'publish'], default: 'draft' } },
      required: ['title'],
    },
    annotations: { readonly: false, destructive: false, idempotent: false },
  },
  {
    name: 'demo/slow-report',
    label: 'Slow traffic report',
    description: 'A read that always times out upstream (local fault trigger).',
    input_schema: { type: 'object', properties: { days: { type: 'integer', minimum: 1, maximum: 90 } } },
    annotations: { readonly: true, destructive: false, idempotent: true },
  },
  {
    name: 'demo/flaky-publish',
    label: 'Flaky publish',
    description: 'A write whose outcome is always uncertain (local fault trigger).',
    input_schema: { type: 'object', properties: { post_id: { type: 'integer', minimum: 1 } }, required: ['post_id'] },
    annotations: { readonly: false, destructive: false, idempotent: false },
  },
];

const siteIdSchema = { type: 'string', description: 'Site identifier, as returned by list_account_sites (e.g. site_blog).', minLength: 1 };

export const TOOLS: ToolDefinition[] = [
  {
    name: 'ping',
    title: 'Ping',
    description: 'Returns the tool server name and version. Useful to check credentials end to end.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: { type: 'object', properties: { name: { type: 'string' }, version: { type: 'string' } }, required: ['name', 'version'] },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'list_account_sites',
    title: 'List account sites',
    description: 'Lists the WordPress sites of the account, with whether you connected your WordPress account to each (cms_connection_status).',
    inputSchema: {
      type: 'object',
      properties: { search: { type: 'string', description: 'Filter by site name or URL.' }, limit: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Maximum number of sites.' } },
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        sites: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              site_id: { type: 'string' },
              name: { type: 'string' },
              url: { type: 'string' },
              cms_connection_status: { type: 'string', enum: ['connected', 'not_connected', 'not_applicable'] },
            },
            required: ['site_id', 'name', 'url', 'cms_connection_status'],
          },
        },
      },
      required: ['sites'],
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'list_site_abilities',
    title: 'List site abilities',
    description: 'Lists the abilities a site exposes, with their input schemas and annotations (readonly, destructive). Needs a User key.',
    inputSchema: { type: 'object', properties: { site_id: siteIdSchema }, required: ['site_id'], additionalProperties: false },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'search_abilities',
    title: 'Search abilities',
    description: 'Searches abilities across your sites by keyword. Needs a User key.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 2, description: 'Words to look for in ability names and descriptions.' },
        site_id: { ...siteIdSchema, description: 'Restrict to one site.' },
        limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'run_site_ability',
    title: 'Run site ability',
    description: 'Runs one ability on a site, as you. Can change the live site. Needs a User key and your WordPress account connected to the site.',
    inputSchema: {
      type: 'object',
      properties: {
        site_id: siteIdSchema,
        ability: { type: 'string', description: 'Ability name, e.g. core/get-post.', pattern: '^[a-z0-9-]+/[a-z0-9-]+$' },
        input: { type: 'object', description: "The ability's input, matching its input_schema.", additionalProperties: true },
      },
      required: ['site_id', 'ability'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  },
  {
    name: 'kb_list_collections',
    title: 'List knowledge-base collections',
    description: 'Lists knowledge-base collections of the project.',
    inputSchema: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 } }, additionalProperties: false },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'kb_search',
    title: 'Search a knowledge base',
    description: 'Semantic search in one knowledge-base collection.',
    inputSchema: {
      type: 'object',
      properties: {
        collection_id: { type: 'string', description: 'Collection to search.' },
        query: { type: 'string', minLength: 1 },
        top_k: { type: 'integer', minimum: 1, maximum: 20, default: 5, description: 'Number of passages.' },
        min_score: { type: 'number', minimum: 0, maximum: 1, description: 'Drop passages scoring below this.' },
        filters: {
          type: 'object',
          description: 'Optional metadata filters.',
          properties: { language: { type: 'string', enum: ['en', 'de', 'fr'] }, tags: { type: 'array', items: { type: 'string' }, maxItems: 5 } },
        },
      },
      required: ['collection_id', 'query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'kb_get_document',
    title: 'Get a knowledge-base document',
    description: 'Fetches one document of a collection, as Markdown.',
    inputSchema: {
      type: 'object',
      properties: { collection_id: { type: 'string' }, document_id: { type: 'string' } },
      required: ['collection_id', 'document_id'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
];

export const TOOLS_PAGE_SIZE = 5;

function text(t: string): Record<string, unknown> {
  return { type: 'text', text: t };
}

function ok(structured: Record<string, unknown>, summary?: string): ToolResult {
  return { content: [text(summary ?? JSON.stringify(structured, null, 2))], structuredContent: structured };
}

/** A tool error: isError with "<code>: <message>" text and structuredContent.error. */
export function toolError(code: string, message: string, extra: Record<string, unknown> = {}): ToolResult {
  return { isError: true, content: [text(`${code}: ${message}`)], structuredContent: { error: { code, message, ...extra } } };
}

function timeoutError(what: string): ToolResult {
  // G-MCP-12: the upstream REST 504 code and message stay in the tool error message.
  return toolError('timeout', `${what} timed out: upstream returned REST 504 (gateway_timeout: "The site did not respond within 30 seconds."). Retrying the identical read is safe.`, {
    upstream: { status: 504, code: 'gateway_timeout', message: 'The site did not respond within 30 seconds.' },
  });
}

function needsUser(caller: McpCaller, tool: string): ToolResult | undefined {
  if (caller.person !== undefined) return undefined;
  return toolError('unauthorized', `${tool} needs a User key: Account keys act as nobody and cannot use site abilities.`, { reason: 'key_type' });
}

/** A site of the account by its identifier (also GET /v1/sites/{site_identifier}, sites.ts). */
export function siteOf(id: unknown): Site | undefined {
  return SITES.find((s) => s.site_id === id);
}

export function callTool(name: string, args: Record<string, unknown>, caller: McpCaller): ToolResult {
  const marker = JSON.stringify(args);
  switch (name) {
    case 'ping':
      return ok({ name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION }, `${MCP_SERVER_NAME} ${MCP_SERVER_VERSION}`);
    case 'list_account_sites': {
      if (marker.includes('[[timeout]]')) return timeoutError('list_account_sites');
      const search = typeof args.search === 'string' ? args.search.toLowerCase() : '';
      const limit = typeof args.limit === 'number' ? args.limit : 20;
      const sites = SITES.filter((s) => !search || s.name.toLowerCase().includes(search) || s.url.includes(search))
        .slice(0, limit)
        .map((s) => ({
          site_id: s.site_id,
          name: s.name,
          url: s.url,
          // Assumption (spec: values not shown): connected / not_connected; not_applicable when
          // the caller acts as nobody (Account key).
          cms_connection_status: caller.person === undefined ? 'not_applicable' : s.connected.includes(caller.person) ? 'connected' : 'not_connected',
        }));
      return ok({ sites });
    }
    case 'list_site_abilities': {
      const denied = needsUser(caller, name);
      if (denied) return denied;
      if (marker.includes('[[timeout]]')) return timeoutError('list_site_abilities');
      const site = siteOf(args.site_id);
      if (!site) return toolError('not_found', `no site ${String(args.site_id)} in this account`);
      return ok({ site_id: site.site_id, abilities: ABILITIES });
    }
    case 'search_abilities': {
      const denied = needsUser(caller, name);
      if (denied) return denied;
      if (marker.includes('[[timeout]]')) return timeoutError('search_abilities');
      const q = String(args.query ?? '').toLowerCase();
      const limit = typeof args.limit === 'number' ? args.limit : 10;
      const sites = args.site_id === undefined ? SITES : SITES.filter((s) => s.site_id === args.site_id);
      const matches = sites
        .flatMap((s) => ABILITIES.filter((a) => `${a.name} ${a.label} ${a.description}`.toLowerCase().includes(q)).map((a) => ({ site_id: s.site_id, name: a.name, label: a.label, annotations: a.annotations })))
        .slice(0, limit);
      return ok({ abilities: matches });
    }
    case 'run_site_ability': {
      const denied = needsUser(caller, name);
      if (denied) return denied;
      const site = siteOf(args.site_id);
      if (!site) return toolError('not_found', `no site ${String(args.site_id)} in this account`);
      // G-MCP-11: the acting person must have connected their CMS account to the target site.
      if (!site.connected.includes(caller.person ?? '')) {
        return toolError('unauthorized', `you have not connected your WordPress account to ${site.name} (${site.site_id}); connect it in the site's settings, then run the ability again.`, { reason: 'not_connected' });
      }
      const ability = ABILITIES.find((a) => a.name === args.ability);
      if (!ability) return toolError('not_found', `site ${site.site_id} has no ability ${String(args.ability)}`);
      if (ability.name === 'demo/slow-report' || (ability.annotations.readonly && marker.includes('[[timeout]]'))) return timeoutError(ability.name);
      if (ability.name === 'demo/flaky-publish' || (!ability.annotations.readonly && marker.includes('[[ambiguous]]'))) {
        return toolError('ambiguous_outcome', `the write ${ability.name} on ${site.site_id} was sent, but the site did not confirm it: it may or may not have happened. Do not retry automatically.`);
      }
      const input = (args.input ?? {}) as Record<string, unknown>;
      switch (ability.name) {
        case 'core/get-site-info':
          return ok({ title: site.name, tagline: 'Just another local site', url: site.url, wp_version: '6.9' });
        case 'core/get-post':
          return ok({ id: input.id ?? 1, title: 'Hello world!', status: 'publish', content: '<p>Welcome to WordPress.</p>' });
        default:
          return ok({ id: 101, title: input.title ?? '', status: input.status ?? 'draft', link: `${site.url}/?p=101` });
      }
    }
    case 'kb_list_collections':
      return ok({ collections: [{ id: 'col_docs', name: 'Product docs', documents: 2 }] });
    case 'kb_search': {
      if (marker.includes('[[timeout]]')) return timeoutError('kb_search');
      const topK = typeof args.top_k === 'number' ? args.top_k : 5;
      const min = typeof args.min_score === 'number' ? args.min_score : 0;
      const passages = [
        { document_id: 'doc_intro', score: 0.91, text: `Introduction: how ${String(args.query)} works.` },
        { document_id: 'doc_faq', score: 0.42, text: 'FAQ: common questions.' },
      ].filter((p) => p.score >= min);
      return ok({ passages: passages.slice(0, topK) });
    }
    case 'kb_get_document':
      return {
        content: [
          text(`# ${String(args.document_id)}\n\nThis is **Markdown** from the knowledge base.\n\n<script>alert(1)</script>`),
          { type: 'resource_link', uri: `kb://col_docs/${String(args.document_id)}`, name: String(args.document_id), mimeType: 'text/markdown' },
        ],
      };
    default:
      throw new Error(`unknown tool ${name}`);
  }
}

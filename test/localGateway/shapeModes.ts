/**
 * Shape modes: the local gateway answers a documented route in ANOTHER plausible shape, so tests and
 * journeys can prove that the client notices a shape it does not know (issue 39, item 15: the
 * compatibility check reports the assumption as not held) instead of reading it as data.
 *
 * A mode rewrites the JSON body the route's own handler wrote (status 200 only), so the route keeps
 * its authentication, errors and state; only the successful answer's shape changes. A mode stays armed
 * until cleared (or the gateway is reset).
 *
 * Control (loopback only, control.ts):
 *   GET    /__control/shapes            -> {modes:[...armed], known:[...every mode]}
 *   POST   /__control/shapes            body {mode} or {modes:[...]} -> {modes:[...armed]}
 *   DELETE /__control/shapes            disarms every mode
 *
 * Modes (each names the route it changes and the shape it gives):
 * - `catalog_bare_array`: GET /v1/models answers the model array itself, without `object`/`data`.
 * - `catalog_numeric_pricing`: GET /v1/models: every pricing rate is a JSON number, not a decimal string.
 * - `catalog_no_pricing_version`: GET /v1/models: `pricing_version` is left out of every pricing.
 * - `schema_openapi`: GET /v1/models/{owner}/{model}/schema answers an OpenAPI-style
 *   `{openapi, paths}` document instead of a JSON Schema with `properties`.
 * - `analytics_renamed_fields`: GET /v1/analytics names the request count `request_count`, nests the
 *   window as `window: {start, end}` and names a bucket's start `bucket_start`.
 * - `exclusions_paged_items`: GET (hosting) …/cache_exclusions answers `{items:[…], next_cursor}`, a
 *   paged envelope, instead of `{results:[…]}`.
 * - `mcp_tools_as_items`: POST /v1/mcp `tools/list` answers `{items:[…]}` instead of `{tools:[…]}`.
 * - `mcp_no_tools_capability`: POST /v1/mcp `initialize` declares no `tools` capability.
 */
import type { Req, Res } from './context';
import { pathOf } from './faults';

export const SHAPE_MODES = [
  'catalog_bare_array',
  'catalog_numeric_pricing',
  'catalog_no_pricing_version',
  'schema_openapi',
  'analytics_renamed_fields',
  'exclusions_paged_items',
  'mcp_tools_as_items',
  'mcp_no_tools_capability',
] as const;

export type ShapeMode = (typeof SHAPE_MODES)[number];

type Json = unknown;
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Which request a mode applies to. The MCP modes also look at the JSON-RPC method of the answer. */
function appliesTo(mode: ShapeMode, method: string, path: string): boolean {
  switch (mode) {
    case 'catalog_bare_array':
    case 'catalog_numeric_pricing':
    case 'catalog_no_pricing_version':
      return method === 'GET' && path === '/v1/models';
    case 'schema_openapi':
      return method === 'GET' && /^\/v1\/models\/[^/]+\/[^/]+\/schema\/?$/.test(path);
    case 'analytics_renamed_fields':
      return method === 'GET' && path === '/v1/analytics';
    case 'exclusions_paged_items':
      return method === 'GET' && /\/v1\/installs\/[^/]+\/cache_exclusions\/?$/.test(path);
    case 'mcp_tools_as_items':
    case 'mcp_no_tools_capability':
      return method === 'POST' && path === '/v1/mcp';
  }
}

const RATE_FIELDS = ['input_per_million', 'output_per_million', 'cache_read_per_million', 'cache_write_per_million', 'reasoning_per_million', 'per_image', 'per_million_characters', 'per_megabyte_audio'];

function eachPricing(body: Json, edit: (pricing: Obj) => void): void {
  if (!isObj(body) || !Array.isArray(body.data)) return;
  for (const m of body.data) if (isObj(m) && isObj(m.pricing)) edit(m.pricing);
}

/** A JSON-RPC response (or each of a batch) whose result is edited. */
function eachResult(body: Json, edit: (result: Obj) => void): void {
  for (const r of Array.isArray(body) ? body : [body]) if (isObj(r) && isObj(r.result)) edit(r.result);
}

function transform(mode: ShapeMode, body: Json): Json {
  switch (mode) {
    case 'catalog_bare_array':
      return isObj(body) && Array.isArray(body.data) ? body.data : body;
    case 'catalog_numeric_pricing':
      eachPricing(body, (p) => {
        for (const f of RATE_FIELDS) if (typeof p[f] === 'string') p[f] = Number(p[f]);
      });
      return body;
    case 'catalog_no_pricing_version':
      eachPricing(body, (p) => delete p.pricing_version);
      return body;
    case 'schema_openapi':
      return { openapi: '3.1.0', info: { title: isObj(body) ? String(body.title ?? 'model') : 'model' }, paths: { '/v1/chat/completions': { post: { requestBody: { content: { 'application/json': {} } } } } } };
    case 'analytics_renamed_fields': {
      if (!isObj(body)) return body;
      const renameCount = (o: unknown): void => {
        if (isObj(o) && 'requests' in o) {
          o.request_count = o.requests;
          delete o.requests;
        }
      };
      renameCount(body.totals);
      if (isObj(body.totals) && Array.isArray(body.totals.models)) body.totals.models.forEach(renameCount);
      if (Array.isArray(body.buckets)) {
        for (const b of body.buckets) {
          renameCount(b);
          if (isObj(b) && Array.isArray(b.models)) b.models.forEach(renameCount);
          if (isObj(b) && 'start' in b) {
            b.bucket_start = b.start;
            delete b.start;
          }
        }
      }
      body.window = { start: body.window_start, end: body.window_end };
      delete body.window_start;
      delete body.window_end;
      return body;
    }
    case 'exclusions_paged_items':
      return isObj(body) && Array.isArray(body.results) ? { items: body.results, next_cursor: 'page-2' } : body;
    case 'mcp_tools_as_items':
      eachResult(body, (r) => {
        if (Array.isArray(r.tools)) {
          r.items = r.tools;
          delete r.tools;
        }
      });
      return body;
    case 'mcp_no_tools_capability':
      eachResult(body, (r) => {
        if (isObj(r.capabilities) && typeof r.protocolVersion === 'string') r.capabilities = {};
      });
      return body;
  }
}

export class ShapeModes {
  private armed = new Set<ShapeMode>();

  arm(mode: ShapeMode): void {
    this.armed.add(mode);
  }

  clear(): void {
    this.armed.clear();
  }

  list(): ShapeMode[] {
    return [...this.armed];
  }

  /**
   * Called by the server before the route's handler: when an armed mode applies to this request, the
   * response's writeHead/end are wrapped so a 200 JSON body is rewritten (Content-Length recomputed).
   */
  wrap(req: Req, res: Res): void {
    const method = (req.method ?? 'GET').toUpperCase();
    const path = pathOf(req);
    const modes = [...this.armed].filter((m) => appliesTo(m, method, path));
    if (modes.length === 0) return;
    const writeHead = res.writeHead.bind(res) as (status: number, headers?: Record<string, string | number>) => Res;
    const end = res.end.bind(res) as (chunk?: unknown) => Res;
    let held: { status: number; headers: Record<string, string | number> } | undefined;
    (res as unknown as { writeHead: unknown }).writeHead = (status: number, headers?: Record<string, string | number>): Res => {
      held = { status, headers: { ...(headers ?? {}) } };
      return res;
    };
    (res as unknown as { end: unknown }).end = (chunk?: unknown): Res => {
      const h = held ?? { status: res.statusCode, headers: {} };
      const type = String(Object.entries(h.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? res.getHeader('content-type') ?? '');
      let text = chunk === undefined ? '' : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
      if (h.status === 200 && type.includes('application/json') && text !== '') {
        try {
          let body = JSON.parse(text) as Json;
          for (const m of modes) body = transform(m, body);
          text = JSON.stringify(body);
        } catch {
          /* not JSON after all: sent unchanged */
        }
      }
      for (const k of Object.keys(h.headers)) if (k.toLowerCase() === 'content-length') delete h.headers[k];
      h.headers['Content-Length'] = Buffer.byteLength(text);
      writeHead(h.status, h.headers);
      return end(text);
    };
  }
}

/** Reads `{mode}` or `{modes:[...]}`; throws a readable Error for anything else. */
export function parseShapeModes(value: unknown): ShapeMode[] {
  if (!isObj(value)) throw new Error('body must be an object with mode or modes');
  const list = value.modes !== undefined ? value.modes : [value.mode];
  if (!Array.isArray(list) || list.length === 0) throw new Error('modes must be a non-empty array');
  return list.map((m) => {
    if (typeof m !== 'string' || !(SHAPE_MODES as readonly string[]).includes(m)) throw new Error(`mode must be one of ${SHAPE_MODES.join(', ')}`);
    return m as ShapeMode;
  });
}

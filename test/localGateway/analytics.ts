/**
 * GET /v1/analytics on the local gateway (G-AN-1..9).
 *
 * Usage is synthetic and deterministic: one usage record every 7 minutes over the last 35 days of the
 * gateway clock, spread over models, operations, registered sites (and direct API-key traffic with an
 * empty client_id), auth methods, actor types and applications. One record is large enough that
 * totals exceed 2^53 nanocredits, so a client that parses credits_nano as a double is caught (G-AN-6).
 *
 * Events: `analytics-query` (the parameters of every accepted query), `billed` (each served request).
 *
 * Auth: a local identity-provider JWT (mcpJwt.ts) whose `account` claim owns the project. API keys
 * authenticate but get 403: analytics needs account-level identity-provider authentication.
 */
// The documented values, written out here rather than imported from the client, so a client constant
// that drifts from the spec is caught by the tests instead of being mirrored by the server.
const BUCKET_WIDTHS = ['10m', '1h', '1d'] as const;
type BucketWidth = (typeof BUCKET_WIDTHS)[number];
const BUCKET_SECONDS: Record<BucketWidth, number> = { '10m': 600, '1h': 3600, '1d': 86400 };
const MAX_WINDOW_SECONDS: Record<BucketWidth, number> = { '10m': 86400, '1h': 7 * 86400, '1d': 30 * 86400 };
const AUTH_METHODS = ['browser_session', 'api_key', 'service_token', 'okta', 'internal_service', 'unknown'] as const;
const ACTOR_TYPES = ['anonymous', 'authenticated', 'service', 'unknown'] as const;
const APPLICATIONS = ['svc-ai-chatbot', 'svc-ai-playground', 'power-coworker', 'power-connector', 'svc-agents', 'svc-kb-sync', 'third_party', 'unknown'] as const;
const GROUP_BY_DIMENSIONS = ['model', 'operation', 'client_id', 'site_id', 'auth_method', 'actor_type', 'application'] as const;
type GroupByDimension = (typeof GROUP_BY_DIMENSIONS)[number];
const DEFAULT_GROUP_BY: readonly GroupByDimension[] = ['model', 'operation'];
/**
 * Names the spec does not show (assumed; the client keeps the same assumption in ONE place,
 * src/core/usage/analytics.ts ANALYTICS_WIRE; change both together).
 */
const WIRE = { endTimeParam: 'end_time', siteFilterParam: 'client_id', requestCount: 'requests', windowStart: 'window_start', windowEnd: 'window_end', bucketStart: 'start' } as const;

/** G-AN-7, as documented: credits descending; ties ascending by model, operation, client_id, auth_method, actor_type, application. */
function documentedOrder(a: Row, b: Row): number {
  if (a.credits_nano !== b.credits_nano) return a.credits_nano > b.credits_nano ? -1 : 1;
  const cmp = (x: string | undefined, y: string | undefined): number => ((x ?? '') < (y ?? '') ? -1 : (x ?? '') > (y ?? '') ? 1 : 0);
  return cmp(a.model, b.model) || cmp(a.operation, b.operation) || cmp(a.client_id, b.client_id) || cmp(a.auth_method, b.auth_method) || cmp(a.actor_type, b.actor_type) || cmp(a.application, b.application);
}

import type { GatewayContext, GatewayEventLog, Req, Res, RouteModule } from './context';
import { LOCAL_ACCOUNT, LOCAL_PROJECT, looksLikeJwt, verifyLocalJwt } from './mcpJwt';
import { modesOf } from './modes';

interface UsageRecord {
  at: number; // unix seconds
  model: string;
  operation: string;
  client_id: string;
  site_id: string;
  auth_method: string;
  actor_type: string;
  application: string;
  credits_nano: bigint;
}

const MODELS = ['openai/gpt-5.1', 'anthropic/claude-sonnet-4.5', 'google/gemini-2.5-pro', 'openai/gpt-image-1', 'qwen/qwen3-max'];
const OPERATIONS: Record<string, string> = {
  'openai/gpt-image-1': 'image',
};
const SITES = [
  { client_id: '', site_id: '' }, // console, playground, direct API-key traffic
  { client_id: 'cl_site_blog', site_id: 'site_7d1f' },
  { client_id: 'cl_site_shop', site_id: 'site_93ab' },
];

function usage(nowSec: number): UsageRecord[] {
  const out: UsageRecord[] = [];
  let seed = 42;
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (let t = nowSec - 35 * 86400; t < nowSec; t += 7 * 60) {
    const model = MODELS[rand(MODELS.length)];
    const site = SITES[rand(SITES.length)];
    const authMethod = site.client_id === '' ? 'api_key' : AUTH_METHODS[rand(AUTH_METHODS.length)];
    out.push({
      at: t,
      model,
      operation: OPERATIONS[model] ?? 'chat',
      ...site,
      auth_method: authMethod,
      actor_type: ACTOR_TYPES[rand(ACTOR_TYPES.length)],
      application: APPLICATIONS[rand(APPLICATIONS.length)],
      credits_nano: BigInt(1 + rand(5_000_000)) * 1000n + BigInt(rand(1000)),
    });
  }
  // One very large job three hours ago: pushes totals beyond Number.MAX_SAFE_INTEGER.
  out.push({ at: nowSec - 3 * 3600, model: 'openai/gpt-5.1', operation: 'chat', ...SITES[1], auth_method: 'service_token', actor_type: 'service', application: 'svc-agents', credits_nano: 9_007_199_254_740_993n });
  return out;
}

/**
 * What this gateway actually served: every priced reply it answers is billed here (chat.ts calls
 * recordServed), and GET /v1/analytics sums these records together with the synthetic history above
 * (switchable). A test can inject a known billing difference: `extraNanoPerRequest` is added to the
 * bill of every request served from then on. One state per running gateway (keyed by its event log);
 * bounded so a long `npm run gateway` session does not grow forever.
 */
export interface BillingState {
  served: UsageRecord[];
  extraNanoPerRequest: bigint;
  history: boolean;
}
const MAX_SERVED = 100_000;
const billings = new WeakMap<GatewayEventLog, BillingState>();

export function billingOf(events: GatewayEventLog): BillingState {
  let b = billings.get(events);
  if (!b) {
    b = { served: [], extraNanoPerRequest: 0n, history: true };
    billings.set(events, b);
  }
  return b;
}

export function resetBilling(events: GatewayEventLog): void {
  billings.delete(events);
}

/** One served reply's tokens as billed, whatever route served it (each route maps its own usage). */
export interface ServedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens?: number;
  completion_tokens_details?: { reasoning_tokens?: number };
  /** Prompt tokens read from the cache (part of prompt_tokens). */
  cache_read_tokens?: number;
  /** Prompt tokens written to the cache (part of prompt_tokens), billed at the cache-write rate. */
  cache_write_tokens?: number;
}
type Rates = Partial<Record<'input_per_million' | 'output_per_million' | 'cache_read_per_million' | 'cache_write_per_million' | 'reasoning_per_million', string>> & { unit?: string };

/**
 * The gateway's bill for one reply, exact: each token line at its rate per million (cached reads and
 * writes at their own rate, else the input rate; reasoning at its rate, else the output rate, taken
 * out of the completion when the total shows it is included), summed as an exact fraction and rounded
 * half up once to a nanocredit.
 */
export function billNano(usage: ServedUsage, pricing: Rates | undefined): bigint {
  if (!pricing || pricing.unit !== 'credits') return 0n;
  const n = (v: number | undefined): bigint => BigInt(v ?? 0);
  const prompt = n(usage.prompt_tokens);
  const completion = n(usage.completion_tokens);
  const reasoning = n(usage.completion_tokens_details?.reasoning_tokens);
  const cached = n(usage.cache_read_tokens);
  const written = n(usage.cache_write_tokens);
  const included = reasoning > 0n && usage.total_tokens !== undefined && n(usage.total_tokens) < prompt + completion + reasoning;
  const output = included ? (completion > reasoning ? completion - reasoning : 0n) : completion;
  const input = prompt > cached + written ? prompt - cached - written : 0n;
  const lines: Array<[bigint, string | undefined]> = [
    [input, pricing.input_per_million],
    [cached, pricing.cache_read_per_million ?? pricing.input_per_million],
    [written, pricing.cache_write_per_million ?? pricing.input_per_million],
    [output, pricing.output_per_million],
    [reasoning, pricing.reasoning_per_million ?? pricing.output_per_million],
  ];
  // Every rate as digits / 10^scale; common denominator 10^6 (per million) * 10^maxScale / 10^9 (nano).
  let maxScale = 0;
  for (const [, rate] of lines) if (rate !== undefined && /^\d+\.\d+$/.test(rate)) maxScale = Math.max(maxScale, rate.split('.')[1].length);
  let num = 0n;
  for (const [tokens, rate] of lines) {
    if (tokens === 0n || rate === undefined || !/^\d+(\.\d+)?$/.test(rate)) continue;
    const [int, frac = ''] = rate.split('.');
    num += tokens * BigInt(int + frac.padEnd(maxScale, '0'));
  }
  // nano = num * 10^9 / (10^6 * 10^maxScale), half up.
  const den = 10n ** BigInt(maxScale) * 1_000_000n;
  const scaled = num * 1_000_000_000n;
  return (scaled * 2n + den) / (den * 2n);
}

/** Bills one reply served now with the model's current rates (plus any injected difference). */
export function recordServed(ctx: GatewayContext, served: { model: string; operation: string; usage: ServedUsage; pricing: Rates | undefined }): void {
  const billing = billingOf(ctx.events);
  if (billing.served.length >= MAX_SERVED) billing.served.shift();
  const credits = billNano(served.usage, served.pricing) + billing.extraNanoPerRequest;
  billing.served.push({
    at: Math.floor(ctx.options.now().getTime() / 1000),
    model: served.model,
    operation: served.operation,
    client_id: '',
    site_id: '',
    auth_method: 'api_key',
    actor_type: 'authenticated',
    application: 'third_party',
    credits_nano: credits,
  });
  ctx.events.push({ type: 'billed', model: served.model, credits_nano: credits.toString() });
}

/**
 * JSON with bigint written as exact integer literals, or (modes.ts analytics 'unsafe_nano') in exponent
 * form, e.g. 9007199254740993 as 9.007199254740993e15: the same digits, which a JSON parser rounds.
 */
function stringify(value: unknown, exponent = false): string {
  const literal = (digits: string): string => {
    if (!exponent) return digits;
    const sign = digits.startsWith('-') ? '-' : '';
    const d = digits.replace('-', '');
    return d.length === 1 ? `${sign}${d}e0` : `${sign}${d[0]}.${d.slice(1)}e${d.length - 1}`;
  };
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `__BIG__${v.toString()}__` : v)).replace(/"__BIG__(-?\d+)__"/g, (_m, digits: string) => literal(digits));
}

/** modes.ts analytics 'renamed': the names a gateway might use instead of the assumed ones (WIRE). */
const RENAMED: Record<string, string> = { [WIRE.requestCount]: 'request_count', [WIRE.windowStart]: 'start', [WIRE.windowEnd]: 'end', [WIRE.bucketStart]: 'bucket_start' };

function renamed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(renamed);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [RENAMED[k] ?? k, renamed(v)]));
}

interface Row {
  model: string;
  operation: string;
  client_id?: string;
  site_id?: string;
  auth_method?: string;
  actor_type?: string;
  application?: string;
  credits_nano: bigint;
  [count: string]: unknown;
}

function aggregate(records: UsageRecord[], groupBy: readonly GroupByDimension[]): Row[] {
  const map = new Map<string, Row>();
  for (const r of records) {
    const row: Row = { model: '', operation: '', credits_nano: 0n };
    // Rows always carry model and operation (the documented row fields); other dimensions only when grouped.
    row.model = groupBy.includes('model') ? r.model : '';
    row.operation = groupBy.includes('operation') ? r.operation : '';
    for (const d of groupBy) if (d !== 'model' && d !== 'operation') row[d] = r[d];
    const key = GROUP_BY_DIMENSIONS.map((d) => String(row[d] ?? '')).join('\u0000');
    const existing = map.get(key);
    if (existing) {
      existing.credits_nano += r.credits_nano;
      existing[WIRE.requestCount] = (existing[WIRE.requestCount] as number) + 1;
    } else {
      row.credits_nano = r.credits_nano;
      row[WIRE.requestCount] = 1;
      map.set(key, row);
    }
  }
  return [...map.values()].sort(documentedOrder);
}

function bad(ctx: GatewayContext, res: Res, message: string): void {
  ctx.sendError(res, 400, 'invalid_request_error', message);
}

function handle(req: Req, res: Res, ctx: GatewayContext): void {
  const header = req.headers.authorization;
  const token = header === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (token === undefined || !looksLikeJwt(token)) {
    if (token !== undefined && token.startsWith('svc_')) {
      // Let the shared code classify revoked/unknown keys as 401 first.
      if (!ctx.authenticate(req, res)) return;
      ctx.sendError(res, 403, 'permission_error', 'analytics requires account-level identity-provider authentication; API keys are not accepted');
      return;
    }
    ctx.sendError(res, 401, 'authentication_error', 'invalid or revoked API key', { 'WWW-Authenticate': 'Bearer realm=ai-services' });
    return;
  }
  const verified = verifyLocalJwt(token);
  if (!verified.ok) {
    ctx.sendError(res, 401, 'authentication_error', 'invalid or revoked API key', { 'WWW-Authenticate': 'Bearer realm=ai-services' });
    return;
  }
  const q = new URL(req.url ?? '/', 'http://local').searchParams;
  const projectId = q.get('project_id');
  const startRaw = q.get('start_time');
  if (!projectId) return bad(ctx, res, 'project_id is required');
  if (!startRaw || !/^\d+$/.test(startRaw)) return bad(ctx, res, 'start_time must be Unix seconds');
  if (verified.claims.account !== LOCAL_ACCOUNT || projectId !== LOCAL_PROJECT) {
    ctx.sendError(res, 403, 'permission_error', 'not authorised for the target account');
    return;
  }
  const width = (q.get('bucket_width') ?? '1d') as BucketWidth;
  if (!(BUCKET_WIDTHS as readonly string[]).includes(width)) return bad(ctx, res, `bucket_width must be one of ${BUCKET_WIDTHS.join(', ')}`);
  const nowSec = Math.floor(ctx.options.now().getTime() / 1000);
  const start = Number(startRaw);
  const endRaw = q.get(WIRE.endTimeParam);
  if (endRaw !== null && !/^\d+$/.test(endRaw)) return bad(ctx, res, `${WIRE.endTimeParam} must be Unix seconds`);
  const end = endRaw === null ? nowSec : Number(endRaw);
  if (end <= start) return bad(ctx, res, 'the window end must be after start_time');
  if (end - start > MAX_WINDOW_SECONDS[width]) return bad(ctx, res, `window exceeds the maximum for bucket_width ${width}`);
  const filters: Array<[string, readonly string[]]> = [
    ['auth_method', AUTH_METHODS],
    ['actor_type', ACTOR_TYPES],
    ['application', APPLICATIONS],
  ];
  for (const [name, allowed] of filters) {
    const v = q.get(name);
    if (v !== null && !allowed.includes(v)) return bad(ctx, res, `${name} must be one of ${allowed.join(', ')}`);
  }
  const groupRaw = q.get('group_by');
  const groupBy = groupRaw === null ? DEFAULT_GROUP_BY : (groupRaw.split(',').map((s) => s.trim()) as GroupByDimension[]);
  for (const d of groupBy) if (!(GROUP_BY_DIMENSIONS as readonly string[]).includes(d)) return bad(ctx, res, `group_by dimension '${d}' is not supported`);
  const site = q.get(WIRE.siteFilterParam);
  if (site !== null && site === '') return bad(ctx, res, 'the site filter needs a registered client_id');

  // What was asked, so a test can see that a filter change reached the gateway.
  ctx.events.push({ type: 'analytics-query', start_time: start, end_time: end, bucket_width: width, auth_method: q.get('auth_method'), actor_type: q.get('actor_type'), application: q.get('application'), group_by: groupBy.join(','), site: site });
  const billing = billingOf(ctx.events);
  const selected = [...(billing.history ? usage(nowSec) : []), ...billing.served].filter(
    (r) =>
      r.at >= start &&
      r.at < end &&
      (q.get('auth_method') === null || r.auth_method === q.get('auth_method')) &&
      (q.get('actor_type') === null || r.actor_type === q.get('actor_type')) &&
      (q.get('application') === null || r.application === q.get('application')) &&
      (site === null || r.client_id === site),
  );
  const step = BUCKET_SECONDS[width];
  const buckets = new Map<number, UsageRecord[]>();
  for (const r of selected) {
    const b = Math.floor(r.at / step) * step;
    const list = buckets.get(b);
    if (list) list.push(r);
    else buckets.set(b, [r]);
  }
  const sum = (list: UsageRecord[]): bigint => list.reduce((acc, r) => acc + r.credits_nano, 0n);
  const body = {
    bucket_width: width,
    [WIRE.windowStart]: new Date(start * 1000).toISOString(),
    [WIRE.windowEnd]: new Date(end * 1000).toISOString(),
    totals: { credits_nano: sum(selected), [WIRE.requestCount]: selected.length, models: aggregate(selected, groupBy) },
    buckets: [...buckets.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([b, list]) => ({
        [WIRE.bucketStart]: new Date(b * 1000).toISOString(),
        credits_nano: sum(list),
        [WIRE.requestCount]: list.length,
        models: aggregate(list, groupBy),
      })),
  };
  const mode = modesOf(ctx.events).analytics;
  const text = stringify(mode === 'renamed' ? renamed(body) : body, mode === 'unsafe_nano');
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

export const analyticsModule: RouteModule = {
  name: 'analytics',
  register(route) {
    route('GET', '/v1/analytics', handle);
  },
};

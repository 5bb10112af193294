/**
 * GET /v1/analytics on the local gateway (G-AN-1..9).
 *
 * Usage is synthetic and deterministic: one usage record every 7 minutes over the last 35 days of the
 * gateway clock, spread over models, operations, registered sites (and direct API-key traffic with an
 * empty client_id), auth methods, actor types and applications. One record is large enough that
 * totals exceed 2^53 nanocredits, so a client that parses credits_nano as a double is caught (G-AN-6).
 *
 * Auth: a local identity-provider JWT (mcpJwt.ts) whose `account` claim owns the project. API keys
 * authenticate but get 403: analytics needs account-level identity-provider authentication.
 */
import {
  ACTOR_TYPES,
  ANALYTICS_WIRE,
  APPLICATIONS,
  AUTH_METHODS,
  BUCKET_SECONDS,
  BUCKET_WIDTHS,
  DEFAULT_GROUP_BY,
  GROUP_BY_DIMENSIONS,
  MAX_WINDOW_SECONDS,
  compareTotalsRows,
  type BucketWidth,
  type GroupByDimension,
} from '../../src/core/analytics/analytics';
import type { GatewayContext, Req, Res, RouteModule } from './context';
import { LOCAL_ACCOUNT, LOCAL_PROJECT, looksLikeJwt, verifyLocalJwt } from './mcpJwt';

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

/** JSON with bigint written as exact integer literals. */
function stringify(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `__BIG__${v.toString()}__` : v)).replace(/"__BIG__(-?\d+)__"/g, '$1');
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
      existing[ANALYTICS_WIRE.requestCount] = (existing[ANALYTICS_WIRE.requestCount] as number) + 1;
    } else {
      row.credits_nano = r.credits_nano;
      row[ANALYTICS_WIRE.requestCount] = 1;
      map.set(key, row);
    }
  }
  return [...map.values()].sort((a, b) => compareTotalsRows(a, b));
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
  const endRaw = q.get(ANALYTICS_WIRE.endTimeParam);
  if (endRaw !== null && !/^\d+$/.test(endRaw)) return bad(ctx, res, `${ANALYTICS_WIRE.endTimeParam} must be Unix seconds`);
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
  const site = q.get(ANALYTICS_WIRE.siteFilterParam);
  if (site !== null && site === '') return bad(ctx, res, 'the site filter needs a registered client_id');

  const selected = usage(nowSec).filter(
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
    [ANALYTICS_WIRE.windowStart]: new Date(start * 1000).toISOString(),
    [ANALYTICS_WIRE.windowEnd]: new Date(end * 1000).toISOString(),
    totals: { credits_nano: sum(selected), [ANALYTICS_WIRE.requestCount]: selected.length, models: aggregate(selected, groupBy) },
    buckets: [...buckets.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([b, list]) => ({
        [ANALYTICS_WIRE.bucketStart]: new Date(b * 1000).toISOString(),
        credits_nano: sum(list),
        [ANALYTICS_WIRE.requestCount]: list.length,
        models: aggregate(list, groupBy),
      })),
  };
  const text = stringify(body);
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

export const analyticsModule: RouteModule = {
  name: 'analytics',
  register(route) {
    route('GET', '/v1/analytics', handle);
  },
};

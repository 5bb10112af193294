/**
 * The hosting account API on the local gateway, under the path prefix `/hosting` (so the hosting
 * base URL of a local run is `<gateway>/hosting`, and paths below it start with /v1 as documented).
 * Covers H-AUTH-1, H-CE-1..7, H-TR-1..8 and H-ERR-1 with in-memory state per gateway instance.
 *
 * Assumptions (spec: not shown): success statuses (GET/PUT 200, POST 202 "accepted asynchronously",
 * DELETE 200 with {message:"Transfer cancelled"}); sandbox sites and unknown-state sites get 409 with
 * an errors[] entry; H-TR-1 and the scheduled_time window are 422 validation failures; credentials
 * are `user:password` pairs listed in HOSTING_USERS.
 *
 * The exclusion types, the schedule window and the resource shapes are written here from
 * hosting-account-api.md, never imported from the client (src/core/account/hosting.ts has its own): a
 * mistake both shared would pass every test.
 */
import { randomUUID } from 'node:crypto';
import type { GatewayContext, Req, Res, RouteModule } from './context';
import { modesOf } from './modes';

/** H-CE-7: the spec's Cache exclusion `type`, "One of: `query arg`, `url path`, `cookie`". */
export const EXCLUSION_TYPES = ['query arg', 'url path', 'cookie'] as const;

interface CacheExclusion {
  type: (typeof EXCLUSION_TYPES)[number];
  value: string;
}

const HOUR_MS = 3_600_000;
/**
 * H-TR-4: "`scheduled_time`, when given, lies between 1 hour and 7 days in the future". Assumption
 * (spec: whether the ends are included is not shown): both ends are accepted, exactly 1 hour and
 * exactly 7 days from the server's now; a millisecond outside either end is a 422.
 */
export const SCHEDULE_WINDOW_MS = { min: HOUR_MS, max: 7 * 24 * HOUR_MS } as const;

/** The spec's Site transfer resource. */
interface SiteTransfer {
  id: string;
  site: string;
  installs: string[];
  origin_account: string;
  destination_account: string;
  status: string;
  scheduled_time: string | null;
  created_at: string;
  updated_at: string;
}

export const HOSTING_IDS = {
  accountOrigin: '0b8f3a52-1c7e-4d2a-9f10-6a3e5c7d9b01',
  accountDestination: '5e2d7c19-8a4b-4f3e-b6d2-1c9a0e8f7b02',
  accountNoDataCenter: '9a1c4e7f-2b5d-4c8a-8e3f-7d6b5a4c3b03',
  accountIneligible: 'c3d5e7f9-1a2b-4c6d-8e0f-2a4b6c8d0e04',
  installNormal: '1f2e3d4c-5b6a-4978-8695-a4b3c2d1e005',
  installTransferable: '2a3b4c5d-6e7f-4081-9263-b4c5d6e7f006',
  installIneligible: '3b4c5d6e-7f80-4192-a374-c5d6e7f80007',
  siteNormal: '4c5d6e7f-8091-42a3-b485-d6e7f8091008',
  siteSandbox: '5d6e7f80-91a2-43b4-8596-e7f8091a2009',
  siteStarted: '6e7f8091-a2b3-44c5-9607-f8091a2b3010',
  transferStarted: '7f8091a2-b3c4-45d6-a718-091a2b3c4011',
} as const;

/** The names `npm start` prints beside the ids (the site and account names are the ones transfers report). */
export const HOSTING_NAMES = {
  installNormal: 'blogprod',
  siteNormal: 'blog',
  accountDestination: 'destination-agency',
} as const;

/** user:password -> role. `owner` has Owner on every account; `viewer` cannot update anything. */
export const HOSTING_USERS: Record<string, { password: string; canWrite: boolean }> = {
  owner: { password: 'local-hosting-owner', canWrite: true },
  viewer: { password: 'local-hosting-viewer', canWrite: false },
};

interface State {
  exclusions: Map<string, CacheExclusion[]>;
  transfers: Map<string, SiteTransfer & { site_id: string; started: boolean }>;
}

function initialState(nowIso: string): State {
  const platformCookie: CacheExclusion = { type: 'cookie', value: '^wp_woocommerce_session_' };
  const exclusions = new Map<string, CacheExclusion[]>([
    [HOSTING_IDS.installNormal, [{ type: 'url path', value: '^/cart' }, { type: 'query arg', value: '^utm_' }, platformCookie]],
    [HOSTING_IDS.installTransferable, [{ type: 'url path', value: '^/checkout' }, platformCookie]],
    [HOSTING_IDS.installIneligible, []],
  ]);
  const transfers = new Map<string, SiteTransfer & { site_id: string; started: boolean }>();
  transfers.set(HOSTING_IDS.transferStarted, {
    id: HOSTING_IDS.transferStarted,
    site_id: HOSTING_IDS.siteStarted,
    site: 'started-site',
    installs: ['startedinstall'],
    origin_account: 'origin-agency',
    destination_account: 'destination-agency',
    status: 'in_progress',
    scheduled_time: null,
    created_at: nowIso,
    updated_at: nowIso,
    started: true,
  });
  return { exclusions, transfers };
}

const ACCOUNT_NAMES: Record<string, string> = {
  [HOSTING_IDS.accountOrigin]: 'origin-agency',
  [HOSTING_IDS.accountDestination]: 'destination-agency',
  [HOSTING_IDS.accountNoDataCenter]: 'no-datacenter-agency',
  [HOSTING_IDS.accountIneligible]: 'ineligible-agency',
};

const SITES: Record<string, { name: string; installs: string[]; account: string; sandbox: boolean }> = {
  [HOSTING_IDS.siteNormal]: { name: 'blog', installs: ['blogprod', 'blogstg'], account: HOSTING_IDS.accountOrigin, sandbox: false },
  [HOSTING_IDS.siteSandbox]: { name: 'sandbox', installs: ['sandboxdev'], account: HOSTING_IDS.accountOrigin, sandbox: true },
  [HOSTING_IDS.siteStarted]: { name: 'started-site', installs: ['startedinstall'], account: HOSTING_IDS.accountOrigin, sandbox: false },
};

const DOCS = 'https://hosting.example.com/docs/api';

function send(res: Res, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function fail(res: Res, status: number, message: string, errors?: Array<Record<string, string>>): void {
  send(res, status, errors ? { message, documentation_url: DOCS, errors } : { message, documentation_url: DOCS });
}

/** H-AUTH-1: Basic credentials, 401 with message text only. */
function user(req: Req, res: Res): { name: string; canWrite: boolean } | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers.authorization ?? '');
  const decoded = m ? Buffer.from(m[1], 'base64').toString('utf8') : '';
  const sep = decoded.indexOf(':');
  const name = decoded.slice(0, sep);
  const entry = sep > 0 ? HOSTING_USERS[name] : undefined;
  if (!entry || entry.password !== decoded.slice(sep + 1)) {
    send(res, 401, { message: 'Invalid credentials' });
    return undefined;
  }
  return { name, canWrite: entry.canWrite };
}

async function readJson(ctx: GatewayContext, req: Req, res: Res): Promise<Record<string, unknown> | undefined> {
  const raw = (await ctx.readBody(req)).toString('utf8');
  try {
    const v = JSON.parse(raw) as unknown;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through
  }
  fail(res, 400, 'Request body must be a JSON object', [{ resource: 'request', field: 'body', type: 'invalid_value', code: 'invalid_json', message: 'not a JSON object' }]);
  return undefined;
}

export const hostingModule: RouteModule = {
  name: 'hosting',
  register(route, ctx) {
    const state = initialState(ctx.options.now().toISOString());

    route('GET', '/hosting/v1/installs/{install_id}/cache_exclusions', (req, res, _ctx, p) => {
      if (!user(req, res)) return;
      const list = state.exclusions.get(p.install_id);
      if (!list) return fail(res, 404, 'Install not found');
      // The envelope of the read is not shown in the spec: modes.ts answers in other plausible ones.
      switch (modesOf(ctx.events).exclusionsRead) {
        case 'data':
          return send(res, 200, { data: list });
        case 'bare':
          return send(res, 200, list);
        case 'exclusions':
          return send(res, 200, { exclusions: list });
        case 'paged':
          return send(res, 200, { results: list.slice(0, 1), next_cursor: list.length > 1 ? 'page-2' : null });
        case 'link':
          res.setHeader('Link', `</hosting/v1/installs/${p.install_id}/cache_exclusions?page=2>; rel="next"`);
          return send(res, 200, { results: list.slice(0, -1) });
        default:
          return send(res, 200, { results: list });
      }
    });

    route('PUT', '/hosting/v1/installs/{install_id}/cache_exclusions', async (req, res, _ctx, p) => {
      const u = user(req, res);
      if (!u) return;
      const current = state.exclusions.get(p.install_id);
      if (!current) return fail(res, 404, 'Install not found');
      if (!u.canWrite || p.install_id === HOSTING_IDS.installIneligible) return fail(res, 403, 'You are not allowed to update this install');
      const body = await readJson(ctx, req, res);
      if (!body) return;
      if (!Array.isArray(body.exclusions)) {
        return fail(res, 400, 'exclusions is required', [{ resource: 'cache_exclusions', field: 'exclusions', type: 'invalid_value', code: 'missing_field', message: 'exclusions must be an array' }]);
      }
      const next: CacheExclusion[] = [];
      const seen = new Set<string>();
      for (const [i, e] of (body.exclusions as unknown[]).entries()) {
        const item = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>;
        if (typeof item.type !== 'string' || !(EXCLUSION_TYPES as readonly string[]).includes(item.type)) {
          return fail(res, 400, 'Invalid exclusion type', [{ resource: 'cache_exclusions', field: `exclusions[${i}].type`, type: 'invalid_value', code: 'invalid_type', message: `type must be one of ${EXCLUSION_TYPES.join(', ')}` }]);
        }
        if (typeof item.value !== 'string' || item.value === '') {
          return fail(res, 400, 'Invalid exclusion value', [{ resource: 'cache_exclusions', field: `exclusions[${i}].value`, type: 'invalid_value', code: 'missing_value', message: 'value is required' }]);
        }
        if (item.type === 'cookie') continue; // H-CE-3: accepted and ignored
        try {
          new RegExp(item.value);
        } catch {
          return fail(res, 400, 'Invalid regular expression', [{ resource: 'cache_exclusions', field: `exclusions[${i}].value`, type: 'invalid_value', code: 'invalid_regex', message: `'${item.value}' is not a valid regular expression` }]);
        }
        const key = `${item.type}\u0000${item.value}`;
        if (seen.has(key)) continue; // H-CE-2
        seen.add(key);
        next.push({ type: item.type as CacheExclusion['type'], value: item.value });
      }
      // H-CE-6: checked after validation so the 409 is about state, and nothing is written.
      if (p.install_id === HOSTING_IDS.installTransferable) return fail(res, 409, 'Cache exclusions cannot be modified while the install is transferable');
      const cookies = current.filter((e) => e.type === 'cookie');
      const result = [...next, ...cookies];
      state.exclusions.set(p.install_id, result);
      send(res, 200, { results: result });
    });

    route('POST', '/hosting/v1/sites/{site_id}/site_transfers', async (req, res, _ctx, p) => {
      const u = user(req, res);
      if (!u) return;
      const site = SITES[p.site_id];
      if (!site) return fail(res, 404, 'Site not found');
      if (!u.canWrite) return fail(res, 403, 'Owner, or Full with Billing, access on both accounts is required');
      const body = await readJson(ctx, req, res);
      if (!body) return;
      const dest = body.destination_account_id;
      if (typeof dest !== 'string' || dest === '') {
        return fail(res, 400, 'destination_account_id is required', [{ resource: 'site_transfer', field: 'destination_account_id', type: 'invalid_value', code: 'missing_field', message: 'required' }]);
      }
      if (body.maintenance_mode !== undefined && typeof body.maintenance_mode !== 'boolean') {
        return fail(res, 422, 'Validation failed', [{ resource: 'site_transfer', field: 'maintenance_mode', type: 'invalid_value', code: 'invalid_type', message: 'must be a boolean' }]);
      }
      if (!ACCOUNT_NAMES[dest]) return fail(res, 404, 'Destination account not found');
      if (dest === site.account) {
        return fail(res, 422, 'Validation failed', [{ resource: 'site_transfer', field: 'destination_account_id', type: 'invalid_value', code: 'same_account', message: 'origin and destination accounts must differ' }]);
      }
      let scheduled: string | null = null;
      if (body.scheduled_time !== undefined && body.scheduled_time !== null) {
        const t = typeof body.scheduled_time === 'string' ? Date.parse(body.scheduled_time) : NaN;
        const delta = t - ctx.options.now().getTime();
        if (Number.isNaN(t) || delta < SCHEDULE_WINDOW_MS.min || delta > SCHEDULE_WINDOW_MS.max) {
          return fail(res, 422, 'Validation failed', [{ resource: 'site_transfer', field: 'scheduled_time', type: 'invalid_value', code: 'out_of_range', message: 'must be between 1 hour and 7 days in the future' }]);
        }
        scheduled = new Date(t).toISOString();
      }
      if (site.sandbox) {
        return fail(res, 409, 'Site is not in a transferable state', [{ resource: 'site', field: 'site_id', type: 'value_unavailable', code: 'sandbox_site', message: 'sandbox sites cannot be transferred' }]);
      }
      if (dest === HOSTING_IDS.accountNoDataCenter || dest === HOSTING_IDS.accountIneligible) {
        return fail(res, 409, 'Destination account is not eligible', [{ resource: 'account', field: 'destination_account_id', type: 'value_unavailable', code: 'no_preferred_data_center', message: 'the destination account has no preferred data center' }]);
      }
      const active = [...state.transfers.values()].find((t) => t.site_id === p.site_id && (t.started || t.status === 'pending' || t.status === 'scheduled'));
      if (active) {
        return fail(res, 409, 'Site already has an active transfer', [{ resource: 'site_transfer', field: 'site_id', type: 'value_unavailable', code: 'active_transfer', message: `transfer ${active.id} is active` }]);
      }
      const now = ctx.options.now().toISOString();
      const transfer = {
        id: randomUUID(),
        site_id: p.site_id,
        site: site.name,
        installs: site.installs,
        origin_account: ACCOUNT_NAMES[site.account],
        destination_account: ACCOUNT_NAMES[dest],
        status: scheduled ? 'scheduled' : 'pending',
        scheduled_time: scheduled,
        created_at: now,
        updated_at: now,
        started: false,
        maintenance_mode: body.maintenance_mode === true,
      };
      state.transfers.set(transfer.id, transfer);
      ctx.events.push({ type: 'hosting-transfer-created', id: transfer.id, maintenance_mode: transfer.maintenance_mode });
      const { site_id: _s, started: _st, maintenance_mode: _m, ...wire } = transfer;
      send(res, 202, wire);
    });

    route('DELETE', '/hosting/v1/sites/{site_id}/site_transfers/{transfer_id}', (req, res, _ctx, p) => {
      const u = user(req, res);
      if (!u) return;
      const t = state.transfers.get(p.transfer_id);
      if (!t || t.site_id !== p.site_id) return fail(res, 404, 'Transfer not found');
      if (!u.canWrite) return fail(res, 403, 'You are not allowed to cancel this transfer');
      if (t.started) return fail(res, 409, 'Transfer already started', [{ resource: 'site_transfer', field: 'transfer_id', type: 'value_unavailable', code: 'already_started', message: 'a started transfer cannot be cancelled' }]);
      if (t.status === 'cancelled') return fail(res, 409, 'Transfer already cancelled');
      t.status = 'cancelled';
      t.updated_at = ctx.options.now().toISOString();
      send(res, 200, { message: 'Transfer cancelled' });
    });
  },
};

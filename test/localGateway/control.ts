/**
 * Control endpoints for tests that run the gateway out of process (e2e, `npm start`). Loopback only
 * (the server checks). Every answer is JSON; bad input gets 400 and changes nothing.
 *
 *   GET    /__control/events[?type=t]   -> {events:[...]}          DELETE clears the log
 *   GET    /__control/faults            -> {faults:[...]}          DELETE disarms all
 *   POST   /__control/faults            body FaultSpec or FaultSpec[] -> {ids:[...]}
 *                                        (every kind of context.ts, wire faults included, e.g.
 *                                        {kind:'reset_after_body', route:'/v1/chat/completions'} or
 *                                        {kind:'oversized_event', route:'/v1/mcp', bytes:20000000})
 *   GET    /__control/config            -> current config          POST patches it (ConfigPatch)
 *   GET    /__control/shapes            -> {modes, known}          POST {mode} or {modes:[...]} arms
 *                                        shape modes (shapeModes.ts); DELETE disarms all
 *   POST   /__control/reset             -> back to the start state
 *   GET    /__control/keys              -> [{name,type,permission,scopes,revoked,suffix}] (no secrets)
 *   POST   /__control/keys              body {secret,name,permission?,scopes?} adds a key
 *   POST   /__control/keys/revoke       body {secret} revokes it (irreversible)
 *   GET    /__control/modes             -> answer-shape modes (modes.ts)   POST patches them, e.g.
 *                                        {exclusionsRead:'data'} or {analytics:'renamed'}
 *   GET    /__control/billing           -> {served, extraNanoPerRequest, history}
 *   POST   /__control/billing           body {extraNanoPerRequest?: "123" (nanocredits added to the bill
 *                                        of every request served from now on: a known billing
 *                                        difference), history?: false (analytics only from served requests)}
 */
import { type GatewayContext, type KeyRecord, type Level, type Req, type Res } from './context';
import type { Model } from './wire';
import { parseFaultSpec, pathOf } from './faults';
import { keyTypeOf, RESTRICTED_SCOPES, scopesOf, type RestrictedScope } from './keys';
import { billingOf, resetBilling } from './analytics';
import { modesOf, patchModes, resetModes } from './modes';
import type { ConfigPatch, RunningGateway } from './server';
import { parseShapeModes, SHAPE_MODES } from './shapeModes';

const LEVELS: readonly Level[] = ['none', 'read', 'write'];

export function parseConfigPatch(value: unknown): ConfigPatch {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('config must be an object');
  const v = value as Record<string, unknown>;
  const patch: ConfigPatch = {};
  for (const [key, raw] of Object.entries(v)) {
    switch (key) {
      case 'chunkSize':
      case 'chunkDelayMs':
      case 'slowChunkDelayMs':
      case 'faultAfterChunks':
      case 'stallMs':
        if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0 || (key === 'chunkSize' && raw < 1)) throw new Error(`${key} must be a non-negative number`);
        patch[key] = raw;
        break;
      case 'repriced':
      case 'moderation':
        if (typeof raw !== 'boolean') throw new Error(`${key} must be a boolean`);
        patch[key] = raw;
        break;
      case 'pricingVersion':
        if (typeof raw !== 'string' || raw === '') throw new Error('pricingVersion must be a non-empty string');
        patch.pricingVersion = raw;
        break;
      case 'requestIdStyle':
        if (raw !== 'uuid' && raw !== 'trace' && raw !== 'alternate') throw new Error("requestIdStyle must be 'uuid', 'trace' or 'alternate'");
        patch.requestIdStyle = raw;
        break;
      case 'extraModels':
        if (!Array.isArray(raw) || !raw.every((m) => typeof m === 'object' && m !== null && typeof (m as { id?: unknown }).id === 'string')) {
          throw new Error('extraModels must be an array of models with an id');
        }
        patch.extraModels = raw as Model[];
        break;
      default:
        throw new Error(`unknown config field '${key}'`);
    }
  }
  return patch;
}

function publicConfig(gw: RunningGateway): Record<string, unknown> {
  const o = gw.options;
  return {
    chunkSize: o.chunkSize,
    chunkDelayMs: o.chunkDelayMs,
    slowChunkDelayMs: o.slowChunkDelayMs,
    faultAfterChunks: o.faultAfterChunks,
    stallMs: o.stallMs,
    repriced: o.repriced,
    pricingVersion: o.pricingVersion,
    moderation: o.moderation,
    requestIdStyle: o.requestIdStyle,
    extraModels: o.extraModels,
    now: o.now().toISOString(),
  };
}

function parseKey(value: unknown): KeyRecord {
  if (typeof value !== 'object' || value === null) throw new Error('key must be an object');
  const v = value as Record<string, unknown>;
  if (typeof v.secret !== 'string') throw new Error('key.secret must be a string');
  const type = keyTypeOf(v.secret);
  if (type === undefined) throw new Error('key.secret must start with svc_pat_ (User) or svc_ (Account)');
  const permission = v.permission ?? 'full';
  if (permission !== 'full' && permission !== 'read_only' && permission !== 'restricted') throw new Error('key.permission must be full, read_only or restricted');
  const restricted: Partial<Record<RestrictedScope, Level>> = {};
  if (v.scopes !== undefined) {
    if (permission !== 'restricted') throw new Error('only a restricted key sets scopes');
    if (typeof v.scopes !== 'object' || v.scopes === null) throw new Error('key.scopes must be an object');
    for (const [scope, level] of Object.entries(v.scopes as Record<string, unknown>)) {
      if (!(RESTRICTED_SCOPES as readonly string[]).includes(scope)) throw new Error(`restricted keys cannot set scope '${scope}'`);
      if (!LEVELS.includes(level as Level)) throw new Error(`scope level must be one of ${LEVELS.join(', ')}`);
      restricted[scope as RestrictedScope] = level as Level;
    }
  }
  const scopes = scopesOf(permission, restricted);
  return { secret: v.secret, name: typeof v.name === 'string' ? v.name : 'Added key', type, permission, scopes, revoked: false };
}

export async function handleControl(req: Req, res: Res, ctx: GatewayContext, gw: RunningGateway): Promise<void> {
  const path = pathOf(req);
  const method = (req.method ?? 'GET').toUpperCase();
  const query = new URL(req.url ?? '/', 'http://local').searchParams;
  const bad = (message: string): void => ctx.sendError(res, 400, 'invalid_request_error', message);
  const body = async (): Promise<unknown> => ctx.readJson(req);

  try {
    switch (`${method} ${path}`) {
      case 'GET /__control/events': {
        const type = query.get('type') ?? undefined;
        ctx.sendJson(res, 200, { events: gw.events.list(type) });
        return;
      }
      case 'DELETE /__control/events':
        gw.events.clear();
        ctx.sendJson(res, 200, { ok: true });
        return;
      case 'GET /__control/faults':
        ctx.sendJson(res, 200, { faults: gw.faults.list() });
        return;
      case 'DELETE /__control/faults':
        gw.faults.clear();
        ctx.sendJson(res, 200, { ok: true });
        return;
      case 'POST /__control/faults': {
        const value = await body();
        const specs = (Array.isArray(value) ? value : [value]).map(parseFaultSpec);
        ctx.sendJson(res, 200, { ids: specs.map((s) => gw.faults.add(s)) });
        return;
      }
      case 'GET /__control/shapes':
        ctx.sendJson(res, 200, { modes: gw.shapes.list(), known: SHAPE_MODES });
        return;
      case 'POST /__control/shapes':
        for (const mode of parseShapeModes(await body())) gw.shapes.arm(mode);
        ctx.sendJson(res, 200, { modes: gw.shapes.list() });
        return;
      case 'DELETE /__control/shapes':
        gw.shapes.clear();
        ctx.sendJson(res, 200, { modes: [] });
        return;
      case 'GET /__control/config':
        ctx.sendJson(res, 200, publicConfig(gw));
        return;
      case 'POST /__control/config':
        gw.configure(parseConfigPatch(await body()));
        ctx.sendJson(res, 200, publicConfig(gw));
        return;
      case 'POST /__control/reset':
        gw.reset();
        resetBilling(gw.events);
        resetModes(gw.events);
        ctx.sendJson(res, 200, { ok: true });
        return;
      case 'GET /__control/keys':
        ctx.sendJson(res, 200, {
          keys: gw.keys.list().map((k) => ({ name: k.name, type: k.type, permission: k.permission, scopes: k.scopes, revoked: k.revoked, suffix: k.secret.slice(-4) })),
        });
        return;
      case 'POST /__control/keys': {
        const record = parseKey(await body());
        gw.keys.add(record);
        ctx.sendJson(res, 200, { ok: true, name: record.name, type: record.type });
        return;
      }
      case 'POST /__control/keys/revoke': {
        const v = (await body()) as { secret?: unknown };
        if (typeof v?.secret !== 'string') return bad('secret must be a string');
        ctx.sendJson(res, gw.keys.revoke(v.secret) ? 200 : 404, { ok: true });
        return;
      }
      case 'GET /__control/modes':
        ctx.sendJson(res, 200, modesOf(gw.events));
        return;
      case 'POST /__control/modes':
        ctx.sendJson(res, 200, patchModes(gw.events, await body()));
        return;
      case 'GET /__control/billing': {
        const b = billingOf(gw.events);
        ctx.sendJson(res, 200, { served: b.served.length, extraNanoPerRequest: b.extraNanoPerRequest.toString(), history: b.history });
        return;
      }
      case 'POST /__control/billing': {
        const v = (await body()) as { extraNanoPerRequest?: unknown; history?: unknown } | null;
        if (typeof v !== 'object' || v === null) return bad('billing must be an object');
        for (const k of Object.keys(v)) if (k !== 'extraNanoPerRequest' && k !== 'history') return bad(`unknown billing field '${k}'`);
        if (v.extraNanoPerRequest !== undefined && (typeof v.extraNanoPerRequest !== 'string' || !/^-?\d{1,30}$/.test(v.extraNanoPerRequest))) return bad('extraNanoPerRequest must be an integer string of nanocredits');
        if (v.history !== undefined && typeof v.history !== 'boolean') return bad('history must be a boolean');
        const b = billingOf(gw.events);
        if (v.extraNanoPerRequest !== undefined) b.extraNanoPerRequest = BigInt(v.extraNanoPerRequest as string);
        if (v.history !== undefined) b.history = v.history as boolean;
        ctx.sendJson(res, 200, { served: b.served.length, extraNanoPerRequest: b.extraNanoPerRequest.toString(), history: b.history });
        return;
      }
      default:
        ctx.sendError(res, 404, 'not_found_error', `no control route ${method} ${path}`);
    }
  } catch (err) {
    if (err instanceof Error && err.name !== 'GatewayHttpError') return bad(err.message);
    throw err;
  }
}

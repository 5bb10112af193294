/**
 * The local gateway: a real HTTP server (node:http) implementing ai-gateway-api.md for tests,
 * `npm run gateway` and `npm start`. Route modules plug in through modules.ts (see context.ts for
 * the contract); control endpoints for out-of-process tests live under /__control/ (loopback only).
 *
 * Order of a /v1 request: X-Request-ID assigned -> edge faults (429/503/500) -> wire faults (resets,
 * stalls, damaged bodies; faults.ts) -> route -> the
 * handler authenticates (entitlement faults fire right after a key authenticated) -> handler.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { buildCatalog } from './catalog';
import {
  GatewayHttpError,
  type FaultController,
  type GatewayContext,
  type GatewayEventLog,
  type GatewayOptions,
  type KeyRecord,
  type Req,
  type Res,
  type Scope,
  WIRE_FAULT_KINDS,
} from './context';
import { handleControl } from './control';
import { EventLog } from './events';
import { applyWireFault, Faults, pathOf } from './faults';
import { KeyStore, localKeyRecords } from './keys';
import { ROUTE_MODULES } from './modules';
import { Router } from './router';
import { decideScope, scopeStubModule } from './scopes';
import { ShapeModes } from './shapeModes';
import { sendThrottled } from './throttle';

export interface RunningGateway {
  /** Base URL without trailing slash, e.g. http://127.0.0.1:43121 */
  readonly url: string;
  readonly port: number;
  readonly events: GatewayEventLog;
  readonly faults: FaultController;
  readonly keys: KeyStore;
  /** Shape modes (shapeModes.ts): documented routes answering in another plausible shape. */
  readonly shapes: ShapeModes;
  /** Live configuration (the same object handlers read). Prefer configure(). */
  readonly options: Required<GatewayOptions>;
  /** Changes configuration at run time (chunking, repricing, moderation, ...). */
  configure(patch: ConfigPatch): void;
  /** Back to the start state: no faults, empty event log, initial config and keys. */
  reset(): void;
  /** Stops listening and destroys open connections (stalled streams included). */
  close(): Promise<void>;
}

/** The run-time adjustable part of the options. */
export type ConfigPatch = Partial<
  Pick<
    Required<GatewayOptions>,
    | 'chunkSize'
    | 'chunkDelayMs'
    | 'slowChunkDelayMs'
    | 'faultAfterChunks'
    | 'stallMs'
    | 'repriced'
    | 'pricingVersion'
    | 'moderation'
    | 'requestIdStyle'
    | 'extraModels'
  >
>;

export const DEFAULT_PRICING_VERSION = '2025-11-01';

function withDefaults(options: GatewayOptions): Required<GatewayOptions> {
  return {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    now: options.now ?? (() => new Date()),
    chunkSize: options.chunkSize ?? 12,
    chunkDelayMs: options.chunkDelayMs ?? 0,
    slowChunkDelayMs: options.slowChunkDelayMs ?? 200,
    faultAfterChunks: options.faultAfterChunks ?? 2,
    stallMs: options.stallMs ?? 0,
    repriced: options.repriced ?? false,
    pricingVersion: options.pricingVersion ?? DEFAULT_PRICING_VERSION,
    moderation: options.moderation ?? true,
    requestIdStyle: options.requestIdStyle ?? 'alternate',
    extraModels: options.extraModels ?? [],
    keys: options.keys ?? [],
    modules: options.modules ?? ROUTE_MODULES,
    logRequests: options.logRequests ?? false,
    tls: options.tls ?? null,
  };
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;


const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Control endpoints answer only loopback peers (404 for anyone else, as if they did not exist). */
export function isLoopback(remoteAddress: string | undefined): boolean {
  return remoteAddress !== undefined && LOOPBACK.has(remoteAddress);
}

export async function startGateway(options: GatewayOptions = {}): Promise<RunningGateway> {
  const initial = withDefaults(options);
  const live: Required<GatewayOptions> = { ...initial };
  const events = new EventLog();
  const faults = new Faults();
  const shapes = new ShapeModes();
  const initialKeys = [...localKeyRecords(), ...initial.keys];
  let keys = new KeyStore(initialKeys);
  const closing = new AbortController();
  const requestIds = new WeakMap<Res, string>();
  const keyOf = new WeakMap<Req, KeyRecord>();
  let requestCount = 0;

  const newRequestId = (): string => {
    requestCount++;
    const style = live.requestIdStyle === 'alternate' ? (requestCount % 2 === 1 ? 'trace' : 'uuid') : live.requestIdStyle;
    return style === 'trace' ? randomBytes(16).toString('hex') : randomUUID();
  };

  const ctx: GatewayContext = {
    options: live,
    events,
    faults,
    closing: closing.signal,
    requestId: (res) => requestIds.get(res) ?? '',
    models: () => [...buildCatalog(live.now(), live), ...structuredClone(live.extraModels)],
    sendJson(res, status, body, headers = {}) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const text = JSON.stringify(body);
      res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    },
    sendError(res, status, type, message, headers = {}) {
      const requestId = ctx.requestId(res);
      ctx.sendJson(res, status, { error: { message, type, code: status, request_id: requestId } }, headers);
    },
    async readBody(req) {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req) {
        size += (chunk as Buffer).length;
        // Assumption (spec: "request-size limits: not shown"): 16 MiB, answered with 413.
        if (size > MAX_BODY_BYTES) throw new GatewayHttpError(413, 'invalid_request_error', `request body exceeds ${MAX_BODY_BYTES} bytes`);
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks);
    },
    async readJson(req) {
      const body = await ctx.readBody(req);
      if (body.length === 0) throw new GatewayHttpError(400, 'invalid_request_error', 'request body is empty; expected JSON');
      try {
        return JSON.parse(body.toString('utf8')) as unknown;
      } catch {
        throw new GatewayHttpError(400, 'invalid_request_error', 'request body is not valid JSON');
      }
    },
    authenticate(req, res) {
      const header = req.headers.authorization;
      const m = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
      const record = m?.[1] === undefined ? undefined : keys.find(m[1]);
      if (record === undefined || record.revoked) {
        // One message for missing, unknown and revoked keys; it never names a scope (G-AUTH-3).
        ctx.sendError(res, 401, 'authentication_error', 'invalid or revoked API key', { 'WWW-Authenticate': 'Bearer realm=ai-services' });
        return undefined;
      }
      keyOf.set(req, record);
      const fault = faults.take(req, ['entitlement_required', 'account_required', 'entitlement_unavailable']);
      if (fault !== undefined) {
        events.push({ type: 'fault', kind: fault.kind, path: pathOf(req), requestId: ctx.requestId(res) });
        if (fault.kind === 'entitlement_required') {
          ctx.sendError(res, 403, 'entitlement_required', 'the account does not have the entitlement for this product');
        } else if (fault.kind === 'account_required') {
          ctx.sendError(res, 403, 'account_required', 'no billing account could be resolved for this key');
        } else {
          ctx.sendError(
            res,
            503,
            'entitlement_unavailable',
            'the entitlement service is temporarily unavailable; retry shortly',
            fault.retryAfter !== undefined ? { 'Retry-After': String(fault.retryAfter) } : {},
          );
        }
        return undefined;
      }
      return record;
    },
    authorize(req, res, scope: Scope, level) {
      const record = ctx.authenticate(req, res);
      if (record === undefined) return undefined;
      // Write implies read (G-AUTH-6); agents stands in for session_events (G-AUTH-7): scopes.ts decides.
      const decision = decideScope(record.scopes, scope, level);
      if (!decision.allowed) {
        ctx.sendError(res, decision.status, decision.type, decision.message);
        return undefined;
      }
      return record;
    },
    sleep(ms) {
      if (ms <= 0 || closing.signal.aborted) return Promise.resolve();
      return new Promise((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          closing.signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        closing.signal.addEventListener('abort', done, { once: true });
      });
    },
  };

  const router = new Router();
  const route = (method: string, pattern: string, handler: Parameters<Router['add']>[2]): void => router.add(method, pattern, handler);
  for (const module of live.modules) module.register(route, ctx);
  // Fallback stubs for every documented path of the scope table come last: real modules win.
  scopeStubModule.register(route, ctx);

  const handle = async (req: Req, res: Res): Promise<void> => {
    const path = pathOf(req);
    const method = (req.method ?? 'GET').toUpperCase();

    if (path.startsWith('/__control/')) {
      if (!isLoopback(req.socket.remoteAddress)) {
        ctx.sendError(res, 404, 'not_found_error', `no route for ${method} ${path}`);
        return;
      }
      await handleControl(req, res, ctx, gateway);
      return;
    }

    const edge = faults.take(req, ['throttled', 'unavailable', 'unavailable_html', 'server_error']);
    if (edge !== undefined) {
      events.push({ type: 'fault', kind: edge.kind, path, requestId: ctx.requestId(res) });
      if (edge.kind === 'throttled') sendThrottled(res);
      else if (edge.kind === 'unavailable_html') {
        req.resume();
        res.writeHead(503, { 'Content-Type': 'text/html', ...(edge.retryAfter !== undefined ? { 'Retry-After': String(edge.retryAfter) } : {}) });
        res.end('<html><head><title>503 Service Temporarily Unavailable</title></head><body><h1>503 Service Temporarily Unavailable</h1></body></html>');
      }
      else if (edge.kind === 'unavailable') {
        ctx.sendError(res, 503, 'service_unavailable', 'a required dependency is temporarily unavailable; retry shortly', edge.retryAfter !== undefined ? { 'Retry-After': String(edge.retryAfter) } : {});
      } else ctx.sendError(res, 500, 'server_error', 'internal error in the local gateway (injected fault)');
      return;
    }

    // Wire faults (resets, stalls, damaged bodies) work on any route, without the handler's help.
    const wire = faults.take(req, WIRE_FAULT_KINDS);
    if (wire !== undefined) {
      events.push({ type: 'fault', kind: wire.kind, path, requestId: ctx.requestId(res) });
      const disposed = await applyWireFault(wire, req, res, {
        readBody: (r) => ctx.readBody(r),
        sleep: (ms) => ctx.sleep(ms),
        closing: closing.signal,
        stallMs: () => live.stallMs,
        afterChunks: () => live.faultAfterChunks,
      });
      if (disposed) return;
    }

    const match = router.match(method, path);
    if (match.kind === 'none') {
      // Assumption (spec: "bodies of 404 ... not shown"): the usual envelope with type not_found_error,
      // answered before authentication.
      ctx.sendError(res, 404, 'not_found_error', `no route for ${method} ${path}`);
      return;
    }
    if (match.kind === 'method') {
      ctx.sendError(res, 405, 'invalid_request_error', `method ${method} is not allowed on ${path}`, { Allow: match.allow.join(', ') });
      return;
    }
    shapes.wrap(req, res);
    await match.handler(req, res, ctx, match.params);
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const requestId = newRequestId();
    requestIds.set(res, requestId);
    res.setHeader('X-Request-ID', requestId);
    const started = Date.now();
    let logged = false;
    const log = (): void => {
      if (logged) return;
      logged = true;
      const path = pathOf(req);
      if (path.startsWith('/__control/')) return;
      const auth = req.headers.authorization;
      const key = keyOf.get(req);
      const entry = {
        type: 'request',
        method: req.method ?? 'GET',
        path,
        status: res.headersSent ? res.statusCode : 0,
        requestId,
        keyName: key?.name,
        authorization: auth === undefined ? 'none' : /^Bearer\s/i.test(auth) ? 'bearer' : 'other',
        userAgent: req.headers['user-agent'],
        completed: res.writableFinished,
      };
      events.push(entry);
      if (live.logRequests) {
        console.log(`${entry.method} ${path} -> ${entry.status || 'aborted'} ${Date.now() - started}ms ${requestId}${key ? ` [${key.name}]` : ''}`);
      }
    };
    res.on('close', log);
    handle(req, res).catch((err: unknown) => {
      if (err instanceof GatewayHttpError) {
        ctx.sendError(res, err.status, err.type, err.message, err.headers);
        return;
      }
      const message = err instanceof Error ? err.message : String(err);
      if (!res.headersSent) ctx.sendError(res, 500, 'server_error', `local gateway error: ${message}`);
      else res.destroy();
    });
  };
  const server: Server = initial.tls ? createHttpsServer({ key: initial.tls.key, cert: initial.tls.cert }, onRequest) : createServer(onRequest);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(initial.port, initial.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = initial.host.includes(':') ? `[${initial.host}]` : initial.host;

  const gateway: RunningGateway = {
    url: `${initial.tls ? 'https' : 'http'}://${host}:${port}`,
    port,
    events,
    faults,
    shapes,
    get keys() {
      return keys;
    },
    options: live,
    configure(patch) {
      Object.assign(live, patch);
    },
    reset() {
      faults.clear();
      shapes.clear();
      events.clear();
      Object.assign(live, initial);
      keys = new KeyStore(initialKeys);
    },
    async close() {
      closing.abort();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  return gateway;
}

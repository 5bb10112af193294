/**
 * POST /v1/mcp on the local gateway: MCP over Streamable HTTP, JSON-RPC 2.0, stateless, tools only.
 * Tool definitions and behaviour live in mcpTools.ts; identity-provider JWTs in mcpJwt.ts.
 *
 * Order of checks (each answers before anything is dispatched): authentication (key or JWT) ->
 * Content-Type (415) -> Accept (400 plain text) -> MCP-Protocol-Version header (400 JSON-RPC) ->
 * body (400 plain text) -> batch size (400 JSON-RPC -32600) -> mcp write level for tools/call (403).
 *
 * Events pushed: `mcp-dispatch` {method, tool?, id} for every message actually dispatched (tests use
 * it to prove a refused batch dispatched nothing, and that no call is retried); `mcp-session`
 * {session, grouped} when the optional session header is present.
 */
import Ajv2020 from 'ajv/dist/2020';
import type { GatewayContext, Req, Res, RouteModule } from './context';
import { LOCAL_PERSON, LOCAL_PROJECT, looksLikeJwt, verifyLocalJwt } from './mcpJwt';
import { callTool, MCP_SERVER_NAME, MCP_SERVER_VERSION, TOOLS, TOOLS_PAGE_SIZE, type McpCaller, type ToolResult, toolError } from './mcpTools';

export const MCP_MAX_BATCH = 10;
export const MCP_SUPPORTED_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'];
/**
 * Assumption (spec: "the name of the optional session header ... not shown"): `X-Agent-Session-Id`.
 * It is recorded for observability only and never changes a response (G-MCP-16).
 */
export const MCP_SESSION_HEADER = 'x-agent-session-id';
/** Sessions that belong to the local project (the header is ignored for any other value). */
export const MCP_LOCAL_SESSIONS = new Set(['sess_local_1']);

type Id = string | number | null;
interface Message {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}
interface Response {
  jsonrpc: '2.0';
  id: Id;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
const validators = new Map(TOOLS.map((t) => [t.name, ajv.compile(t.inputSchema)]));

function plain(res: Res, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(text);
}

function rpcError(id: Id, code: number, message: string, data?: unknown): Response {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

function header(req: Req, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** Streamable HTTP: the client must accept both application/json and text/event-stream. */
function acceptIsValid(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((t) => t.split(';')[0].trim().toLowerCase());
  return types.includes('application/json') && types.includes('text/event-stream');
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset, k: 'tools' })).toString('base64url');
}

function decodeCursor(cursor: unknown): number | undefined {
  if (typeof cursor !== 'string') return undefined;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown; k?: unknown };
    return v.k === 'tools' && typeof v.o === 'number' && Number.isInteger(v.o) && v.o > 0 && v.o < TOOLS.length ? v.o : undefined;
  } catch {
    return undefined;
  }
}

/** Authenticates a key or a JWT. On failure the response is already written and undefined returned. */
function authenticateCaller(req: Req, res: Res, ctx: GatewayContext): { caller: McpCaller; canWrite: boolean; keyName?: string } | undefined {
  const auth = header(req, 'authorization') ?? '';
  const token = /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1];
  if (token !== undefined && looksLikeJwt(token)) {
    const verified = verifyLocalJwt(token);
    if (!verified.ok) {
      ctx.sendError(res, 401, 'authentication_error', 'invalid identity token', { 'WWW-Authenticate': 'Bearer realm=ai-services' });
      return undefined;
    }
    // G-MCP-15: JWT callers must send both headers; the account must match the token's claim.
    const account = header(req, 'service-account');
    const project = header(req, 'service-project');
    if (!account || !project) {
      ctx.sendError(res, 400, 'invalid_request_error', 'identity-token callers must send the Service-Account and Service-Project headers');
      return undefined;
    }
    if (account !== verified.claims.account) {
      ctx.sendError(res, 403, 'permission_error', 'the identity token is not authorised for the account named in Service-Account');
      return undefined;
    }
    return { caller: { kind: 'jwt', person: verified.claims.sub }, canWrite: true };
  }
  // API keys: Service-Account / Service-Project are informational and ignored (G-MCP-15).
  const key = ctx.authorize(req, res, 'mcp', 'read');
  if (key === undefined) return undefined;
  return {
    caller: { kind: key.type, person: key.type === 'user' ? LOCAL_PERSON : undefined },
    canWrite: key.scopes.mcp === 'write',
    keyName: key.name,
  };
}

function dispatch(message: Message, caller: McpCaller, ctx: GatewayContext): Response | undefined {
  const id: Id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
  const isNotification = message.id === undefined;
  if (message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
    // A response sent by the client (result/error, no method) needs no answer.
    if (message.jsonrpc === '2.0' && message.method === undefined && ('result' in message || 'error' in message)) return undefined;
    return rpcError(id, -32600, 'Invalid Request');
  }
  const params = (message.params && typeof message.params === 'object' ? message.params : {}) as Record<string, unknown>;
  ctx.events.push({ type: 'mcp-dispatch', method: message.method, tool: message.method === 'tools/call' ? params.name : undefined, id });
  if (isNotification) return undefined; // notifications/initialized, cancelled, ...: nothing to reply.
  switch (message.method) {
    case 'initialize': {
      if (typeof params.protocolVersion !== 'string' || typeof params.capabilities !== 'object' || typeof params.clientInfo !== 'object') {
        return rpcError(id, -32602, 'Invalid params: initialize needs protocolVersion, capabilities and clientInfo');
      }
      const version = MCP_SUPPORTED_VERSIONS.includes(params.protocolVersion) ? params.protocolVersion : MCP_SUPPORTED_VERSIONS[0];
      return {
        jsonrpc: '2.0',
        id,
        result: {
          protocolVersion: version,
          // G-MCP-4: tools only.
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
          instructions: 'Tools of the AI gateway. Site abilities (list_site_abilities, search_abilities, run_site_ability) need a User key; run_site_ability can change live sites.',
        },
      };
    }
    case 'ping':
      return { jsonrpc: '2.0', id, result: {} };
    case 'tools/list': {
      let offset = 0;
      if (params.cursor !== undefined) {
        const decoded = decodeCursor(params.cursor);
        if (decoded === undefined) return rpcError(id, -32602, 'Invalid params: unknown cursor');
        offset = decoded;
      }
      const page = TOOLS.slice(offset, offset + TOOLS_PAGE_SIZE);
      const next = offset + TOOLS_PAGE_SIZE;
      return { jsonrpc: '2.0', id, result: next < TOOLS.length ? { tools: page, nextCursor: encodeCursor(next) } : { tools: page } };
    }
    case 'tools/call': {
      const name = params.name;
      const tool = TOOLS.find((t) => t.name === name);
      if (typeof name !== 'string' || !tool) return rpcError(id, -32602, `Invalid params: unknown tool ${String(name)}`);
      const args = (params.arguments ?? {}) as Record<string, unknown>;
      const validate = validators.get(tool.name);
      let result: ToolResult;
      if (typeof args !== 'object' || Array.isArray(args) || (validate && !validate(args))) {
        const detail = validate?.errors?.map((e) => `${e.instancePath || '(arguments)'} ${e.message ?? 'is invalid'}`).join('; ') ?? 'arguments must be an object';
        result = toolError('invalid_arguments', detail);
      } else {
        result = callTool(tool.name, args, caller);
      }
      return { jsonrpc: '2.0', id, result };
    }
    default:
      return rpcError(id, -32601, `Method not found: ${message.method}`);
  }
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function hostnameOf(value: string): string {
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname;
  } catch {
    return '';
  }
}

/**
 * DNS-rebinding protection (MCP Streamable HTTP security guidance for local servers): while the
 * gateway listens on loopback, a Host or Origin that is not loopback is refused with 403 plain text.
 * The hosted gateway is not a local server; this applies to the local one only.
 */
function rebindingRefused(req: Req, ctx: GatewayContext): boolean {
  if (!LOOPBACK_NAMES.has(ctx.options.host)) return false;
  const host = header(req, 'host');
  const origin = header(req, 'origin');
  if (host !== undefined && !LOOPBACK_NAMES.has(hostnameOf(host))) return true;
  return origin !== undefined && origin !== 'null' && !LOOPBACK_NAMES.has(hostnameOf(origin));
}

async function handleMcp(req: Req, res: Res, ctx: GatewayContext): Promise<void> {
  if (rebindingRefused(req, ctx)) {
    req.resume();
    plain(res, 403, 'Forbidden: Host/Origin is not a loopback name');
    return;
  }
  const who = authenticateCaller(req, res, ctx);
  if (!who) {
    req.resume();
    return;
  }
  // Assumption (spec: "status code for the unsupported Content-Type case ... not shown"): 415
  // Unsupported Media Type with a plain-text body, like the other transport-level refusals.
  const contentType = (header(req, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (contentType !== 'application/json') {
    req.resume();
    plain(res, 415, 'Unsupported Media Type: Content-Type must be application/json');
    return;
  }
  if (!acceptIsValid(header(req, 'accept'))) {
    req.resume();
    plain(res, 400, 'Not Acceptable: the client must accept both application/json and text/event-stream');
    return;
  }
  const version = header(req, 'mcp-protocol-version');
  if (version !== undefined && !MCP_SUPPORTED_VERSIONS.includes(version)) {
    req.resume();
    ctx.sendJson(res, 400, rpcError(null, -32600, `Bad Request: unsupported MCP-Protocol-Version ${version} (supported: ${MCP_SUPPORTED_VERSIONS.join(', ')})`));
    return;
  }
  const raw = (await ctx.readBody(req)).toString('utf8');
  if (raw.trim() === '') {
    plain(res, 400, 'Bad Request: empty body; expected a JSON-RPC message or batch');
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    plain(res, 400, 'Bad Request: body is not valid JSON');
    return;
  }
  const isBatch = Array.isArray(body);
  const messages = (isBatch ? body : [body]) as unknown[];
  if (isBatch && messages.length > MCP_MAX_BATCH) {
    // G-MCP-3: refused as a whole, before any message is dispatched.
    ctx.sendJson(res, 400, rpcError(null, -32600, `batch exceeds maximum of ${MCP_MAX_BATCH} calls`));
    return;
  }
  if (isBatch && messages.length === 0) {
    ctx.sendJson(res, 400, rpcError(null, -32600, 'Invalid Request: empty batch'));
    return;
  }
  if (messages.some((m) => m === null || typeof m !== 'object' || Array.isArray(m))) {
    ctx.sendJson(res, 400, rpcError(null, -32600, 'Invalid Request: every message must be a JSON object'));
    return;
  }
  const list = messages as Message[];
  // G-MCP-14: mcp at read authenticates (initialize, ping, tools/list work), but tool calls need write.
  if (!who.canWrite && list.some((m) => m.method === 'tools/call')) {
    ctx.sendError(res, 403, 'permission_error', "insufficient permission: scope 'mcp' requires write, key has read");
    return;
  }
  const session = header(req, MCP_SESSION_HEADER);
  if (session !== undefined) {
    // The tools called in this request, so a test can tell which calls carried the header.
    const tools = list.flatMap((m) => (m.method === 'tools/call' && typeof (m.params as { name?: unknown } | undefined)?.name === 'string' ? [(m.params as { name: string }).name] : []));
    ctx.events.push({ type: 'mcp-session', session, grouped: MCP_LOCAL_SESSIONS.has(session), project: LOCAL_PROJECT, tools });
  }
  const responses = list.map((m) => dispatch(m, who.caller, ctx)).filter((r): r is Response => r !== undefined);
  if (responses.length === 0) {
    // G-MCP-8: only notifications (or client responses): 202 with no body.
    res.writeHead(202);
    res.end();
    return;
  }
  const payload = isBatch ? responses : responses[0];
  // Optional SSE upgrade: a single tools/call answers as one SSE event (the client accepted it).
  if (!isBatch && list[0].method === 'tools/call') {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    res.end(`event: message\ndata: ${JSON.stringify(payload)}\n\n`);
    return;
  }
  ctx.sendJson(res, 200, payload);
}

export const mcpModule: RouteModule = {
  name: 'mcp',
  register(route) {
    route('POST', '/v1/mcp', handleMcp);
  },
};

/**
 * The read-only probes of the compatibility check, one function per probe. Each sends what its
 * assumption needs (GETs; for MCP the POSTs of `initialize` and `tools/list`, which change nothing)
 * and returns one finding per assumption: held, not held, not checked (and why), or no usable answer.
 * The messages stream, the one request that can cost credits, is messagesProbe.ts.
 */
import { buildAnalyticsParams, recogniseAnalyticsText } from '../usage/analytics';
import { joinUrl } from '../gateway/joinUrl';
import { isRecord } from '../guards';
import { basicCredentials, type HostingCredentials } from '../account/hostingClient';
import { isUuid } from '../account/hosting';
import { recogniseExclusionsRead } from '../account/exclusionsRead';
import { mcpGatewayEnvelope } from '../mcp/errors';
import * as l10n from '../l10n';
import type { AssumptionId } from './assumptions';
import { envelopeMessage, probeRequest, ProbeNoAnswer, type ProbeAnswer, type ProbeHttp } from './probeHttp';
import type { Finding } from './report';
import {
  checkCapabilities,
  checkPricingStrings,
  checkPricingVersion,
  describeShape,
  DOCUMENTED_TOOLS,
  recogniseCatalogEnvelope,
  recogniseMcpInitialize,
  recogniseMcpToolsPage,
  recogniseSchema,
  type ShapeVerdict,
} from './shapeChecks';

export function notChecked(id: AssumptionId, why: string): Finding {
  return { id, verdict: 'not_checked', found: why };
}

function fromVerdict(id: AssumptionId, v: ShapeVerdict, answer: ProbeAnswer): Finding {
  return { id, verdict: v.held ? 'held' : 'not_held', found: v.found, ...(answer.requestId ? { requestId: answer.requestId } : {}), ...(v.held ? {} : { raw: answer.text }) };
}

/**
 * A finding for an answer that was not a success: its status and, when the body is an error envelope
 * (as `envelope` reads it), its message and request id.
 */
export function failedAnswer(id: AssumptionId, answer: ProbeAnswer, envelope: (a: ProbeAnswer) => { message?: string; requestId?: string } = (a) => ({ message: envelopeMessage(a) })): Finding {
  const { message, requestId: envelopeId } = envelope(answer);
  const requestId = answer.requestId ?? envelopeId;
  return {
    id,
    verdict: 'no_answer',
    found: message ? l10n.t('HTTP {0}: {1}', answer.status, message.slice(0, 300)) : l10n.t('HTTP {0}', answer.status),
    ...(requestId ? { requestId } : {}),
    raw: answer.text,
  };
}

function noAnswer(ids: readonly AssumptionId[], e: unknown): Finding[] {
  if (!(e instanceof ProbeNoAnswer)) throw e;
  return ids.map((id) => ({ id, verdict: 'no_answer' as const, found: e.message }));
}

// ---------------------------------------------------------------- catalog

const CATALOG_IDS: readonly AssumptionId[] = ['catalog.envelope', 'catalog.pricingStrings', 'catalog.pricingVersion', 'catalog.capabilities'];

/** GET /v1/models (no credential). Returns the model entries found, for the schema and messages probes. */
export async function probeCatalog(http: ProbeHttp, gatewayUrl: string): Promise<{ findings: Finding[]; models: unknown[] }> {
  let answer: ProbeAnswer;
  try {
    answer = await probeRequest(http, joinUrl(gatewayUrl, '/v1/models').toString(), { method: 'GET', headers: { Accept: 'application/json' } }, '/v1/models');
  } catch (e) {
    return { findings: noAnswer(CATALOG_IDS, e), models: [] };
  }
  if (answer.status !== 200) return { findings: CATALOG_IDS.map((id) => failedAnswer(id, answer)), models: [] };
  const envelope = recogniseCatalogEnvelope(answer.isJson ? answer.json : undefined);
  const models = envelope.models;
  const noPricing = l10n.t('no model in the answer carries pricing');
  const rest: Array<[AssumptionId, ShapeVerdict | undefined, string]> = [
    ['catalog.pricingStrings', checkPricingStrings(models), noPricing],
    ['catalog.pricingVersion', checkPricingVersion(models), noPricing],
    ['catalog.capabilities', checkCapabilities(models), l10n.t('no model in the answer lists capabilities')],
  ];
  return {
    findings: [fromVerdict('catalog.envelope', envelope, answer), ...rest.map(([id, v, why]) => (v ? fromVerdict(id, v, answer) : notChecked(id, why)))],
    models,
  };
}

// ---------------------------------------------------------------- schema route

/** The model whose schema is read: the first chat model, else the first model with an owner/model id. */
export function schemaModel(models: readonly unknown[]): string | undefined {
  const ids = models.filter(isRecord).filter((m) => typeof m.id === 'string' && /^[^/]+\/[^/]+$/.test(m.id));
  const chat = ids.find((m) => Array.isArray(m.capabilities) && m.capabilities.includes('chat'));
  return (chat ?? ids[0])?.id as string | undefined;
}

/** GET /v1/models/{owner}/{model}/schema (no credential). */
export async function probeSchema(http: ProbeHttp, gatewayUrl: string, modelId: string | undefined): Promise<Finding> {
  const id: AssumptionId = 'schema.jsonSchema';
  if (modelId === undefined) return notChecked(id, l10n.t('no model id of the form owner/model in the catalog'));
  const [owner, model] = modelId.split('/');
  const path = `/v1/models/${encodeURIComponent(owner)}/${encodeURIComponent(model)}/schema`;
  let answer: ProbeAnswer;
  try {
    answer = await probeRequest(http, joinUrl(gatewayUrl, path).toString(), { method: 'GET', headers: { Accept: 'application/json' } }, path);
  } catch (e) {
    return noAnswer([id], e)[0];
  }
  // A 404 or 405 for a model the catalog lists means the route itself is not there.
  if (answer.status !== 200) return answer.status === 404 || answer.status === 405 ? { ...failedAnswer(id, answer), verdict: 'not_held' } : failedAnswer(id, answer);
  const v = recogniseSchema(answer.isJson ? answer.json : undefined);
  return fromVerdict(id, { ...v, found: l10n.t('{0}: {1}', modelId, v.found) }, answer);
}

// ---------------------------------------------------------------- analytics

/**
 * GET /v1/analytics for the last day, with the identity token. Not checked without a token or a
 * project id: the API key is never sent to analytics (G-AN-1).
 */
export async function probeAnalytics(http: ProbeHttp, gatewayUrl: string, jwt: string | undefined, projectId: string, nowMs: number): Promise<Finding> {
  const id: AssumptionId = 'analytics.fields';
  if (!jwt?.trim()) return notChecked(id, l10n.t('needs an identity token (AI Gateway: Set Identity Token (JWT) for Usage)'));
  if (!projectId.trim()) return notChecked(id, l10n.t('needs a project id (setting aiGateway.analytics.projectId)'));
  const nowSec = Math.floor(nowMs / 1000);
  const params = buildAnalyticsParams({ projectId: projectId.trim(), startTime: nowSec - 86_400, bucketWidth: '1d' }, nowSec);
  let answer: ProbeAnswer;
  try {
    answer = await probeRequest(http, `${joinUrl(gatewayUrl, '/v1/analytics').toString()}?${params.toString()}`, { method: 'GET', headers: { Accept: 'application/json', Authorization: `Bearer ${jwt.trim()}` } }, '/v1/analytics');
  } catch (e) {
    return noAnswer([id], e)[0];
  }
  if (answer.status !== 200) return failedAnswer(id, answer);
  return fromVerdict(id, analyticsVerdict(answer), answer);
}

/**
 * The analytics answer as the product reads it (analytics.ts recogniseAnalyticsText, from the text so
 * credits_nano stays exact): held exactly when the usage dashboard and the budget would accept it.
 */
export function analyticsVerdict(answer: Pick<ProbeAnswer, 'text' | 'isJson'>): ShapeVerdict {
  // Not JSON: the product refuses it as a broken answer (analyticsClient.ts), before any shape.
  if (!answer.isJson) return { held: false, found: l10n.t('the answer is not JSON') };
  let shape: ReturnType<typeof recogniseAnalyticsText>;
  try {
    shape = recogniseAnalyticsText(answer.text);
  } catch {
    // The product's reader refused the text outright (it threw): so is it here.
    return { held: false, found: l10n.t('the answer is not JSON') };
  }
  if (shape.kind === 'unrecognised') return { held: false, found: shape.problems.join('; ') };
  const r = shape.result;
  return { held: true, found: l10n.t('every expected field is present ({0} buckets)', r.buckets.length) };
}

// ---------------------------------------------------------------- hosting: cache exclusions (read only)

/**
 * GET /v1/installs/{install_id}/cache_exclusions with the hosting credentials. Only a GET: the
 * check never sends the replacement (PUT), whatever the answer.
 */
export async function probeExclusionsRead(http: ProbeHttp, hostingUrl: string | undefined, credentials: HostingCredentials | undefined, installId: string | undefined): Promise<Finding> {
  const id: AssumptionId = 'hosting.exclusionsRead';
  if (!hostingUrl || !credentials) return notChecked(id, l10n.t('needs hosting API credentials (AI Gateway: Set Hosting API Credentials)'));
  if (!installId || !isUuid(installId)) return notChecked(id, l10n.t('needs an install: open Edit Cache Exclusions for an install once, then check again'));
  const path = `/v1/installs/${installId}/cache_exclusions`;
  let answer: ProbeAnswer;
  try {
    answer = await probeRequest(http, `${hostingUrl.replace(/\/+$/, '')}${path}`, { method: 'GET', headers: { Accept: 'application/json', Authorization: basicCredentials(credentials) } }, path);
  } catch (e) {
    return noAnswer([id], e)[0];
  }
  if (answer.status !== 200) return failedAnswer(id, answer);
  return fromVerdict(id, exclusionsVerdict(answer), answer);
}

/**
 * The exclusions read as the product reads it (exclusionsRead.ts recogniseExclusionsRead, the body
 * and the Link header): held exactly when Edit Cache Exclusions would open it as an editable list.
 */
export function exclusionsVerdict(answer: Pick<ProbeAnswer, 'json' | 'isJson' | 'link'>): ShapeVerdict {
  // Not JSON: the product refuses it as a broken answer (hostingClient.ts), before any envelope.
  if (!answer.isJson) return { held: false, found: l10n.t('the answer is not JSON') };
  const shape = recogniseExclusionsRead(answer.json, answer.link);
  if (shape.kind === 'unrecognised') return { held: false, found: l10n.t('{0} (the answer is {1})', shape.problem, describeShape(answer.json)) };
  return { held: true, found: l10n.t('a results list of {0} entries', shape.exclusions.length) };
}

// ---------------------------------------------------------------- MCP: initialize and tools/list

/** The protocol version the check offers (the MCP SDK's latest, which the product's client also sends). */
export const MCP_PROBE_PROTOCOL = '2025-11-25';
/** Most tools/list pages followed. */
export const MCP_MAX_PAGES = 10;

/**
 * A refused MCP request is read as the product reads it (mcp/errors.ts mcpGatewayEnvelope): the
 * gateway's envelope message and request id; any other body (an edge's HTML page, plain text) is not
 * taken for the gateway's word, and the status stands alone.
 */
const mcpFailedAnswer = (id: AssumptionId, answer: ProbeAnswer): Finding => failedAnswer(id, answer, (a) => mcpGatewayEnvelope(a.text) ?? {});

/** The JSON-RPC answer of an MCP POST: the JSON body, or the first `data:` of an event stream. */
function rpcAnswerOf(answer: ProbeAnswer): unknown {
  if (answer.isJson) return answer.json;
  if (answer.contentType !== 'text/event-stream') return undefined;
  for (const line of answer.text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    try {
      return JSON.parse(line.slice(5).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** `result` of a JSON-RPC response, or the words for what came instead. */
function rpcResult(answer: ProbeAnswer): { result: unknown } | { problem: string } {
  const body = rpcAnswerOf(answer);
  if (!isRecord(body)) return { problem: l10n.t('the answer is {0}, not a JSON-RPC response', describeShape(body)) };
  if (isRecord(body.error)) return { problem: l10n.t('JSON-RPC error {0}: {1}', String(body.error.code), String(body.error.message ?? '').slice(0, 300)) };
  if (!('result' in body)) return { problem: l10n.t('the JSON-RPC response is {0}, without a result', describeShape(body)) };
  return { result: body.result };
}

/**
 * POST /v1/mcp `initialize`, then `tools/list` (following nextCursor, at most MCP_MAX_PAGES pages).
 * Both are reads: the server keeps no session state (G-MCP-1). `tools/call` is never sent.
 */
export async function probeMcp(http: ProbeHttp, gatewayUrl: string, key: string | undefined, clientVersion: string): Promise<Finding[]> {
  const ids: AssumptionId[] = ['mcp.initialize', 'mcp.toolsList'];
  if (!key?.trim()) return ids.map((id) => notChecked(id, l10n.t('needs an API key (AI Gateway: Add API Key)')));
  const url = joinUrl(gatewayUrl, '/v1/mcp').toString();
  const headers: Record<string, string> = { Authorization: `Bearer ${key.trim()}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const rpc = (id: number, method: 'initialize' | 'tools/list', params: Record<string, unknown>, extra: Record<string, string> = {}): Promise<ProbeAnswer> =>
    probeRequest(http, url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) }, `/v1/mcp ${method}`);

  let init: ProbeAnswer;
  try {
    init = await rpc(1, 'initialize', { protocolVersion: MCP_PROBE_PROTOCOL, capabilities: {}, clientInfo: { name: 'ai-gateway-vscode-compat', version: clientVersion } });
  } catch (e) {
    return noAnswer(ids, e);
  }
  if (init.status !== 200) return ids.map((id) => mcpFailedAnswer(id, init));
  const initResult = rpcResult(init);
  const initFinding: Finding =
    'problem' in initResult ? { id: 'mcp.initialize', verdict: 'not_held', found: initResult.problem, ...(init.requestId ? { requestId: init.requestId } : {}), raw: init.text } : fromVerdict('mcp.initialize', recogniseMcpInitialize(initResult.result), init);
  const negotiated = 'result' in initResult && isRecord(initResult.result) && typeof initResult.result.protocolVersion === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(initResult.result.protocolVersion) ? initResult.result.protocolVersion : MCP_PROBE_PROTOCOL;

  const names: string[] = [];
  let cursor: string | undefined;
  let last: ProbeAnswer | undefined;
  for (let page = 0; page < MCP_MAX_PAGES; page++) {
    try {
      last = await rpc(2 + page, 'tools/list', cursor === undefined ? {} : { cursor }, { 'MCP-Protocol-Version': negotiated });
    } catch (e) {
      return [initFinding, ...noAnswer(['mcp.toolsList'], e)];
    }
    if (last.status !== 200) return [initFinding, mcpFailedAnswer('mcp.toolsList', last)];
    const r = rpcResult(last);
    const pageShape = 'problem' in r ? { ok: false as const, found: r.problem } : recogniseMcpToolsPage(r.result);
    if (!pageShape.ok) return [initFinding, { id: 'mcp.toolsList', verdict: 'not_held', found: pageShape.found, ...(last.requestId ? { requestId: last.requestId } : {}), raw: last.text }];
    names.push(...pageShape.names);
    cursor = pageShape.nextCursor;
    if (cursor === undefined) break;
  }
  const missing = DOCUMENTED_TOOLS.filter((t) => !names.includes(t));
  const found =
    (cursor !== undefined ? l10n.t('{0} tools in the first {1} pages (more remain)', names.length, MCP_MAX_PAGES) : l10n.t('{0} tools', names.length)) +
    (missing.length > 0 ? `; ${l10n.t('documented tools not listed for this key: {0}', missing.join(', '))}` : '');
  return [initFinding, { id: 'mcp.toolsList', verdict: 'held', found, ...(last?.requestId ? { requestId: last.requestId } : {}) }];
}

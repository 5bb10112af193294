/**
 * What a key can do, scope by scope (#39.12): one or two cheap, harmless requests per scope of the
 * spec's permissions table (chat, image, speech, transcribe, mcp, collections, documents, search,
 * agents), each read as "the gateway let the key through for this scope at this level" or "refused
 * it (403), naming the level the key has".
 *
 * No probe can run a model, write anything or bill anything:
 *  - write on chat, image, speech and transcribe: the route's POST with an empty body (no model, no input);
 *  - write on mcp: a batch of one `tools/call` without a tool name (answered with a JSON-RPC error; no
 *    tool runs), sent as a batch so the answer is plain JSON;
 *  - write on collections, documents and agents: the delete route of an id that cannot exist;
 *  - read on collections and agents: their list; on documents: the fetch of an id that cannot exist;
 *    on search: a search with an empty body in a collection that cannot exist.
 * So the whole check bills nothing; the report says so.
 *
 * Assumption (spec: the order of a gateway's checks is not shown; its status list, 401 then 403 then
 * 400, suggests it): the gateway authenticates the key (401) and checks its scope (403) before it reads
 * the body or looks the resource up (400, 404). Any answer past that point, in the gateway's error
 * envelope or a 2xx, therefore means the scope was granted at the probed level. This is the one place
 * that assumption lives (`passedScopeCheck`); keyCheck.ts's single chat probe relies on it through here.
 * A gateway that looked the resource up first would answer 404 for every key, and the report would
 * overstate the key; one that refused every key would understate it. Either way nothing is changed.
 */
import type { IGatewayClient } from '../gateway/api';
import { GatewayError, isGatewayError } from '../http/errors';
import { KB_ROUTES } from '../knowledge/kbWire';
import { send, type WireRoute } from '../knowledge/wireCommon';
import { AGENT_ROUTES } from '../knowledge/agentsWire';
import { MEDIA_PATHS } from '../media/mediaWire';
import * as l10n from '../l10n';

/** The scopes the check reports, in the order of the spec's table (session_events rides on agents). */
export const CHECKED_SCOPES = ['chat', 'image', 'speech', 'transcribe', 'mcp', 'collections', 'documents', 'search', 'agents'] as const;
export type CheckedScope = (typeof CHECKED_SCOPES)[number];

/**
 * What the check found for one scope. `write`/`read`/`none`: the gateway said so (a probe passed, or a
 * 403 named the level the key has). `not-write`: refused at write without naming the level (read or
 * none). `unknown`: the probe got no verdict (unreachable, throttled, an answer that is not the gateway's).
 */
export type ScopeFindingLevel = 'write' | 'read' | 'none' | 'not-write' | 'unknown';

export interface ScopeFinding {
  scope: CheckedScope;
  level: ScopeFindingLevel;
  requestId?: string;
  /** For `unknown`: why (the failure's message, never the key). */
  detail?: string;
}

export type ScopeReport =
  | { kind: 'scopes'; findings: ScopeFinding[]; billed: false }
  | { kind: 'invalid'; requestId?: string; message: string }
  | { kind: 'account'; requestId?: string; reason: 'entitlement_required' | 'account_required'; message: string }
  /** The gateway could not be reached or asked to wait: no verdict on any scope, nothing more was sent. */
  | { kind: 'error'; requestId?: string; error: GatewayError };

/** Failures that say nothing about the key and would say the same for every scope: the check stops. */
const TRANSPORT_REASONS: ReadonlySet<string> = new Set(['network', 'timeout', 'throttled', 'unavailable']);

/** One probe: a request at one level of one scope. */
export interface ScopeProbe {
  level: 'read' | 'write';
  /** Method and path (the KB and agents routes as their wire modules assume them). */
  route: WireRoute;
  body?: unknown;
  /** Accept header, when the route needs another than application/json. */
  accept?: string;
}

/** An id no collection, document or agent has: the probes' deletes and fetches find nothing. */
export const NO_SUCH_ID = 'ai-gateway-key-check-no-such-id';

function post(path: string): WireRoute {
  return { method: 'POST', path };
}

const MCP_PROBE_BODY = Object.freeze([Object.freeze({ jsonrpc: '2.0', id: 'key-check', method: 'tools/call', params: Object.freeze({}) })]);

/** Write probe first, then (when the write probe could not name the level) the read probe. */
export const SCOPE_PROBES: Readonly<Record<CheckedScope, readonly ScopeProbe[]>> = {
  chat: [{ level: 'write', route: post('/v1/chat/completions'), body: { model: '', messages: [] } }],
  image: [{ level: 'write', route: post(MEDIA_PATHS.images), body: {} }],
  speech: [{ level: 'write', route: post(MEDIA_PATHS.speech), body: {} }],
  transcribe: [{ level: 'write', route: post(MEDIA_PATHS.transcriptions), body: {} }],
  mcp: [{ level: 'write', route: post('/v1/mcp'), body: MCP_PROBE_BODY, accept: 'application/json, text/event-stream' }],
  collections: [
    { level: 'write', route: KB_ROUTES.deleteCollection(NO_SUCH_ID), body: {} },
    { level: 'read', route: KB_ROUTES.collections() },
  ],
  documents: [
    { level: 'write', route: KB_ROUTES.deleteDocument(NO_SUCH_ID, NO_SUCH_ID), body: {} },
    { level: 'read', route: KB_ROUTES.document(NO_SUCH_ID, NO_SUCH_ID) },
  ],
  search: [{ level: 'read', route: KB_ROUTES.search(NO_SUCH_ID), body: {} }],
  agents: [
    { level: 'write', route: AGENT_ROUTES.deleteAgent(NO_SUCH_ID), body: {} },
    { level: 'read', route: AGENT_ROUTES.agents() },
  ],
};

type ProbeClient = IGatewayClient;

type ProbeAnswer =
  | { kind: 'passed'; requestId?: string }
  | { kind: 'refused'; granted?: 'none' | 'read' | 'write'; requestId?: string }
  | { kind: 'invalid'; requestId?: string; message: string }
  | { kind: 'account'; requestId?: string; reason: 'entitlement_required' | 'account_required'; message: string }
  | { kind: 'unknown'; requestId?: string; detail: string }
  | { kind: 'error'; requestId?: string; error: GatewayError };

/**
 * True when a failed probe got past the key and scope checks (see the Assumption above): a refusal of
 * the body or resource (400, 404, 405, 409, 413, 415, 422) that carries the gateway's error envelope.
 * A bare 404 or an HTML page is not the gateway's answer and says nothing about the key.
 */
export function passedScopeCheck(error: GatewayError): boolean {
  if (!error.envelope) return false;
  return error.reason === 'invalid_request' || error.reason === 'not_found' || error.reason === 'method_not_allowed' || (error.status !== undefined && [409, 413, 415, 422].includes(error.status));
}

function levelOf(v: unknown): 'none' | 'read' | 'write' | undefined {
  return v === 'none' || v === 'read' || v === 'write' ? v : undefined;
}

async function probe(client: ProbeClient, p: ScopeProbe, signal: AbortSignal | undefined): Promise<ProbeAnswer> {
  try {
    const res = p.accept !== undefined ? await client.postJson<unknown>(p.route.path, p.body, { signal, accept: p.accept }) : await send(client, p.route, p.body, { signal });
    return { kind: 'passed', requestId: res.requestId };
  } catch (e) {
    const error = isGatewayError(e) ? e : new GatewayError({ reason: 'network', message: e instanceof Error ? e.message : String(e), cause: e });
    const requestId = error.requestId;
    if (error.reason === 'aborted') throw error;
    if (error.reason === 'authentication') return { kind: 'invalid', requestId, message: error.message };
    if (error.reason === 'entitlement_required' || error.reason === 'account_required') return { kind: 'account', requestId, reason: error.reason, message: error.message };
    if (error.reason === 'permission') return { kind: 'refused', granted: levelOf(error.permission?.granted), requestId };
    if (passedScopeCheck(error)) return { kind: 'passed', requestId };
    if (TRANSPORT_REASONS.has(error.reason)) return { kind: 'error', requestId, error };
    return { kind: 'unknown', requestId, detail: error.message };
  }
}

/**
 * Checks every scope of CHECKED_SCOPES with its probes, one request at a time. Stops early on a key the
 * gateway does not know (401) or an account problem (403 entitlement_required / account_required):
 * those concern the key as a whole; and on a failure that is not an answer about the key (unreachable,
 * timed out, throttled, unavailable). Cancelling (signal) rejects with the aborted GatewayError.
 */
export async function checkKeyScopes(client: ProbeClient, signal?: AbortSignal): Promise<ScopeReport> {
  const findings: ScopeFinding[] = [];
  for (const scope of CHECKED_SCOPES) {
    let finding: ScopeFinding | undefined;
    for (const p of SCOPE_PROBES[scope]) {
      const answer = await probe(client, p, signal);
      if (answer.kind === 'invalid' || answer.kind === 'account' || answer.kind === 'error') return answer;
      if (answer.kind === 'passed') {
        finding = { scope, level: p.level, requestId: answer.requestId };
        break;
      }
      if (answer.kind === 'unknown') {
        finding = { scope, level: 'unknown', requestId: answer.requestId, detail: answer.detail };
        break;
      }
      if (answer.granted !== undefined) {
        finding = { scope, level: answer.granted, requestId: answer.requestId };
        break;
      }
      // Refused without the granted level: below this probe's level; the next probe (read) may tell more.
      finding = { scope, level: p.level === 'write' ? 'not-write' : 'none', requestId: answer.requestId };
    }
    findings.push(finding ?? { scope, level: 'unknown' });
  }
  return { kind: 'scopes', findings, billed: false };
}

/**
 * The level's words in a list. write, read and none are the spec's own terms (like the scope names) and
 * stay as they are in every language; the two the check adds are translated.
 */
export function levelWords(level: ScopeFindingLevel): string {
  switch (level) {
    case 'write':
    case 'read':
    case 'none':
      return level;
    case 'not-write':
      return l10n.t('read or none');
    case 'unknown':
      return l10n.t('unknown (no answer)');
  }
}

/** One line per scope, e.g. "mcp: write", "chat: none". */
export function scopeLines(findings: readonly ScopeFinding[]): string[] {
  return findings.map((f) => `${f.scope}: ${levelWords(f.level)}${f.detail ? ` (${f.detail})` : ''}`);
}

/** The one-line summary of a report; never contains the key. */
export function summarizeScopeReport(report: ScopeReport, keyLabel: string): string {
  switch (report.kind) {
    case 'error':
      return l10n.t('Could not check API key {0}: {1}', keyLabel, report.error.message);
    case 'invalid':
      return l10n.t('API key {0} was refused (401): it is invalid or has been revoked. Revocation cannot be undone; create a new key in the portal.', keyLabel);
    case 'account':
      return report.reason === 'entitlement_required'
        ? l10n.t('API key {0} is valid, but the account lacks the AI gateway entitlement.', keyLabel)
        : l10n.t('API key {0} is valid, but no billing account could be resolved for it.', keyLabel);
    case 'scopes': {
      const usable = report.findings.filter((f) => f.level === 'write' || f.level === 'read').map((f) => `${f.scope} (${levelWords(f.level)})`);
      const unknown = report.findings.filter((f) => f.level === 'unknown').map((f) => f.scope);
      const can = usable.length > 0 ? l10n.t('API key {0} is valid and can use {1}.', keyLabel, usable.join(', ')) : l10n.t('API key {0} is valid but can use none of the checked scopes.', keyLabel);
      const open = unknown.length > 0 ? ` ${l10n.t('No answer for {0}.', unknown.join(', '))}` : '';
      return `${can}${open} ${l10n.t('Nothing was billed.')}`;
    }
  }
}

/** What a scope gives access to, for the list Check API Key shows. */
export function scopeUse(scope: CheckedScope): string {
  switch (scope) {
    case 'chat':
      return l10n.t('Chat, messages and content tools (summaries, tags)');
    case 'image':
      return l10n.t('Image generation and alt text');
    case 'speech':
      return l10n.t('Speech generation');
    case 'transcribe':
      return l10n.t('Audio transcription');
    case 'mcp':
      return l10n.t('The tool server (/v1/mcp): tools and site abilities');
    case 'collections':
      return l10n.t('Knowledge-base collections (and sites)');
    case 'documents':
      return l10n.t('Knowledge-base documents');
    case 'search':
      return l10n.t('Knowledge-base search');
    case 'agents':
      return l10n.t('Agents, sessions and their feedback');
  }
}

/**
 * The one way a compatibility probe talks HTTP. The method is GET or POST by type: the check never
 * sends PUT, PATCH or DELETE, and its POSTs are only MCP `initialize` / `tools/list` and the one
 * tiny messages request (see messagesProbe.ts). Every answer is read bounded, each request has its
 * own time limit besides the user's Cancel, and no request is ever sent twice: a probe that gets no
 * answer says so and the check goes on.
 */
import { errorFromTransport } from '../http/classify';
import { readResponseText } from '../http/network';
import type { SentRequest } from './report';

export interface ProbeFetchInit {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export type ProbeFetch = (url: string, init: ProbeFetchInit) => Promise<{
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  body?: unknown;
}>;

export interface ProbeAnswer {
  status: number;
  requestId?: string;
  contentType: string;
  text: string;
  /** The parsed body when it is JSON; undefined otherwise (see `isJson`). */
  json?: unknown;
  isJson: boolean;
  /** The Link header, when there was one (a paged answer may say so only there). */
  link?: string;
}

/** A probe that got no answer at all (refused, timed out, cut); `message` is already words. */
export class ProbeNoAnswer extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProbeNoAnswer';
  }
}

/** Largest answer a probe reads. The catalog of a large gateway fits; anything larger is cut off. */
export const PROBE_MAX_BYTES = 4 * 1024 * 1024;
/** Time limit of one probe request. */
export const PROBE_TIMEOUT_MS = 30_000;

export interface ProbeHttp {
  fetch: ProbeFetch;
  userAgent: string;
  signal: AbortSignal;
  /** Every request sent is appended here (the report's "Requests sent"). */
  sent: SentRequest[];
}

/**
 * Sends one request and reads its answer (bounded). `what` names it in the report (a path, and the
 * JSON-RPC method for MCP; never a query value). Throws ProbeNoAnswer when nothing usable came back,
 * and the caller's AbortError when the user cancelled.
 */
export async function probeRequest(http: ProbeHttp, url: string, init: Omit<ProbeFetchInit, 'signal'>, what: string, extra: { billed?: boolean; maxBytes?: number } = {}): Promise<ProbeAnswer> {
  const record: SentRequest = { method: init.method, what, ...(extra.billed ? { billed: true } : {}) };
  http.sent.push(record);
  const signal = AbortSignal.any([http.signal, AbortSignal.timeout(PROBE_TIMEOUT_MS)]);
  try {
    const res = await http.fetch(url, { ...init, headers: { 'User-Agent': http.userAgent, ...init.headers }, signal });
    record.status = res.status;
    const requestId = res.headers.get('x-request-id') ?? undefined;
    if (requestId) record.requestId = requestId;
    const text = await readResponseText(res, extra.maxBytes ?? PROBE_MAX_BYTES, 'The answer', { status: res.status, requestId });
    const contentType = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    let json: unknown;
    let isJson = false;
    try {
      json = JSON.parse(text);
      isJson = true;
    } catch {
      json = undefined;
    }
    const link = res.headers.get('link') ?? undefined;
    return { status: res.status, requestId, contentType, text, json, isJson, ...(link ? { link } : {}) };
  } catch (e) {
    if (http.signal.aborted) throw e;
    if (signal.aborted) throw new ProbeNoAnswer(`No answer within ${PROBE_TIMEOUT_MS / 1000} seconds`);
    const err = errorFromTransport(e, {});
    throw new ProbeNoAnswer(err instanceof Error ? err.message : String(err));
  }
}

/** The gateway's error envelope message and request id, when the body is one. */
export function envelopeMessage(answer: ProbeAnswer): string | undefined {
  const body = answer.json;
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') return (error as { message: string }).message;
  const message = (body as { message?: unknown }).message;
  return typeof message === 'string' ? message : undefined;
}

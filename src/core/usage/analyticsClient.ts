/**
 * Client for GET /v1/analytics. It is not on the shared IGatewayClient because it authenticates with
 * an identity-provider JWT rather than the API key (G-AN-1) and needs the raw body text to keep
 * credits_nano exact. Errors are classified by the same code as the gateway client, and retried by the
 * same policy (`withRetry`, the user's `aiGateway.retry.*`): a GET, so a failure after the request went
 * out may be retried too.
 */
import { errorFromResponse, errorFromTransport, parseRetryAfter } from '../http/classify';
import { PhaseTimer } from '../http/body';
import { DEFAULT_TIMEOUTS, type TimeoutSettings } from '../http/dispatcher';
import { GatewayError, isGatewayError } from '../http/errors';
import { joinUrl } from '../gateway/joinUrl';
import { readResponseText } from '../http/network';
import { DEFAULT_RETRY, systemClock, withRetry, type Clock, type RetryInfo, type RetrySettings } from '../http/retry';
import { buildAnalyticsParams, checkAnalyticsCredential, parseAnalyticsResponse, type AnalyticsQuery, type AnalyticsResult } from './analytics';

export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; signal?: AbortSignal }) => Promise<{
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  /** The WHATWG body, read with a size limit when present. */
  body?: unknown;
}>;

export interface AnalyticsClientOptions {
  baseUrl: () => string;
  getJwt: () => Promise<string | undefined>;
  fetch: FetchLike;
  userAgent: string;
  /** Largest response body read (the shared network layer's limit); unlimited when absent. */
  maxBodyBytes?: number;
  /** First-byte and idle timeouts, read per request (the shared Network's `timeouts()`); DEFAULT_TIMEOUTS when absent. */
  timeouts?: () => Partial<TimeoutSettings>;
  /** Retry settings, read per request (the shared Network's `retry()`); DEFAULT_RETRY when absent. */
  retry?: () => Partial<RetrySettings>;
  /** Back-off waits and jitter (tests); the system clock when absent. */
  clock?: Clock;
  now?: () => number;
}

export interface AnalyticsCallOptions {
  /** Called before each retry (the dashboard's status line). */
  onRetry?: (info: RetryInfo) => void;
}

export async function fetchAnalytics(options: AnalyticsClientOptions, query: AnalyticsQuery, signal?: AbortSignal, call?: AnalyticsCallOptions): Promise<AnalyticsResult> {
  const nowMs = options.now?.() ?? Date.now();
  const token = await options.getJwt();
  const refusal = checkAnalyticsCredential(token);
  if (refusal) throw new GatewayError({ reason: 'authentication', message: refusal });
  const params = buildAnalyticsParams(query, Math.floor(nowMs / 1000));
  const url = `${joinUrl(options.baseUrl(), '/v1/analytics').toString()}?${params.toString()}`;
  const settings = { ...DEFAULT_RETRY, ...options.retry?.() };
  return withRetry({ settings, clock: options.clock ?? systemClock, signal, idempotent: true, onRetry: call?.onRetry }, () => fetchOnce(options, url, token, nowMs, signal));
}

async function fetchOnce(options: AnalyticsClientOptions, url: string, token: string | undefined, nowMs: number, signal: AbortSignal | undefined): Promise<AnalyticsResult> {
  const timer = new PhaseTimer({ ...DEFAULT_TIMEOUTS, ...options.timeouts?.() }, signal);
  const failed = (e: unknown, ctx: { requestId?: string; status?: number; partial?: boolean }): GatewayError => {
    if (timer.phase !== undefined && !signal?.aborted && !isGatewayError(e)) {
      const firstByte = timer.phase === 'firstByte';
      return new GatewayError({
        ...ctx,
        reason: 'timeout',
        timeoutPhase: timer.phase,
        message: firstByte ? 'The gateway did not start answering in time' : 'The gateway stopped sending data (idle timeout)',
        cause: e,
      });
    }
    return errorFromTransport(e, { signal, ...ctx });
  };
  try {
    let res: Awaited<ReturnType<FetchLike>>;
    try {
      res = await options.fetch(url, {
        method: 'GET',
        headers: { Authorization: `Bearer ${token}`, Accept: 'application/json', 'User-Agent': options.userAgent },
        signal: timer.signal,
      });
    } catch (e) {
      throw failed(e, {});
    }
    timer.gotHeaders();
    const requestId = res.headers.get('x-request-id') ?? undefined;
    const read = async (): Promise<string> => {
      try {
        return await readResponseText(res, options.maxBodyBytes, 'The analytics response', { requestId, status: res.status, onChunk: timer.onChunk });
      } catch (e) {
        throw failed(e, { requestId, status: res.status, partial: true });
      }
    };
    if (res.status !== 200) {
      throw errorFromResponse({
        status: res.status,
        headerRequestId: requestId,
        retryAfterMs: parseRetryAfter(res.headers.get('retry-after') ?? undefined, nowMs),
        bodyText: res.status === 429 ? undefined : await read(),
        knownSecrets: token ? [token] : [],
      });
    }
    const text = await read();
    try {
      return parseAnalyticsResponse(text);
    } catch (e) {
      // A body that is not JSON is a broken answer ('protocol'), like any gateway route's; a JSON
      // body of the wrong shape stays the analytics module's own error.
      if (!isJson(text)) throw new GatewayError({ reason: 'protocol', message: 'The analytics response is not valid JSON', requestId, status: res.status, cause: e });
      throw e;
    }
  } finally {
    timer.clear();
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

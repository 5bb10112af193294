/**
 * Retry policy of the gateway client: exponential back-off with full jitter, Retry-After honoured,
 * bounded by attempts and by total time. Time and randomness come from a Clock so tests can check the
 * exact delays without waiting for them.
 */
import { GatewayError, isGatewayError } from './errors';
import { isPermanentConnectCode } from './connectErrors';

export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects with a GatewayError 'aborted' as soon as `signal` fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Uniform in [0, 1). */
  random(): number;
}

export interface RetrySettings {
  /** Total attempts including the first one (1 disables retries). */
  maxAttempts: number;
  /** No retry is started if its wait would end later than this many ms after the first attempt began. */
  maxTotalMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetrySettings = { maxAttempts: 4, maxTotalMs: 30_000, baseDelayMs: 500, maxDelayMs: 8_000 };

function abortedError(): GatewayError {
  return new GatewayError({ reason: 'aborted', message: 'The request was cancelled' });
}

export const systemClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep(ms, signal) {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortedError());
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(abortedError());
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
};

/**
 * The wait before retry number `attempt` (1-based count of failed attempts so far). Retry-After wins
 * when the server sent one; otherwise full jitter: uniform in [0, min(maxDelay, base * 2^(attempt-1))].
 */
export function backoffDelay(attempt: number, settings: RetrySettings, random: () => number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/**
 * Whether a failure may be retried automatically. The gateway told us to come back (429, 503), or the
 * request provably never reached it (connection refused, DNS failure, connect timeout, TLS failure in
 * the handshake). A reset or "other side closed" after the request was written is NOT retried for a
 * POST: the gateway may have read the whole body and started (and billed) the work. Only an
 * idempotent request (a GET) may be re-sent after such an ambiguous failure. A first-byte timeout is
 * not retried: the gateway may be generating the answer.
 */
export function isRetryable(error: GatewayError, options: { idempotent?: boolean } = {}): boolean {
  if (error.partial) return false;
  if (error.reason === 'throttled' || error.reason === 'unavailable') return true;
  if (isPermanentConnectCode(error.code)) return false;
  if (error.reason === 'network' || (error.reason === 'timeout' && error.timeoutPhase === 'connect')) {
    return !error.mayHaveReachedServer || (options.idempotent === true && error.status === undefined);
  }
  return false;
}

export interface RetryInfo {
  /** How many attempts have failed so far (1 before the first retry). */
  attempt: number;
  delayMs: number;
  error: GatewayError;
}

/**
 * How one call retries: the user's settings (`aiGateway.retry.*`, through Network.retry()), and which
 * failures may be sent again. The default rule is `isRetryable`: a request that may have reached the
 * server is repeated only when it is `idempotent` (a GET); a billed POST only when it provably never
 * left this machine. A client may narrow the rule with `retryable`, never widen it past that.
 */
export interface RetryPolicy {
  settings: RetrySettings;
  clock?: Clock;
  signal?: AbortSignal;
  /** A request that bills nothing when repeated (a GET). */
  idempotent?: boolean;
  /** A narrower rule than `isRetryable` (it is asked only when `isRetryable` says yes). */
  retryable?: (error: GatewayError) => boolean;
  /** When the call began (the total-time bound counts from here); the clock's now when absent. */
  started?: number;
  /** Called before each wait; an exception in it is ignored. */
  onRetry?: (info: RetryInfo) => void;
}

/**
 * Runs `attempt` (1-based number) until it succeeds, fails with something the policy does not retry,
 * or the attempts or total time run out; between attempts waits `backoffDelay` (Retry-After wins).
 * Anything thrown that is not a GatewayError is not retried. A cancelled wait ends in a GatewayError
 * 'aborted' that keeps the failed attempt's request id.
 */
export async function withRetry<T>(policy: RetryPolicy, attempt: (n: number) => Promise<T>): Promise<T> {
  const { settings, signal } = policy;
  const clock = policy.clock ?? systemClock;
  const started = policy.started ?? clock.now();
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (e) {
      if (!isGatewayError(e) || e.reason === 'aborted' || n >= settings.maxAttempts) throw e;
      if (!isRetryable(e, { idempotent: policy.idempotent }) || (policy.retryable && !policy.retryable(e))) throw e;
      const delayMs = backoffDelay(n, settings, () => clock.random(), e.retryAfterMs);
      if (clock.now() + delayMs - started > settings.maxTotalMs) throw e;
      try {
        policy.onRetry?.({ attempt: n, delayMs, error: e });
      } catch {
        // A failing UI callback must not turn a retryable failure into a different one.
      }
      const aborted = (cause?: unknown): GatewayError =>
        new GatewayError({ reason: 'aborted', message: 'The request was cancelled', requestId: e.requestId, mayHaveReachedServer: e.mayHaveReachedServer, cause });
      try {
        await clock.sleep(delayMs, signal);
      } catch (cause) {
        // Only an abort ends a back-off wait early; keep the id of the response we were waiting on.
        throw aborted(cause);
      }
      if (signal?.aborted) throw aborted();
    }
  }
}

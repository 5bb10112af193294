/**
 * Retry policy of the gateway client: exponential back-off with full jitter, Retry-After honoured,
 * bounded by attempts and by total time. Time and randomness come from a Clock so tests can check the
 * exact delays without waiting for them.
 */
import { GatewayError, isCertificateErrorCode } from './errors';

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
  if (isCertificateErrorCode(error.code)) return false;
  if (error.reason === 'network' || (error.reason === 'timeout' && error.timeoutPhase === 'connect')) {
    return !error.mayHaveReachedServer || (options.idempotent === true && error.status === undefined);
  }
  return false;
}

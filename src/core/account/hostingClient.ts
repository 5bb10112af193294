/**
 * Client for the hosting account API. Basic auth (H-AUTH-1).
 *
 * Assumption (spec: "how the credentials are issued or composed: not shown"): the user supplies a
 * username and password (or API token) pair, kept in SecretStorage by the editor layer, composed as
 * the usual `base64(user:password)`. Change `basicCredentials` when the real scheme is known.
 *
 * No automatic retries: a PUT or POST that failed on a 503 may have been applied, and the user
 * decides. Every call takes an AbortSignal.
 */
import type { FetchLike } from '../usage/analyticsClient';
import { isGatewayError } from '../http/errors';
import { PhaseTimer } from '../http/body';
import { connectProblem, isNotSentCode } from '../http/classify';
import { DEFAULT_TIMEOUTS, type TimeoutSettings } from '../http/dispatcher';
import { readResponseText } from '../http/network';
import { ExclusionsReadUnrecognisedError, recogniseExclusionsRead, redactRaw } from './exclusionsRead';
import { HostingError, hostingErrorFromResponse, isUuid, prepareExclusions, prepareTransfer, HostingValidationError, type CacheExclusion, type SiteTransfer } from './hosting';

export interface HostingCredentials {
  username: string;
  password: string;
}

export function basicCredentials(c: HostingCredentials): string {
  return `Basic ${Buffer.from(`${c.username}:${c.password}`, 'utf8').toString('base64')}`;
}

export interface HostingClientOptions {
  baseUrl: () => string;
  getCredentials: () => Promise<HostingCredentials | undefined>;
  fetch: FetchLike & ((url: string, init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal }) => ReturnType<FetchLike>);
  userAgent: string;
  /** Largest response body read (the shared network layer's limit); unlimited when absent. */
  maxBodyBytes?: number;
  /** First-byte and idle timeouts, read per request (the shared Network's `timeouts()`); DEFAULT_TIMEOUTS when absent. */
  timeouts?: () => Partial<TimeoutSettings>;
  now?: () => number;
}

/** What probe() found at the configured address. */
export type HostingProbe = { kind: 'ok' } | { kind: 'unreachable' | 'not-hosting' | 'cancelled'; message: string };

/** A syntactically valid id no install has: the probe's path, answered 401 before any lookup. */
const PROBE_INSTALL_ID = '00000000-0000-4000-8000-000000000000';

export class HostingClient {
  constructor(private readonly options: HostingClientOptions) {}

  /**
   * The current list, only when the answer is recognised exactly (exclusionsRead.ts); any other answer
   * (another envelope, a page of several) throws ExclusionsReadUnrecognisedError with the raw answer,
   * so it can never become the list a save replaces the server's with (#39.6).
   */
  async getCacheExclusions(installId: string, signal?: AbortSignal): Promise<CacheExclusion[]> {
    requireUuid(installId, 'install id');
    return this.exclusionsFrom(await this.send('GET', `/v1/installs/${installId}/cache_exclusions`, undefined, signal), false);
  }

  /**
   * Full replacement (H-CE-1). Validated locally first; nothing is sent when the list is invalid. An
   * answer that is not recognised throws ExclusionsReadUnrecognisedError (afterWrite: the save was applied).
   */
  async putCacheExclusions(installId: string, exclusions: readonly CacheExclusion[], signal?: AbortSignal): Promise<CacheExclusion[]> {
    requireUuid(installId, 'install id');
    const body = { exclusions: prepareExclusions(exclusions) };
    return this.exclusionsFrom(await this.send('PUT', `/v1/installs/${installId}/cache_exclusions`, body, signal), true);
  }

  private async exclusionsFrom(answer: RawAnswer, afterWrite: boolean): Promise<CacheExclusion[]> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      // Not JSON at all: a broken answer, like on any other route (nothing is made of it either).
      throw new HostingError('protocol', 'The hosting API sent a response that is not JSON', answer.status);
    }
    const shape = recogniseExclusionsRead(parsed, answer.link);
    if (shape.kind === 'recognised') return shape.exclusions;
    const creds = await this.options.getCredentials();
    const secrets = creds ? [creds.password, basicCredentials(creds), basicCredentials(creds).slice('Basic '.length)] : [];
    throw new ExclusionsReadUnrecognisedError(shape.problem, redactRaw(answer.text, secrets), shape.paged, afterWrite, answer.status);
  }

  requestTransfer(siteId: string, input: Parameters<typeof prepareTransfer>[0], signal?: AbortSignal): Promise<SiteTransfer> {
    requireUuid(siteId, 'site id');
    const body = prepareTransfer(input, this.options.now?.() ?? Date.now());
    return this.call<SiteTransfer>('POST', `/v1/sites/${siteId}/site_transfers`, body, signal);
  }

  /** Cancels a transfer that has not started; a started one gives HostingError 'conflict' (409). */
  async cancelTransfer(siteId: string, transferId: string, signal?: AbortSignal): Promise<string> {
    requireUuid(siteId, 'site id');
    requireUuid(transferId, 'transfer id');
    // Assumption (spec: "the body of a successful cancel: not shown", but the state table says the
    // response is `Transfer cancelled`): accept a JSON {message} or plain text.
    const r = await this.call<unknown>('DELETE', `/v1/sites/${siteId}/site_transfers/${transferId}`, undefined, signal, true);
    if (typeof r === 'string') return r || 'Transfer cancelled';
    if (typeof r === 'object' && r !== null && typeof (r as { message?: unknown }).message === 'string') return (r as { message: string }).message;
    return 'Transfer cancelled';
  }

  /**
   * Is the configured address a hosting account API (#29.2)? Asked before any credential is: one GET
   * without credentials on a documented path, which a hosting API answers with 401 and a JSON `message`
   * (H-AUTH-1). Nothing is changed and no credential is sent.
   */
  async probe(signal?: AbortSignal): Promise<HostingProbe> {
    const base = this.options.baseUrl().replace(/\/+$/, '');
    const timer = new PhaseTimer({ ...DEFAULT_TIMEOUTS, ...this.options.timeouts?.() }, signal);
    try {
      let res: Awaited<ReturnType<FetchLike>>;
      try {
        res = await this.options.fetch(`${base}/v1/installs/${PROBE_INSTALL_ID}/cache_exclusions`, { method: 'GET', headers: { Accept: 'application/json', 'User-Agent': this.options.userAgent }, signal: timer.signal });
      } catch (e) {
        const err = transportError(e, timer, signal, undefined);
        return { kind: err.reason === 'aborted' ? 'cancelled' : 'unreachable', message: err.message };
      }
      timer.gotHeaders();
      let text = '';
      try {
        text = await readResponseText(res, 64 * 1024, 'The hosting API response', { status: res.status, onChunk: timer.onChunk });
      } catch {
        /* judged by the status alone */
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
      if (res.status === 401 && typeof message === 'string') return { kind: 'ok' };
      return { kind: 'not-hosting', message: `${base} answered HTTP ${res.status}${typeof message === 'string' ? '' : ' without a hosting API error body'}, not the 401 a hosting account API gives a request without credentials` };
    } finally {
      timer.clear();
    }
  }

  private async call<T>(method: string, path: string, body: unknown, signal: AbortSignal | undefined, textOk = false): Promise<T> {
    const { text, status } = await this.send(method, path, body, signal);
    if (text === '') return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      if (textOk) return text as T;
      throw new HostingError('protocol', 'The hosting API sent a response that is not JSON', status);
    }
  }

  /** Sends one request; a 2xx answer's text, status and Link header, or the HostingError of any other. */
  private async send(method: string, path: string, body: unknown, signal: AbortSignal | undefined): Promise<RawAnswer> {
    const creds = await this.options.getCredentials();
    if (!creds) throw new HostingError('authentication', 'Hosting API credentials are not set');
    const headers: Record<string, string> = {
      Authorization: basicCredentials(creds),
      Accept: 'application/json',
      'User-Agent': this.options.userAgent,
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const timer = new PhaseTimer({ ...DEFAULT_TIMEOUTS, ...this.options.timeouts?.() }, signal);
    let res: Awaited<ReturnType<FetchLike>>;
    let text: string;
    try {
      try {
        res = await this.options.fetch(`${this.options.baseUrl().replace(/\/+$/, '')}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: timer.signal,
        });
      } catch (e) {
        throw transportError(e, timer, signal, undefined);
      }
      timer.gotHeaders();
      try {
        text = await readResponseText(res, this.options.maxBodyBytes, 'The hosting API response', { status: res.status, onChunk: timer.onChunk });
      } catch (e) {
        throw transportError(e, timer, signal, res.status);
      }
    } finally {
      timer.clear();
    }
    if (res.status < 200 || res.status > 299) throw hostingErrorFromResponse(res.status, text);
    return { status: res.status, text, link: res.headers.get('link') };
  }
}

interface RawAnswer {
  status: number;
  text: string;
  link: string | null;
}

/**
 * The HostingError for a failed fetch or body read. `status` is set once the answer's headers
 * arrived. Only a failure that proves nothing was sent (connection refused, DNS, the credential
 * check saying no) is marked as not having reached the server: the client never retries writes, and
 * the user is told a write may have been applied.
 */
function transportError(e: unknown, timer: PhaseTimer, signal: AbortSignal | undefined, status: number | undefined): HostingError {
  if (e instanceof HostingError) return e;
  if (timer.phase !== undefined && !signal?.aborted) {
    const message = timer.phase === 'firstByte' ? 'The hosting API did not start answering in time' : 'The hosting API stopped sending data (idle timeout)';
    return new HostingError('timeout', message, status, undefined, [], { timeoutPhase: timer.phase, partial: status !== undefined, cause: e });
  }
  if (signal?.aborted) return new HostingError('aborted', 'The request was cancelled', status, undefined, [], { cause: e, mayHaveReachedServer: status !== undefined });
  // The network layer refused to send the credentials (plain http:// and the user said no).
  if (isGatewayError(e) && !e.mayHaveReachedServer) return new HostingError('aborted', e.message, undefined, undefined, [], { mayHaveReachedServer: false, cause: e });
  if (isGatewayError(e) && e.reason === 'protocol') return new HostingError('protocol', e.message, status, undefined, [], { cause: e });
  if (status !== undefined) {
    return new HostingError('network', `The connection to the hosting API broke during the response (${(e as Error).message})`, status, undefined, [], { partial: true, cause: e });
  }
  // A refused certificate or proxy: nothing was sent, and the words name what fixes it.
  const problem = connectProblem(e, 'the hosting API', 'aiGateway.hosting.baseUrl');
  if (problem) return new HostingError('network', problem.message, undefined, undefined, [], { mayHaveReachedServer: false, cause: e });
  const notSent = isNotSentCode(transportCode(e));
  return new HostingError(
    'network',
    notSent ? `Could not reach the hosting API (${describe(e)})` : `The connection to the hosting API broke before the answer (${describe(e)}); the request may have been received`,
    undefined,
    undefined,
    [],
    { mayHaveReachedServer: !notSent, cause: e },
  );
}

/** A transport error code (ECONNREFUSED, UND_ERR_SOCKET…) from the error or its causes. */
function transportCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let depth = 0; depth < 5 && typeof cur === 'object' && cur !== null; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

function describe(e: unknown): string {
  const code = transportCode(e);
  const message = e instanceof Error ? e.message : String(e);
  return code && !message.includes(code) ? `${message}: ${code}` : message;
}

function requireUuid(id: string, what: string): void {
  if (!isUuid(id)) throw new HostingValidationError(`The ${what} must be a UUID`);
}

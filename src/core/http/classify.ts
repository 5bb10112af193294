/**
 * Turns HTTP statuses, gateway error envelopes and transport failures into GatewayError. This is the
 * one place that knows the gateway's error contract (ai-gateway-api.md, "Errors"); everything above
 * works with `GatewayError.reason`.
 */
import { capText, isSpaceCode, MAX_SERVER_TEXT_CHARS, redactSecrets, type WorkCounter } from '../log';
import { GatewayError, type GatewayErrorInit, type GatewayErrorReason, type PermissionDetail } from './errors';
import { certificateMessage, findErrorCode, isCertificateErrorCode, PROXY_AUTH_ERROR_CODE, PROXY_REFUSED_ERROR_CODE } from './connectErrors';
import { DEFAULT_LIMITS } from './policy';

export interface ErrorEnvelope {
  message?: string;
  type?: string;
  code?: number;
  request_id?: string;
}

/**
 * Reads `{error: {message, type, code, request_id}}` leniently; undefined when the body is not one.
 * A body longer than `maxChars` (the network layer's error-body limit, http/policy.ts) is not parsed
 * and the status alone decides the error: a real envelope is a few hundred bytes, and the limit keeps
 * a hostile body from costing parse time.
 */
export function parseErrorEnvelope(bodyText: string, maxChars: number = DEFAULT_LIMITS.maxErrorBodyBytes): ErrorEnvelope | undefined {
  if (bodyText.length > maxChars) return undefined;
  const trimmed = bodyText.trimStart();
  if (!trimmed.startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const error = (parsed as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as Record<string, unknown>;
  return {
    message: typeof e.message === 'string' ? e.message : undefined,
    type: typeof e.type === 'string' ? e.type : undefined,
    code: typeof e.code === 'number' ? e.code : typeof e.code === 'string' && /^\d+$/.test(e.code) ? Number(e.code) : undefined,
    // A request id is a short token; anything longer is not one and would only bloat logs and messages.
    request_id: typeof e.request_id === 'string' && e.request_id.length <= 256 ? e.request_id : undefined,
  };
}

// The permission message is server text, so it is read by a tokenizer and fixed token patterns, not
// by regular expressions: the regexes this replaces backtracked quadratically (a 128 K-character
// message took over 10 s). Tokenizing visits each character once, and each pattern looks at a bounded
// number of tokens from each start, so the whole parse is linear; the WorkCounter lets the property
// tests prove it.

/** The most characters of a permission message that are read (it is capped again here for callers other than errorFromResponse). */
export const MAX_PERMISSION_MESSAGE_CHARS = MAX_SERVER_TEXT_CHARS;

type TokenKind = 'word' | 'space' | 'quote' | 'sep' | 'other';
interface Token {
  kind: TokenKind;
  /** For 'word': the text, lower-cased. */
  text: string;
}

const QUOTES = new Set([...'\'"`“”‘’'].map((c) => c.charCodeAt(0)));

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
/** Characters of a word: letters, digits, `_`, `.` and `-` (scope names like `collections.read-only`). */
function isWordPart(c: number): boolean {
  return isAsciiLetter(c) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;
}

function tokenize(message: string, w: WorkCounter): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < message.length) {
    const c = message.charCodeAt(i);
    let j = i + 1;
    w.steps++;
    if (isWordPart(c)) {
      while (j < message.length && isWordPart(message.charCodeAt(j))) {
        w.steps++;
        j++;
      }
      tokens.push({ kind: 'word', text: message.slice(i, j).toLowerCase() });
    } else if (isSpaceCode(c)) {
      while (j < message.length && isSpaceCode(message.charCodeAt(j))) {
        w.steps++;
        j++;
      }
      tokens.push({ kind: 'space', text: '' });
    } else if (QUOTES.has(c)) tokens.push({ kind: 'quote', text: '' });
    else if (c === 58 || c === 61) tokens.push({ kind: 'sep', text: '' }); // : =
    else tokens.push({ kind: 'other', text: '' });
    i = j;
  }
  return tokens;
}

/** A cursor over the tokens; every method looks at one token. */
class Cursor {
  constructor(
    private readonly tokens: Token[],
    public at: number,
    private readonly w: WorkCounter,
  ) {}
  private peek(): Token | undefined {
    this.w.steps++;
    return this.tokens[this.at];
  }
  /** Skips one token of this kind if it is next; always succeeds. */
  opt(kind: TokenKind): true {
    if (this.peek()?.kind === kind) this.at++;
    return true;
  }
  is(kind: TokenKind): boolean {
    if (this.peek()?.kind !== kind) return false;
    this.at++;
    return true;
  }
  /** The next token is exactly one of these words. */
  word(...words: string[]): boolean {
    const t = this.peek();
    if (t?.kind !== 'word' || !words.includes(t.text)) return false;
    this.at++;
    return true;
  }
  /** Consumes `word` (then optional whitespace) when it is next; always succeeds. */
  optWord(word: string, space: 'optional' | 'required'): true {
    const save = this.at;
    if (this.word(word) && (space === 'optional' ? this.opt('space') : this.is('space'))) return true;
    this.at = save;
    return true;
  }
  /** A word that ends in `word` followed by a non-word-character boundary (`required.` counts). */
  wordBoundary(word: string): boolean {
    const t = this.peek();
    if (t?.kind !== 'word' || !t.text.startsWith(word)) return false;
    const next = t.text.charCodeAt(word.length);
    if (t.text.length !== word.length && next !== 46 && next !== 45) return false;
    this.at++;
    return true;
  }
  /** A scope name: a word starting with a letter, taken whole. */
  name(): string | undefined {
    const t = this.peek();
    if (t?.kind !== 'word' || !isAsciiLetter(t.text.charCodeAt(0))) return undefined;
    this.at++;
    return t.text;
  }
  /** none, read or write, as the leading part of a word (`write.` and `read-only` count as themselves). */
  level(): string | undefined {
    const t = this.peek();
    if (t?.kind !== 'word') return undefined;
    for (const level of ['none', 'read', 'write']) {
      if (!t.text.startsWith(level)) continue;
      const next = t.text.charCodeAt(level.length);
      if (t.text.length === level.length || next === 46 || next === 45) {
        this.at++;
        return level;
      }
    }
    return undefined;
  }
}

type Pattern = (c: Cursor) => string | undefined;

// Several phrasings are accepted because the exact wording is not part of the contract: the spec only
// says the message "names the scope, the required level and the granted level". Patterns are tried in
// order; each one finds its leftmost match in the whole message before the next is tried.
const SCOPE_PATTERNS: Pattern[] = [
  // scope 'image' / scope: image / scope=chat
  (c) => (c.word('scope') && c.opt('space') && c.opt('sep') && c.opt('space') && c.opt('quote') ? c.name() : undefined),
  // the 'chat' scope
  (c) => {
    const name = c.name();
    return name !== undefined && c.opt('quote') && c.is('space') && c.wordBoundary('scope') ? name : undefined;
  },
  // write access to chat
  (c) => (c.word('access', 'permission') && c.is('space') && c.word('to', 'on', 'for') && c.is('space') && c.opt('quote') ? c.name() : undefined),
];
const REQUIRED_PATTERNS: Pattern[] = [
  // requires write / required: write / required level is write / requires at least write
  (c) =>
    c.word('require', 'requires', 'required') &&
    c.opt('space') &&
    c.optWord('level', 'optional') &&
    c.optWord('is', 'required') &&
    c.opt('sep') &&
    c.opt('space') &&
    atLeast(c) &&
    c.opt('quote')
      ? c.level()
      : undefined,
  // needs write
  (c) => (c.word('need', 'needs') && c.opt('space') && c.optWord('level', 'optional') && c.opt('sep') && c.opt('space') && c.opt('quote') ? c.level() : undefined),
  // lacks write access
  (c) => (c.word('lack', 'lacks') && c.is('space') && c.opt('quote') ? c.level() : undefined),
  // write required / write is required
  (c) => {
    const level = c.level();
    return level !== undefined && c.opt('quote') && c.is('space') && c.optWord('is', 'required') && c.wordBoundary('required') ? level : undefined;
  },
];
const GRANTED_PATTERNS: Pattern[] = [
  // key has none / granted: read / has only read / granted level is none
  (c) =>
    c.word('granted', 'has', 'have', 'current', 'actual', 'got') &&
    c.opt('space') &&
    (c.optWord('level', 'optional'), c.optWord('only', 'optional')) &&
    c.optWord('is', 'required') &&
    c.opt('sep') &&
    c.opt('space') &&
    c.opt('quote')
      ? c.level()
      : undefined,
  // read granted / read is granted
  (c) => {
    const level = c.level();
    return level !== undefined && c.opt('quote') && c.is('space') && c.optWord('is', 'required') && c.wordBoundary('granted') ? level : undefined;
  },
];

/** Optional "at least " before a level. */
function atLeast(c: Cursor): true {
  const save = c.at;
  if (!(c.word('at') && c.is('space') && c.word('least') && c.is('space'))) c.at = save;
  return true;
}

function firstMatch(patterns: Pattern[], tokens: Token[], w: WorkCounter): string | undefined {
  for (const pattern of patterns) {
    for (let start = 0; start < tokens.length; start++) {
      const found = pattern(new Cursor(tokens, start, w));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * Extracts scope, required and granted levels from a 403 permission_error message, e.g.
 * "insufficient permission: scope 'image' requires write, key has none". Each part is independent:
 * whatever cannot be found is left undefined rather than guessed. Only the first
 * MAX_PERMISSION_MESSAGE_CHARS characters are read.
 */
export function parsePermissionMessage(message: string, work?: WorkCounter): PermissionDetail {
  const w = work ?? { steps: 0 };
  const tokens = tokenize(message.length > MAX_PERMISSION_MESSAGE_CHARS ? message.slice(0, MAX_PERMISSION_MESSAGE_CHARS) : message, w);
  const detail: PermissionDetail = {};
  const scope = firstMatch(SCOPE_PATTERNS, tokens, w);
  if (scope !== undefined && scope !== 'none' && scope !== 'read' && scope !== 'write') detail.scope = scope;
  const required = firstMatch(REQUIRED_PATTERNS, tokens, w);
  if (required !== undefined) detail.required = required;
  const granted = firstMatch(GRANTED_PATTERNS, tokens, w);
  if (granted !== undefined) detail.granted = granted;
  return detail;
}

/**
 * Retry-After as milliseconds: delta-seconds (decimals tolerated) or an HTTP-date relative to `nowMs`.
 * Undefined when absent or unreadable; a date in the past gives 0.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === '') return undefined;
  if (/^\d+(?:\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  if (!/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

const STATUS_TEXT: Record<number, string> = {
  400: 'The gateway rejected the request as invalid',
  401: 'The API key is missing, invalid or revoked',
  403: 'The API key is not allowed to do this',
  404: 'Not found on the gateway',
  405: 'Method not allowed on this gateway route',
  429: 'The gateway is throttling requests; try again shortly',
  503: 'The gateway is temporarily unavailable; try again shortly',
};

function reasonFor(status: number, type: string | undefined): GatewayErrorReason {
  switch (status) {
    case 400:
      return 'invalid_request';
    case 401:
      return 'authentication';
    case 403:
      switch (type) {
        case 'entitlement_required':
          return 'entitlement_required';
        case 'account_required':
          return 'account_required';
        case 'content_policy_violation':
          return 'content_policy';
        default:
          // permission_error, and any 403 whose type we do not know: it is still a refusal of access.
          return 'permission';
      }
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 429:
      return 'throttled';
    case 503:
      return 'unavailable';
    default:
      return 'server';
  }
}

export interface ResponseErrorInput {
  status: number;
  /** X-Request-ID header, when present: preferred over the envelope's request_id. */
  headerRequestId: string | undefined;
  retryAfterMs: number | undefined;
  /** The body text, or undefined when it was deliberately not read (429). */
  bodyText: string | undefined;
  /** The network layer's error-body limit (SizeLimits.maxErrorBodyBytes) when it is not the default. */
  maxBodyChars?: number;
  /** Secrets to strip from any server-provided text, in addition to the generic patterns. */
  knownSecrets?: readonly string[];
  /** Counts the scanning work (tests only): it stays proportional to the capped text. */
  work?: WorkCounter;
}

/** Builds the GatewayError for a non-2xx response. */
export function errorFromResponse(input: ResponseErrorInput): GatewayError {
  const { status } = input;
  // 429 comes from the load balancer with an HTML page: never parse it (G-ERR-3).
  const envelope = status === 429 || input.bodyText === undefined ? undefined : parseErrorEnvelope(input.bodyText, input.maxBodyChars);
  const reason = reasonFor(status, envelope?.type);
  // Cut before redacting: both the redaction and the permission parse then read a bounded text.
  const serverMessage = envelope?.message ? redactSecrets(capText(envelope.message), input.knownSecrets, input.work) : undefined;
  const message = serverMessage ?? STATUS_TEXT[status] ?? `The gateway answered with HTTP ${status}`;
  return new GatewayError({
    reason,
    message,
    status,
    type: envelope?.type,
    requestId: input.headerRequestId || envelope?.request_id || undefined,
    permission: reason === 'permission' && serverMessage !== undefined ? parsePermissionMessage(serverMessage, input.work) : undefined,
    retryAfterMs: input.retryAfterMs,
    envelope: envelope !== undefined,
  });
}

/**
 * Transport failures that prove the request never left this machine, so no server can have acted on
 * it: nobody accepted the connection, the name did not resolve, the connect (TCP + TLS handshake)
 * timed out, or TLS failed during the handshake, before any byte of the request was written. Every
 * other failure without a response (a reset, "other side closed", a socket error after the body was
 * written) is ambiguous: the server may have read the whole request.
 */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NODATA',
  'EAI_NONAME',
  'EAI_FAIL',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
  'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
  'ERR_TLS_HANDSHAKE_TIMEOUT',
  // The proxy did not open the tunnel (proxyAuth.ts): nothing went to the target.
  PROXY_AUTH_ERROR_CODE,
  PROXY_REFUSED_ERROR_CODE,
]);

/** True when the transport error code proves the request was never written to a socket. */
export function isNotSentCode(code: string | undefined): boolean {
  return code !== undefined && (NOT_SENT_CODES.has(code) || isCertificateErrorCode(code));
}

interface ErrorWithCode {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

function codeOf(err: unknown): string | undefined {
  let e: unknown = err;
  // undici wraps some failures (fetch) in a TypeError whose cause carries the code.
  for (let depth = 0; depth < 3 && typeof e === 'object' && e !== null; depth++) {
    const code = (e as ErrorWithCode).code;
    if (typeof code === 'string') return code;
    e = (e as ErrorWithCode).cause;
  }
  return undefined;
}

/**
 * A connection that failed before anything was sent because of its certificate or the proxy: the code
 * (found anywhere in the chain: undici wraps a tunnel's TLS failure and fetch wraps everything) and
 * the words that say what fixes it. `who` is "the gateway" or "the hosting API".
 */
export function connectProblem(err: unknown, who: string, addressSetting: string): { code: string; message: string } | undefined {
  const cert = findErrorCode(err, isCertificateErrorCode);
  if (cert !== undefined) return { code: cert, message: certificateMessage(cert, who, addressSetting) };
  const proxy = findErrorCode(err, (c) => c === PROXY_AUTH_ERROR_CODE || c === PROXY_REFUSED_ERROR_CODE);
  // proxyAuth.ts words it: the proxy by its origin, never a credential.
  if (proxy !== undefined) return { code: proxy, message: findErrorMessage(err, proxy) ?? 'The proxy refused to open a connection' };
  return undefined;
}

/** The message of the error in the chain that carries `code`. */
function findErrorMessage(err: unknown, code: string): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 6 && typeof e === 'object' && e !== null; depth++) {
    const o = e as ErrorWithCode;
    if (o.code === code && typeof o.message === 'string') return o.message;
    e = o.cause;
  }
  return undefined;
}

export interface TransportErrorContext {
  /** The caller's signal: when it fired, any failure is an abort. */
  signal?: AbortSignal;
  requestId?: string;
  partial?: boolean;
  status?: number;
}

/**
 * Classifies a failure thrown by undici (or by reading a body). Aborts win over anything else, so
 * a cancel never shows up as a network error.
 */
export function errorFromTransport(err: unknown, ctx: TransportErrorContext = {}): GatewayError {
  if (err instanceof GatewayError) return err;
  const base: Pick<GatewayErrorInit, 'requestId' | 'partial' | 'status' | 'cause' | 'mayHaveReachedServer'> = { requestId: ctx.requestId, partial: ctx.partial, status: ctx.status, cause: err };
  if (ctx.signal?.aborted) {
    return new GatewayError({ ...base, reason: 'aborted', message: 'The request was cancelled' });
  }
  const problem = connectProblem(err, 'the gateway', 'aiGateway.baseUrl');
  const code = problem?.code ?? codeOf(err);
  base.mayHaveReachedServer = ctx.partial || ctx.status !== undefined ? true : !isNotSentCode(code);
  if (problem) return new GatewayError({ ...base, code, reason: 'network', message: problem.message });
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new GatewayError({ ...base, reason: 'timeout', timeoutPhase: 'connect', message: 'Timed out connecting to the gateway' });
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new GatewayError({ ...base, reason: 'timeout', timeoutPhase: 'firstByte', message: 'The gateway did not start answering in time' });
    case 'UND_ERR_BODY_TIMEOUT':
      return new GatewayError({ ...base, reason: 'timeout', timeoutPhase: 'idle', message: 'The gateway stopped sending data (idle timeout)' });
    case 'UND_ERR_ABORTED':
    case 'ABORT_ERR':
      return new GatewayError({ ...base, reason: 'aborted', message: 'The request was cancelled' });
    default: {
      const name = err instanceof Error ? err.name : '';
      if (name === 'AbortError') return new GatewayError({ ...base, reason: 'aborted', message: 'The request was cancelled' });
      const detail = code ? ` (${code})` : '';
      const message = ctx.partial
        ? `The connection to the gateway broke during the response${detail}`
        : base.mayHaveReachedServer
          ? `The connection to the gateway broke before the response${detail}`
          : `Could not reach the gateway${detail}`;
      return new GatewayError({ ...base, code, reason: 'network', message });
    }
  }
}

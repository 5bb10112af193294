/**
 * The logging contract core code writes to. The editor layer implements it with one
 * `LogOutputChannel` ("AI Gateway"); tests implement it with an array.
 *
 * Invariant: callers pass already-redacted values. `redactSecrets` is the one place that knows what a
 * secret looks like; every log line from the HTTP client goes through it.
 */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const nullLogger: Logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
};

// Gateway keys start with svc_ (Account) or svc_pat_ (User); bearer tokens and JWTs are caught too.
const SECRET_PATTERNS: RegExp[] = [
  /\bsvc_(?:pat_)?[A-Za-z0-9_-]{4,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]+/gi,
  /\bBasic\s+[A-Za-z0-9+/=]{6,}/gi,
  /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g,
];

/** Replaces anything that looks like a credential, plus any explicitly known secrets, with a mask. */
export function redactSecrets(text: string, knownSecrets: readonly string[] = []): string {
  let out = text;
  for (const secret of knownSecrets) {
    if (secret.length >= 4) out = out.split(secret).join('«redacted»');
  }
  for (const re of SECRET_PATTERNS) out = out.replace(re, (m) => (/^bearer|^basic/i.test(m) ? `${m.split(/\s+/)[0]} «redacted»` : '«redacted»'));
  return out;
}

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

// What a credential looks like in text. Gateway keys start with svc_ (Account) or svc_pat_ (User)
// and are matched wherever they appear (after `_`, inside URL-encoded text, with any symbols in the
// body) up to a delimiter; bearer and basic credentials, JWTs, URL userinfo and secret-looking query
// parameters are caught too. Over-masking a log line is cheap; leaking a key is not.
const SECRET_PATTERNS: Array<[RegExp, (m: string, ...groups: string[]) => string]> = [
  [/svc_(?:pat_)?[^\s"'`<>&,;)\]}]{4,}/g, () => MASK],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=%-]+/gi, (_m, scheme) => `${scheme} ${MASK}`],
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, () => MASK],
  [/(\/\/)[^/\s:@]+:[^@\s/]+@/g, (_m, slashes) => `${slashes}${MASK}@`],
  [/\b((?:access_|api_|id_|refresh_)?(?:token|key|secret|password|passwd|apikey))=[^&\s"']+/gi, (_m, name) => `${name}=${MASK}`],
];

const MASK = '«redacted»';

/** Replaces anything that looks like a credential, plus any explicitly known secrets, with a mask. */
export function redactSecrets(text: string, knownSecrets: readonly string[] = []): string {
  let out = text;
  for (const secret of knownSecrets) {
    if (secret.length >= 4) out = out.split(secret).join(MASK);
  }
  for (const [re, replace] of SECRET_PATTERNS) out = out.replace(re, replace as (m: string, ...rest: string[]) => string);
  return out;
}

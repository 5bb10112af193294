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

/**
 * Counts units of work (characters examined) so tests can prove a scanner is linear without a clock.
 * Production callers pass nothing.
 */
export interface WorkCounter {
  steps: number;
}

/**
 * The most characters of server-supplied text (error messages, bodies, log lines) that are kept.
 * Longer text is cut (see capText) before it is parsed, redacted, shown or logged, so one hostile
 * answer cannot make any of that work unbounded. 8 K characters is far more than any real error
 * message or log line.
 */
export const MAX_SERVER_TEXT_CHARS = 8 * 1024;

/**
 * The most characters of one log message (a line, an exception message or a stack). Log lines carry
 * server text (error messages, request ids, tool output at trace level); 16 K characters keeps every
 * real line whole.
 */
export const MAX_LOG_MESSAGE_CHARS = 16 * 1024;

/**
 * When a cut would fall inside a word, it moves back to the last whitespace within this many
 * characters, so a credential is never cut into a piece too short for redactSecrets to recognise.
 */
const CUT_LOOKBACK_CHARS = 1024;

/**
 * `text` if it has at most `max` characters, else its beginning followed by a marker saying how many
 * characters were left out. The cut prefers whitespace (see CUT_LOOKBACK_CHARS) and never splits a
 * surrogate pair. Cut first, then redact: the work of both is then bounded by `max`.
 */
export function capText(text: string, max: number = MAX_SERVER_TEXT_CHARS): string {
  if (text.length <= max) return text;
  let cut = max;
  for (let i = max; i > 0 && i >= max - CUT_LOOKBACK_CHARS; i--) {
    if (isSpaceCode(text.charCodeAt(i))) {
      cut = i;
      break;
    }
  }
  const c = text.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut--;
  return `${text.slice(0, cut)}… [${text.length - cut} more characters not shown]`;
}

/**
 * What the log channel writes for one argument: strings, and an Error's message and stack, are cut to
 * MAX_LOG_MESSAGE_CHARS and then redacted; anything else passes through.
 */
export function redactLogArg(arg: unknown): unknown {
  const clean = (text: string): string => redactSecrets(capText(text, MAX_LOG_MESSAGE_CHARS));
  if (typeof arg === 'string') return clean(arg);
  if (arg instanceof Error) {
    const copy = new Error(clean(arg.message));
    copy.name = arg.name;
    copy.stack = arg.stack === undefined ? undefined : clean(arg.stack);
    return copy;
  }
  return arg;
}

const MASK = '«redacted»';

// What a credential looks like in text. Gateway keys start with svc_ (Account) or svc_pat_ (User) and
// are matched wherever they appear (after `_`, inside URL-encoded text, with any symbols in the body)
// up to a delimiter; bearer and basic credentials, JWTs, URL userinfo and secret-looking query
// parameters are caught too. Over-masking a log line is cheap; leaking a key is not.
//
// Each form is a hand-written scanner rather than a regular expression: redaction runs on server text
// and a backtracking regex on it can take quadratic time (`-eyJ-eyJ…` did). Every scanner visits each
// character a bounded number of times (the WorkCounter proves it in the property tests). The forms
// run one after another, each on the previous one's output, with the semantics the regexes had:
//   svc_(?:pat_)?[^\s"'`<>&,;)\]}]{4,}                                          -> «redacted»
//   \b(Bearer|Basic)\s+[A-Za-z0-9._~+/=%-]+  (any case)                          -> $1 «redacted»
//   \beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*                           -> «redacted»
//   (//)[^/\s:@]+:[^@\s/]+@                                                     -> //«redacted»@
//   \b((?:access_|api_|id_|refresh_)?(?:token|key|secret|password|passwd|apikey))=[^&\s"']+  (any case)
//                                                                               -> $1=«redacted»

/** Replaces anything that looks like a credential, plus any explicitly known secrets, with a mask. */
export function redactSecrets(text: string, knownSecrets: readonly string[] = [], work?: WorkCounter): string {
  let out = text;
  for (const secret of knownSecrets) {
    // split/indexOf cost at most length x secret length; secrets are our own short keys.
    if (secret.length >= 4) {
      if (work) work.steps += out.length;
      out = out.split(secret).join(MASK);
    }
  }
  const w = work ?? { steps: 0 };
  out = maskGatewayKeys(out, w);
  out = maskAuthSchemes(out, w);
  out = maskJwts(out, w);
  out = maskUserinfo(out, w);
  out = maskSecretParams(out, w);
  return out;
}

/** True for the characters JavaScript's `\s` matches. */
export function isSpaceCode(c: number): boolean {
  return (
    (c >= 9 && c <= 13) ||
    c === 32 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** `\b` before position i, given that text[i] is a word character. */
function wordStart(text: string, i: number): boolean {
  return i === 0 || !isWordChar(text.charCodeAt(i - 1));
}

/** Case-insensitive ASCII comparison of text at i with a lower-case word. */
function hasAt(text: string, i: number, lower: string, w: WorkCounter): boolean {
  if (i + lower.length > text.length) return false;
  for (let k = 0; k < lower.length; k++) {
    w.steps++;
    const c = text.charCodeAt(i + k);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== lower.charCodeAt(k)) return false;
  }
  return true;
}

/** End of the run starting at i of characters satisfying `ok`. */
function runEnd(text: string, i: number, ok: (c: number) => boolean, w: WorkCounter): number {
  let j = i;
  while (j < text.length && ok(text.charCodeAt(j))) {
    w.steps++;
    j++;
  }
  return j;
}

const KEY_DELIMITERS = new Set([...' "\'`<>&,;)]}'].map((c) => c.charCodeAt(0)));
const keyBody = (c: number): boolean => !isSpaceCode(c) && !KEY_DELIMITERS.has(c);

/** text.indexOf(needle, from), counting the characters the search passes over. */
function find(text: string, needle: string, from: number, w: WorkCounter): number {
  const at = text.indexOf(needle, from);
  w.steps += (at === -1 ? text.length : at + needle.length) - from + 1;
  return at;
}

function maskGatewayKeys(text: string, w: WorkCounter): string {
  let out = '';
  let from = 0;
  let i = find(text, 'svc_', 0, w);
  while (i !== -1) {
    // `pat_` is itself made of key-body characters, so the optional prefix changes nothing here.
    const end = runEnd(text, i + 4, keyBody, w);
    if (end - (i + 4) >= 4) {
      out += text.slice(from, i) + MASK;
      from = end;
      i = find(text, 'svc_', end, w);
    } else {
      i = find(text, 'svc_', i + 1, w);
    }
  }
  return out + text.slice(from);
}

const AUTH_SYMBOLS = new Set([...'._~+/=%-'].map((c) => c.charCodeAt(0)));
const authToken = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || AUTH_SYMBOLS.has(c);

function maskAuthSchemes(text: string, w: WorkCounter): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    w.steps++;
    const c = text.charCodeAt(i) | 0x20;
    if ((c !== 0x62 /* b */) || !wordStart(text, i)) continue;
    const len = hasAt(text, i, 'bearer', w) ? 6 : hasAt(text, i, 'basic', w) ? 5 : 0;
    if (len === 0) continue;
    const spaceEnd = runEnd(text, i + len, isSpaceCode, w);
    if (spaceEnd === i + len) continue;
    const end = runEnd(text, spaceEnd, authToken, w);
    if (end === spaceEnd) {
      i = spaceEnd - 1; // nothing in the whitespace run can start another match
      continue;
    }
    out += text.slice(from, i) + text.slice(i, i + len) + ' ' + MASK;
    from = end;
    i = end - 1;
  }
  return out + text.slice(from);
}

const jwtChar = (c: number): boolean => isWordChar(c) || c === 45; /* - */

function maskJwts(text: string, w: WorkCounter): string {
  // A JWT is found from the maximal run of token characters holding its first part: the leftmost
  // `eyJ` at a word boundary in that run with at least one character after it, then `.`, a non-empty
  // run, `.`, and a possibly empty run. Runs are visited once each as the scan moves forward.
  let out = '';
  let from = 0;
  let i = 0;
  while (i < text.length) {
    w.steps++;
    if (!jwtChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const runStart = i;
    const runStop = runEnd(text, i, jwtChar, w);
    let start = -1;
    for (let p = runStart; p + 3 < runStop; p++) {
      w.steps++;
      if (text.charCodeAt(p) === 0x65 && text.startsWith('yJ', p + 1) && wordStart(text, p)) {
        start = p;
        break;
      }
    }
    if (start !== -1 && text.charCodeAt(runStop) === 0x2e) {
      const second = runEnd(text, runStop + 1, jwtChar, w);
      if (second > runStop + 1 && text.charCodeAt(second) === 0x2e) {
        const third = runEnd(text, second + 1, jwtChar, w);
        out += text.slice(from, start) + MASK;
        from = third;
        i = third;
        continue;
      }
    }
    i = runStop;
  }
  return out + text.slice(from);
}

const userChar = (c: number): boolean => c !== 0x2f && c !== 0x3a && c !== 0x40 && !isSpaceCode(c); // not / : @
const passChar = (c: number): boolean => c !== 0x2f && c !== 0x40 && !isSpaceCode(c); // not / @

function maskUserinfo(text: string, w: WorkCounter): string {
  let out = '';
  let from = 0;
  let i = find(text, '//', 0, w);
  while (i !== -1) {
    const userEnd = runEnd(text, i + 2, userChar, w);
    if (userEnd > i + 2 && text.charCodeAt(userEnd) === 0x3a) {
      const passEnd = runEnd(text, userEnd + 1, passChar, w);
      if (passEnd > userEnd + 1 && text.charCodeAt(passEnd) === 0x40) {
        out += text.slice(from, i) + '//' + MASK + '@';
        from = passEnd + 1;
        i = find(text, '//', from, w);
        continue;
      }
    }
    // The runs just read hold no '/', so the search below passes over them at most once more.
    i = find(text, '//', i + 1, w);
  }
  return out + text.slice(from);
}

const PARAM_PREFIXES = ['access_', 'api_', 'id_', 'refresh_'];
const PARAM_NAMES = ['token', 'key', 'secret', 'password', 'passwd', 'apikey'];
const paramValue = (c: number): boolean => c !== 0x26 && c !== 0x22 && c !== 0x27 && !isSpaceCode(c); // not & " '

/** Length of `(prefix)?(name)=` at i, or 0. */
function paramNameAt(text: string, i: number, w: WorkCounter): number {
  for (const prefix of [...PARAM_PREFIXES, '']) {
    if (prefix && !hasAt(text, i, prefix, w)) continue;
    for (const name of PARAM_NAMES) {
      const at = i + prefix.length;
      if (hasAt(text, at, name, w) && text.charCodeAt(at + name.length) === 0x3d) return prefix.length + name.length;
    }
  }
  return 0;
}

function maskSecretParams(text: string, w: WorkCounter): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    w.steps++;
    if (!isWordChar(text.charCodeAt(i)) || !wordStart(text, i)) continue;
    const nameLen = paramNameAt(text, i, w);
    if (nameLen === 0) continue;
    const valueStart = i + nameLen + 1;
    const end = runEnd(text, valueStart, paramValue, w);
    if (end === valueStart) continue;
    out += text.slice(from, i) + text.slice(i, i + nameLen) + '=' + MASK;
    from = end;
    i = end - 1;
  }
  return out + text.slice(from);
}

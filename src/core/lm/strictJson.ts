/**
 * A strict JSON reader for bodies the MCP relay forwards (I-JSON, RFC 7493, on RFC 8259): what it
 * accepts, every JSON parser reads the same way, so the relay and the gateway cannot disagree about a
 * message. Refused: bytes that are not UTF-8, a byte-order mark, duplicate member names, lone
 * surrogates (raw or escaped), numbers that do not survive as a double (non-finite, or integers past
 * 2^53 that a double does not hold as written), nesting deeper than MAX_DEPTH, and anything after
 * the value but whitespace.
 *
 * Linear in the input: each character is looked at a bounded number of times. Member names such as
 * `__proto__` become own properties, as with JSON.parse.
 */

export const MAX_DEPTH = 128;

export type StrictJsonRead = { ok: true; value: unknown } | { ok: false; problem: string };

class Refused extends Error {}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes and parses `bytes`; never throws. */
export function parseStrictJsonBytes(bytes: Uint8Array): StrictJsonRead {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, problem: 'the body is not valid UTF-8' };
  }
  return parseStrictJson(text);
}

/** Parses `text` strictly; never throws. */
export function parseStrictJson(text: string): StrictJsonRead {
  let i = 0;
  const n = text.length;
  const fail = (what: string): never => {
    throw new Refused(`${what} at character ${i + 1}`);
  };
  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else break;
    }
  };
  const literal = (word: string, value: unknown): unknown => {
    if (text.startsWith(word, i)) {
      i += word.length;
      return value;
    }
    return fail('unexpected text');
  };
  const hex4 = (): number => {
    if (i + 4 > n) fail('a cut \\u escape');
    let v = 0;
    for (let k = 0; k < 4; k++) {
      const c = text.charCodeAt(i++);
      const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
      if (d < 0) fail('a bad \\u escape');
      v = v * 16 + d;
    }
    return v;
  };
  const string = (): string => {
    i++; // the opening quote
    const parts: string[] = [];
    let start = i;
    for (;;) {
      if (i >= n) fail('an unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        parts.push(text.slice(start, i));
        i++;
        return parts.join('');
      }
      if (c < 0x20) fail('a control character in a string');
      if (c >= 0xd800 && c <= 0xdbff) {
        const next = text.charCodeAt(i + 1);
        if (!(next >= 0xdc00 && next <= 0xdfff)) fail('a lone surrogate');
        i += 2;
        continue;
      }
      if (c >= 0xdc00 && c <= 0xdfff) fail('a lone surrogate');
      if (c !== 0x5c) {
        i++;
        continue;
      }
      parts.push(text.slice(start, i));
      i++;
      const e = text[i++];
      switch (e) {
        case '"': parts.push('"'); break;
        case '\\': parts.push('\\'); break;
        case '/': parts.push('/'); break;
        case 'b': parts.push('\b'); break;
        case 'f': parts.push('\f'); break;
        case 'n': parts.push('\n'); break;
        case 'r': parts.push('\r'); break;
        case 't': parts.push('\t'); break;
        case 'u': {
          const u = hex4();
          if (u >= 0xd800 && u <= 0xdbff) {
            if (text[i] !== '\\' || text[i + 1] !== 'u') fail('a lone surrogate');
            i += 2;
            const low = hex4();
            if (!(low >= 0xdc00 && low <= 0xdfff)) fail('a lone surrogate');
            parts.push(String.fromCharCode(u, low));
          } else if (u >= 0xdc00 && u <= 0xdfff) {
            fail('a lone surrogate');
          } else {
            parts.push(String.fromCharCode(u));
          }
          break;
        }
        default:
          fail('a bad escape');
      }
      start = i;
    }
  };
  const number = (): number => {
    const start = i;
    if (text[i] === '-') i++;
    const digits = (): number => {
      const s = i;
      while (i < n && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
      return i - s;
    };
    if (text[i] === '0') i++;
    else if (digits() === 0) fail('a bad number');
    let integer = true;
    if (text[i] === '.') {
      i++;
      integer = false;
      if (digits() === 0) fail('a bad number');
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      integer = false;
      if (text[i] === '+' || text[i] === '-') i++;
      if (digits() === 0) fail('a bad number');
    }
    const literal = text.slice(start, i);
    const value = Number(literal);
    if (!Number.isFinite(value)) fail('a number too large for a double');
    // An integer past 2^53 that a double does not hold as written would be forwarded as another integer.
    if (integer && !Number.isSafeInteger(value) && String(value) !== literal) fail('an integer a double cannot hold');
    return value;
  };
  const value = (depth: number): unknown => {
    if (depth > MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH}`);
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      const seen = new Set<string>();
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a member name');
        const key = string();
        if (seen.has(key)) fail(`a duplicate member name "${key.slice(0, 40)}"`);
        seen.add(key);
        ws();
        if (text[i++] !== ':') fail("expected ':'");
        Object.defineProperty(obj, key, { value: value(depth + 1), enumerable: true, writable: true, configurable: true });
        ws();
        const d = text[i++];
        if (d === '}') return obj;
        if (d !== ',') fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value(depth + 1));
        ws();
        const d = text[i++];
        if (d === ']') return arr;
        if (d !== ',') fail("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true', true);
    if (c === 'f') return literal('false', false);
    if (c === 'n') return literal('null', null);
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    if (c === '\ufeff') return fail('a byte-order mark');
    return fail(i >= n ? 'the body ends early' : 'unexpected text');
  };
  try {
    const v = value(0);
    ws();
    if (i < n) fail('text after the JSON value');
    return { ok: true, value: v };
  } catch (e) {
    if (e instanceof Refused) return { ok: false, problem: e.message };
    // A stack overflow cannot happen within MAX_DEPTH; anything else is a bug, reported as a refusal.
    return { ok: false, problem: 'the body could not be read' };
  }
}

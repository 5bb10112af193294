/**
 * Property tests for redactSecrets (server text goes through it on every log line and error).
 * - It agrees with the regular expressions it replaced on every input: the hand-written scanners catch
 *   every secret form the regexes caught, and nothing more. The regexes are copied here as the oracle
 *   (they are only slow on long adversarial text; the inputs here are short).
 * - Its counted work is at most a constant per character, also on long repetitions of the fragments
 *   that made the regexes backtrack. Work is counted, never timed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { redactSecrets, type WorkCounter } from '../../../src/core/log';

const RUNS = 10_000;

// The redaction as it was, before the scanners.
const MASK = '«redacted»';
const OLD_PATTERNS: Array<[RegExp, (m: string, ...groups: string[]) => string]> = [
  [/svc_(?:pat_)?[^\s"'`<>&,;)\]}]{4,}/g, () => MASK],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=%-]+/gi, (_m, scheme) => `${scheme} ${MASK}`],
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, () => MASK],
  [/(\/\/)[^/\s:@]+:[^@\s/]+@/g, (_m, slashes) => `${slashes}${MASK}@`],
  [/\b((?:access_|api_|id_|refresh_)?(?:token|key|secret|password|passwd|apikey))=[^&\s"']+/gi, (_m, name) => `${name}=${MASK}`],
];
function oldRedact(text: string, knownSecrets: readonly string[] = []): string {
  let out = text;
  for (const secret of knownSecrets) if (secret.length >= 4) out = out.split(secret).join(MASK);
  for (const [re, replace] of OLD_PATTERNS) out = out.replace(re, replace as (m: string, ...rest: string[]) => string);
  return out;
}

/** Pieces of every secret form, their near-misses and the characters around them. */
const FRAGMENTS = [
  'svc_', 'pat_', 'svc_pat_', 'eyJ', 'eyJhbGc', '.', '-', '_', '//', '/', ':', '@', 'Bearer', 'BASIC', 'basic', ' ', '  ', '\t', '\n', '\u00a0',
  'token', 'Token', 'key', 'secret', 'password', 'passwd', 'apikey', 'access_', 'api_', 'id_', 'refresh_', '=', '&', '"', "'", '`', '<', ')', ']', '}', ',', ';',
  'a', 'Z', '0', '9', 'x', '%2F', '~', '+', '«', 'é', '😀', 'user', 'p4ss', 'host.example',
];
const fragment = fc.constantFrom(...FRAGMENTS);
const hostileText = fc.array(fc.oneof({ weight: 4, arbitrary: fragment }, { weight: 1, arbitrary: fc.string({ maxLength: 4 }) }), { maxLength: 40 }).map((a) => a.join(''));

/** Work per character allowed: the scanners visit each character a bounded number of times. */
const STEPS_PER_CHAR = 32;

function workOf(text: string, knownSecrets: readonly string[] = []): number {
  const w: WorkCounter = { steps: 0 };
  redactSecrets(text, knownSecrets, w);
  return w.steps;
}

test(`redactSecrets masks exactly what the regexes did, on ${RUNS} hostile texts`, () => {
  fc.assert(
    fc.property(hostileText, fc.array(fc.constantFrom('svc_pat_k3y', 'p4ss', 'abc', 'eyJ'), { maxLength: 2 }), (text, secrets) => {
      assert.equal(redactSecrets(text, secrets), oldRedact(text, secrets));
    }),
    { numRuns: RUNS },
  );
});

test(`redactSecrets never throws and never returns a known secret, on ${RUNS} arbitrary strings`, () => {
  const secretArb = fc.string({ unit: fc.constantFrom(...'abcdeXYZ0189_'), minLength: 4, maxLength: 12 }).filter((s) => !MASK.includes(s));
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 80 }), secretArb, fc.string({ unit: 'binary', maxLength: 80 }), (before, secret, after) => {
      const out = redactSecrets(`${before}${secret}${after}`, [secret]);
      assert.ok(!out.includes(secret), out);
    }),
    { numRuns: RUNS },
  );
});

test(`redactSecrets work is linear: at most ${STEPS_PER_CHAR} steps per character on ${RUNS} repeated fragments`, () => {
  fc.assert(
    fc.property(hostileText.filter((t) => t.length > 0), fc.integer({ min: 1, max: 200 }), (unit, times) => {
      const text = unit.repeat(times);
      const steps = workOf(text);
      assert.ok(steps > 0, 'the work counter must count');
      assert.ok(steps <= STEPS_PER_CHAR * (text.length + 1), `${steps} steps for ${text.length} characters of ${JSON.stringify(unit.slice(0, 40))}`);
    }),
    { numRuns: RUNS },
  );
});

test('redactSecrets work on the inputs that were quadratic grows in proportion to their length', () => {
  for (const unit of ['-eyJ', '//a:b', '///', 'Bearer ', 'token=', 'svc_ab', 'eyJa.', 'a.eyJ-']) {
    const small = workOf(unit.repeat(1_000));
    const large = workOf(unit.repeat(32_000));
    // 32 times the input: a linear scanner does about 32 times the work, a quadratic one about 1,000 times.
    assert.ok(large <= small * 33, `${JSON.stringify(unit)}: ${small} -> ${large} steps`);
  }
});

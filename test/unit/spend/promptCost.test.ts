import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PromptCostEstimator, promptCostText, type PromptCostDeps } from '../../../src/core/spend/promptCost';
import * as l10nCore from '../../../src/core/l10n';
import { TokenCounter, type TokenCount } from '../../../src/core/lm/tokenCount';

/** Timers the test fires by hand: nothing depends on wall-clock time. */
function manualTimers(): { setTimer: PromptCostDeps['setTimer']; clearTimer: PromptCostDeps['clearTimer']; fire(): void; pending(): number } {
  const timers = new Map<number, () => void>();
  let next = 0;
  return {
    setTimer: (fn) => {
      timers.set(++next, fn);
      return next;
    },
    clearTimer: (h) => void timers.delete(h as number),
    fire: () => {
      const all = [...timers.values()];
      timers.clear();
      all.forEach((f) => f());
    },
    pending: () => timers.size,
  };
}

const PRICING = { input_per_million: '2', output_per_million: '8', pricing_version: '2025-11-01', unit: 'credits' };

describe('prompt cost while typing', () => {
  function setup(count: (model: string, text: string, signal: AbortSignal) => Promise<TokenCount>, model = { pricing: PRICING, max_output_tokens: 1000 } as { pricing: typeof PRICING; max_output_tokens?: number }) {
    const t = manualTimers();
    const calls: Array<{ text: string; signal: AbortSignal }> = [];
    const est = new PromptCostEstimator({
      count: (m, text, signal) => {
        calls.push({ text, signal });
        return count(m, text, signal);
      },
      model: (id) => (id === 'm' ? model : undefined),
      setTimer: t.setTimer,
      clearTimer: t.clearTimer,
    });
    return { est, t, calls };
  }

  test('a burst of keystrokes makes one count, for the last text; earlier callers get undefined (superseded)', async () => {
    const { est, t, calls } = setup(async (_m, text) => ({ tokens: text.length * 10, source: 'gateway' }));
    const answers = ['h', 'he', 'hel', 'hell', 'hello'].map((x) => est.request('m', x));
    assert.equal(t.pending(), 1, 'one timer, not one per keystroke');
    t.fire();
    const got = await Promise.all(answers);
    assert.deepEqual(calls.map((c) => c.text), ['hello']);
    assert.deepEqual(got.slice(0, 4), [undefined, undefined, undefined, undefined]);
    // 50 tokens x 2 credits / 1e6 = 0.0001 credits = 100,000 nano; 1,000 x 8 / 1e6 = 0.008 credits.
    assert.deepEqual(got[4], { model: 'm', inputTokens: 50, inputNano: 100_000n, maxOutputNano: 8_000_000n, upToNano: 8_100_000n, counted: true });
  });

  test('a count under way is aborted when a newer text supersedes it', async () => {
    let release: (v: TokenCount) => void = () => undefined;
    const { est, t, calls } = setup((_m, text) => (text === 'first' ? new Promise((r) => (release = r)) : Promise.resolve({ tokens: 7, source: 'gateway' })));
    const first = est.request('m', 'first');
    t.fire();
    assert.equal(calls.length, 1);
    assert.equal(calls[0].signal.aborted, false);
    const second = est.request('m', 'second');
    assert.equal(calls[0].signal.aborted, true, 'the superseded count is aborted');
    assert.equal(await first, undefined);
    release({ tokens: 99, source: 'gateway' }); // arrives late: ignored
    t.fire();
    assert.equal((await second)?.inputTokens, 7);
  });

  test('cached by model and text: the same text again answers without a timer or a count; another model counts again', async () => {
    const { est, t, calls } = setup(async () => ({ tokens: 12, source: 'gateway' }));
    const a = est.request('m', 'same text');
    t.fire();
    assert.equal((await a)?.inputTokens, 12);
    assert.equal((await est.request('m', 'same text'))?.inputTokens, 12);
    assert.equal(t.pending(), 0);
    assert.equal(calls.length, 1);
    const other = est.request('other', 'same text');
    assert.equal(t.pending(), 1, 'another model is another cache entry');
    t.fire();
    assert.equal(await other, undefined, 'no rates for the other model');
    assert.equal(calls.length, 2);
  });

  test('a local estimate is labelled (counted: false), not cached, and the exact count replaces it later', async () => {
    let source: TokenCount['source'] = 'estimate';
    const { est, t, calls } = setup(async () => ({ tokens: source === 'gateway' ? 40 : 30, source }));
    const a = est.request('m', 'a prompt');
    t.fire();
    assert.deepEqual({ counted: (await a)?.counted, tokens: (await a)?.inputTokens }, { counted: false, tokens: 30 });
    source = 'gateway';
    const b = est.request('m', 'a prompt');
    t.fire();
    assert.deepEqual({ counted: (await b)?.counted, tokens: (await b)?.inputTokens }, { counted: true, tokens: 40 });
    assert.equal(calls.length, 2);
  });

  test('no max_output_tokens: the input cost only; an empty text asks nothing', async () => {
    const { est, t, calls } = setup(async () => ({ tokens: 500_000, source: 'gateway' }), { pricing: PRICING });
    assert.equal(await est.request('m', '   '), undefined);
    const a = est.request('m', 'x');
    t.fire();
    // 500,000 x 2 / 1e6 = 1 credit.
    assert.deepEqual(await a, { model: 'm', inputTokens: 500_000, inputNano: 1_000_000_000n, upToNano: 1_000_000_000n, counted: true });
    assert.equal(calls.length, 1);
  });
});

describe('TokenCounter reports where a count came from', () => {
  const long = 'word '.repeat(100);

  test('gateway when count_tokens answered (and from its cache), estimate when the route is missing or the text is short', async () => {
    let posts = 0;
    const ok = new TokenCounter({ post: async () => (posts++, { input_tokens: 123 }), isUnsupported: () => false });
    assert.deepEqual(await ok.countWithSource('m', long), { tokens: 123, source: 'gateway' });
    assert.deepEqual(await ok.countWithSource('m', long), { tokens: 123, source: 'gateway' });
    assert.equal(posts, 1);
    assert.deepEqual(await ok.countWithSource('m', 'short'), { tokens: 2, source: 'estimate' });
    assert.deepEqual(await ok.countWithSource('m', 'short', undefined, 1), { tokens: 123, source: 'gateway' }, 'a debouncing caller may count short texts');
    const missing = new TokenCounter({
      post: async () => {
        throw Object.assign(new Error('404'), { status: 404 });
      },
      isUnsupported: (e) => (e as { status?: number }).status === 404,
    });
    assert.deepEqual(await missing.countWithSource('m', long), { tokens: 125, source: 'estimate' });
    assert.equal(await missing.count('m', long), 125);
  });
});

test('the chat\'s prompt cost line is in the display language (Spanish newcomer pass: "Prompt … créditos, at most … with the reply" was half English)', (t) => {
  l10nCore.configure({ bundle: JSON.parse(readFileSync('l10n/bundle.l10n.es.json', 'utf8')) as Record<string, string>, locale: 'es' });
  t.after(() => l10nCore.configure({}));
  const c = { inputTokens: 2500, inputNano: 2_500_000n, maxOutputNano: 164_340_000n, upToNano: 166_840_000n, counted: false };
  assert.equal(promptCostText(c), 'Prompt: 0,0025 créditos, como máximo 0,16684 créditos con la respuesta (estimación)');
  assert.equal(promptCostText({ inputTokens: 1, inputNano: 1_000n, upToNano: 1_000n, counted: true }), 'Prompt: 0,000001 créditos');
});

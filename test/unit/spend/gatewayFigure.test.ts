import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayFigurePoller, GATEWAY_POLL_MIN_MS } from '../../../src/core/spend/gatewayFigure';
import { checkBudget, guardedSpend } from '../../../src/core/spend/budget';

describe("the budget status bar's gateway figure", () => {
  function setup(startIso = '2026-11-24T10:00:00Z') {
    let now = Date.parse(startIso);
    let available = true;
    let answer: bigint | Error = 42n;
    const asked: Array<[number, number]> = [];
    const poller = new GatewayFigurePoller({
      available: async () => available,
      fetchDay: async (s, e) => {
        asked.push([s, e]);
        if (answer instanceof Error) throw answer;
        return answer;
      },
      now: () => now,
    });
    return {
      poller,
      asked,
      advance: (ms: number) => (now += ms),
      setAvailable: (v: boolean) => (available = v),
      setAnswer: (v: bigint | Error) => (answer = v),
    };
  }

  test('asked at most once a minute however often it is polled; the window is today (UTC) up to now', async () => {
    const s = setup();
    assert.deepEqual(await s.poller.poll(), { dayNano: 42n, asOfMs: Date.parse('2026-11-24T10:00:00Z') });
    for (let i = 0; i < 5; i++) {
      s.advance(10_000); // 10 s .. 50 s later
      await s.poller.poll();
    }
    assert.equal(s.asked.length, 1, 'five polls within the minute asked nothing');
    s.advance(9_999); // 59.999 s after the first
    await s.poller.poll();
    assert.equal(s.asked.length, 1);
    s.advance(1); // exactly 60 s
    s.setAnswer(50n);
    assert.equal((await s.poller.poll())?.dayNano, 50n);
    assert.equal(s.asked.length, 2);
    assert.equal(GATEWAY_POLL_MIN_MS, 60_000);
    // 2026-11-24T00:00:00Z = 1795478400; 10:00:00 = +36,000 s; the second ask at 10:01:00.
    assert.deepEqual(s.asked, [
      [1795478400, 1795514400],
      [1795478400, 1795514460],
    ]);
  });

  test('concurrent polls share one request', async () => {
    const s = setup();
    await Promise.all([s.poller.poll(), s.poller.poll(), s.poller.poll()]);
    assert.equal(s.asked.length, 1);
  });

  test('a failure counts as an attempt (no retry storm) and falls back to the ledger (no figure)', async () => {
    const s = setup();
    s.setAnswer(new Error('503'));
    assert.equal(await s.poller.poll(), undefined);
    s.advance(30_000);
    assert.equal(await s.poller.poll(), undefined);
    assert.equal(s.asked.length, 1);
    s.advance(30_000);
    s.setAnswer(7n);
    assert.equal((await s.poller.poll())?.dayNano, 7n);
  });

  test('without an identity token or project nothing is asked; a figure of yesterday is not shown as today', async () => {
    const s = setup('2026-11-24T23:59:30Z');
    s.setAvailable(false);
    assert.equal(await s.poller.poll(), undefined);
    assert.equal(s.asked.length, 0);
    s.setAvailable(true);
    assert.equal((await s.poller.poll())?.dayNano, 42n);
    s.advance(40_000); // 00:00:10 the next day, within the minute: not asked again, and yesterday's figure is gone
    assert.equal(await s.poller.poll(), undefined);
    assert.equal(s.poller.current(), undefined);
    assert.equal(s.asked.length, 1);
  });

  test('reset (the token changed) lets the next poll ask at once', async () => {
    const s = setup();
    await s.poller.poll();
    s.poller.reset();
    assert.equal(s.poller.current(), undefined);
    await s.poller.poll();
    assert.equal(s.asked.length, 2);
  });
});

describe('the budget guard with the gateway figure', () => {
  test('today is the larger of the ledger and the gateway; the month moves with it; no figure leaves the ledger', () => {
    const ledger = { dayNano: 300n, monthNano: 1_000n };
    assert.deepEqual(guardedSpend(ledger), { dayNano: 300n, monthNano: 1_000n });
    assert.deepEqual(guardedSpend(ledger, 500n), { dayNano: 500n, monthNano: 1_200n });
    assert.deepEqual(guardedSpend(ledger, 100n), { dayNano: 300n, monthNano: 1_000n });
    // A daily budget of 400: the ledger alone is under it, the gateway's figure is over it.
    assert.equal(checkBudget({ dailyNano: 400n }, ledger.dayNano, ledger.monthNano).level, 'ok'); // 75 %
    const g = guardedSpend(ledger, 500n);
    assert.equal(checkBudget({ dailyNano: 400n }, g.dayNano, g.monthNano).level, 'over');
  });
});

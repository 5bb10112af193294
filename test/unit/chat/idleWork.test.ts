/**
 * Work a webview does ahead of need (src/webview/kit/idle.ts; the chat warms its renderer with it):
 * one step per idle period, in order, and it stops for good on `stop()` or on a step that throws.
 * The scheduler is a queue the test drains by hand, so "one step per idle period" is counted, not timed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWhenIdle } from '../../../src/webview/kit/idle';

function manualScheduler(): { schedule: (f: () => void) => void; pending: () => number; runOne: () => void } {
  const queue: Array<() => void> = [];
  return {
    schedule: (f) => void queue.push(f),
    pending: () => queue.length,
    runOne: () => {
      const f = queue.shift();
      assert.ok(f, 'an idle callback was pending');
      f();
    },
  };
}

test('each step runs in its own idle period, in order, and nothing runs before the first one', () => {
  const s = manualScheduler();
  const ran: number[] = [];
  runWhenIdle([0, 1, 2].map((n) => () => void ran.push(n)), () => false, s.schedule);
  assert.deepEqual(ran, [], 'nothing runs synchronously');
  for (let period = 1; period <= 3; period++) {
    assert.equal(s.pending(), 1, 'one idle callback at a time');
    s.runOne();
    assert.deepEqual(ran, [0, 1, 2].slice(0, period));
  }
  s.runOne(); // the period after the last step finds nothing left to do
  assert.equal(s.pending(), 0, 'done: no further idle callback');
});

test('stop() ends the run before the next step, for good', () => {
  const s = manualScheduler();
  const ran: number[] = [];
  let stopped = false;
  runWhenIdle([0, 1, 2].map((n) => () => void ran.push(n)), () => stopped, s.schedule);
  s.runOne();
  stopped = true;
  s.runOne();
  assert.deepEqual(ran, [0]);
  assert.equal(s.pending(), 0);
});

test('a step that throws ends the run quietly: the page carries on', () => {
  const s = manualScheduler();
  const ran: string[] = [];
  runWhenIdle([() => void ran.push('a'), () => { throw new Error('boom'); }, () => void ran.push('c')], () => false, s.schedule);
  s.runOne();
  assert.doesNotThrow(() => s.runOne());
  assert.deepEqual(ran, ['a']);
  assert.equal(s.pending(), 0);
});

/**
 * [#40.9] An Emitter calls every listener and routes each throw to one handler: one broken listener
 * must not leave the others (a status bar, a tree refresh) silently without the event.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter, setUnexpectedErrorHandler } from '../../../src/core/disposables';

function collectingHandler(): { errors: unknown[]; restore: () => void } {
  const errors: unknown[] = [];
  const previous = setUnexpectedErrorHandler((e) => errors.push(e));
  return { errors, restore: () => setUnexpectedErrorHandler(previous) };
}

test('[#40.9] a throwing first listener does not stop the second; the throw goes to the handler, not to fire()', () => {
  const h = collectingHandler();
  try {
    const emitter = new Emitter<number>();
    const boom = new Error('first listener broke');
    const seen: string[] = [];
    emitter.event((v) => {
      seen.push(`first ${v}`);
      throw boom;
    });
    emitter.event((v) => seen.push(`second ${v}`));
    emitter.event((v) => seen.push(`third ${v}`));
    emitter.fire(7);
    assert.deepEqual(seen, ['first 7', 'second 7', 'third 7']);
    assert.deepEqual(h.errors, [boom]);
  } finally {
    h.restore();
  }
});

test('[#40.9] every throw of one fire is reported, each once, in listener order', () => {
  const h = collectingHandler();
  try {
    const emitter = new Emitter<string>();
    emitter.event(() => {
      throw new Error('a');
    });
    emitter.event(() => {
      throw new Error('b');
    });
    emitter.fire('x');
    assert.deepEqual(h.errors.map((e) => (e as Error).message), ['a', 'b']);
  } finally {
    h.restore();
  }
});

test('[#40.9] a throwing handler does not escape fire either, and the default handler is restored', () => {
  const previous = setUnexpectedErrorHandler(() => {
    throw new Error('handler broke');
  });
  try {
    const emitter = new Emitter<void>();
    let second = 0;
    emitter.event(() => {
      throw new Error('listener broke');
    });
    emitter.event(() => second++);
    assert.doesNotThrow(() => emitter.fire());
    assert.equal(second, 1);
  } finally {
    setUnexpectedErrorHandler(previous);
  }
  // The default (console.error) is back: it receives a throw instead of a test's handler.
  const original = console.error;
  const printed: unknown[][] = [];
  console.error = (...args: unknown[]) => void printed.push(args);
  try {
    const emitter = new Emitter<void>();
    emitter.event(() => {
      throw new Error('to the console');
    });
    emitter.fire();
  } finally {
    console.error = original;
  }
  assert.equal(printed.length, 1);
  assert.match(String(printed[0]?.[0]), /to the console/);
});

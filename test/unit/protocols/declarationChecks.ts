/**
 * The checks every declared webview protocol (src/protocol/declare.ts) gets, one direction at a time:
 * the examples (written by hand, one per message, every field present) cover the declaration exactly and
 * pass; each message without one of its fields is refused unless the caller named that field optional;
 * every field of the wrong type is refused; unknown or inherited types are refused, extra fields ignored.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dispatch } from '../../../src/protocol/declare';

/** One example per message of a union, each typed by its own declaration (a missing one does not compile). */
export type Examples<U extends { type: string }> = { [K in U['type']]: Extract<U, { type: K }> };

export interface Direction {
  /** Shown in the test titles, e.g. "chat, webview → host". */
  name: string;
  table: Record<string, unknown>;
  examples: Record<string, Record<string, unknown>>;
  guard: (x: unknown) => boolean;
  /** Message type → the fields that may be left out, written by hand. */
  optional: Record<string, string[]>;
}

export function checkDeclaration({ name, table, examples, guard, optional }: Direction): void {
  test(`[#40.10] ${name}: every declared message has an example here, and every example passes the guard`, () => {
    assert.deepEqual(Object.keys(examples).sort(), Object.keys(table).sort());
    for (const m of Object.values(examples)) assert.equal(guard(m), true, JSON.stringify(m));
  });

  test(`[#40.10] ${name}: a message missing a required field is refused; an optional one may be left out`, () => {
    for (const [type, example] of Object.entries(examples)) {
      for (const field of Object.keys(example).filter((f) => f !== 'type')) {
        const { [field]: _left, ...rest } = example;
        const expected = (optional[type] ?? []).includes(field);
        assert.equal(guard(rest), expected, `${type} without ${field}`);
      }
    }
  });

  test(`[#40.10] ${name}: a field of the wrong type is refused, for every field of every message`, () => {
    for (const [type, example] of Object.entries(examples)) {
      for (const field of Object.keys(example).filter((f) => f !== 'type')) {
        for (const wrong of [{ nested: true }, 'x'.repeat(3), -1.5, true]) {
          // `true` is right for a boolean field and a string is right for a string field: skip those.
          if (typeof wrong === typeof example[field]) continue;
          assert.equal(guard({ ...example, [field]: wrong }), false, `${type}.${field} = ${JSON.stringify(wrong)}`);
        }
      }
    }
  });

  test(`[#40.10] ${name}: an unknown type, an inherited name or no object at all is refused; extra fields are ignored`, () => {
    for (const bad of [null, undefined, 'ready', 7, [], {}, { type: 7 }, { type: 'evalThis' }, { type: 'toString' }, { type: '__proto__' }, { type: 'hasOwnProperty' }, { type: 'constructor' }]) {
      assert.equal(guard(bad), false, JSON.stringify(bad));
    }
    const [first] = Object.values(examples);
    assert.equal(guard({ ...first, extra: 'ignored' }), true);
  });
}

/** A protocol's two directions: page → host (what the host's guard must answer) and host → page. */
export interface Protocol {
  /** e.g. "compare": the titles say "compare, page → host". */
  name: string;
  page: Omit<Direction, 'name'>;
  host: Omit<Direction, 'name'>;
  /** Host messages dispatched, in this order, through a page map of one recording handler per declared type. */
  dispatched?: ReadonlyArray<{ readonly type: string }>;
}

/** The declaration checks both ways, and dispatch reaching the handler of each message's own type. */
export function checkProtocol({ name, page, host, dispatched = [] }: Protocol): void {
  checkDeclaration({ name: `${name}, page → host`, ...page });
  checkDeclaration({ name: `${name}, host → page`, ...host });
  if (dispatched.length === 0) return;
  test(`[#40.10] ${name}: dispatch reaches the handler of the message's own type`, () => {
    const seen: string[] = [];
    // Each handler records its own name and the message it got: a message handed to another handler shows.
    const handlers = Object.fromEntries(Object.keys(host.table).map((type) => [type, (msg: { type: string }) => void seen.push(`${type} <- ${msg.type}`)]));
    for (const m of dispatched) dispatch(handlers as never, m as never);
    assert.deepEqual(seen, dispatched.map((m) => `${m.type} <- ${m.type}`));
  });
}

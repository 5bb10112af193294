/**
 * The per-document debounce behind the alt-text and model-id diagnostics (src/platform/documentDebounce.ts):
 * a burst of changes runs the check once, after the last one; each document has its own timer; a closed
 * document's pending run is dropped; dispose drops them all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PerDocumentDebounce } from '../../../src/platform/documentDebounce';

const doc = (uri: string, version: number) => ({ uri: { toString: () => uri }, version });
const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setTimeout(r, 2));
};

test('a burst of changes runs once per document, with its latest state; cancel and dispose drop pending runs', async () => {
  const ran: string[] = [];
  const d = new PerDocumentDebounce<ReturnType<typeof doc>>(20, (x) => ran.push(`${x.uri.toString()}@${x.version}`));
  for (let v = 1; v <= 5; v++) d.schedule(doc('a.md', v));
  d.schedule(doc('b.md', 1));
  d.schedule(doc('c.md', 1));
  assert.equal(d.pending, 3);
  d.forget({ toString: () => 'c.md' });
  await until(() => d.pending === 0);
  assert.deepEqual(ran.sort(), ['a.md@5', 'b.md@1']);
  d.schedule(doc('a.md', 6));
  d.dispose();
  assert.equal(d.pending, 0);
  await new Promise((r) => setTimeout(r, 40));
  assert.deepEqual(ran.sort(), ['a.md@5', 'b.md@1'], 'nothing runs after dispose');
});

test('a limit note is logged once per document while it holds, again after it stopped holding, and after the document closed', () => {
  const d = new PerDocumentDebounce(10, () => undefined);
  const a = { toString: () => 'a.md' };
  assert.deepEqual([true, true, true].map((x) => d.firstNote(a, x)), [true, false, false]);
  assert.equal(d.firstNote({ toString: () => 'b.md' }, true), true, 'per document');
  assert.equal(d.firstNote(a, false), false);
  assert.equal(d.firstNote(a, true), true, 'held again after it stopped');
  d.forget(a);
  assert.equal(d.firstNote(a, true), true, 'a reopened document is noted again');
});

/**
 * [#31.1] A lazily loaded provider answers about the document as it was asked: a keystroke applied while
 * its code loads makes the answer stale (a completion range measured on the newer text would delete what
 * follows the cursor), and once loaded it answers synchronously, before any later keystroke can land.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { atAskedVersion } from '../../../src/core/modelIds/sameVersion';

describe('[#31.1] provider answers at the asked document version', () => {
  test('a keystroke applied while the code loads: the stale answer, never one measured on the newer text', async () => {
    const doc = { version: 4 };
    const load = async (): Promise<string> => {
      doc.version = 5; // the batch held the user's next keystroke
      return 'feature';
    };
    const out = await atAskedVersion(doc, undefined, load, (f) => `${f} answered at ${doc.version}`, () => 'stale');
    assert.equal(out, 'stale');
  });

  test('no change while loading: the answer', async () => {
    const doc = { version: 4 };
    const out = await atAskedVersion(doc, undefined, async () => 'feature', (f) => `${f} answered at ${doc.version}`, () => 'stale');
    assert.equal(out, 'feature answered at 4');
  });

  test('loaded already: answered synchronously (no promise), so nothing can change in between', () => {
    const doc = { version: 9 };
    let loads = 0;
    const out = atAskedVersion(doc, 'feature', async () => {
      loads++;
      return 'other';
    }, (f) => `${f} answered at ${doc.version}`, () => 'stale');
    assert.equal(out, 'feature answered at 9');
    assert.equal(loads, 0);
  });
});

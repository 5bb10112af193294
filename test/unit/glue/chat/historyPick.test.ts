/**
 * [#40.5] Conversation History (src/chat/historyPick.ts) against the vscode double's QuickPick and a
 * real history store in a temporary folder: the list, the current conversation, opening, deleting
 * and renaming from the item buttons, full-text search, and closing.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { showHistory } from '../../../../src/chat/historyPick';
import { HistoryStore } from '../../../../src/core/chat/historyStore';
import { newConversation, type Conversation } from '../../../../src/core/chat/conversation';
import type { ChatController } from '../../../../src/core/chat/chatController';

let dir: string;
let store: HistoryStore;
let calls: Array<[string, string]>;

function conv(id: string, title: string, text: string, updatedAt: number): Conversation {
  const c = newConversation(id, 'openai/gpt-test', 1);
  c.title = title;
  c.updatedAt = updatedAt;
  c.messages.push({ id: `${id}-m`, role: 'user', content: text, status: 'complete', createdAt: 1 });
  return c;
}

/** The chat the picker acts on: records what it was asked, and deletes / renames in the store as the real one does after its questions. */
function chat(currentId: string): ChatController {
  return {
    conversationInfo: { id: currentId },
    openConversation: async (id: string) => (calls.push(['open', id]), true),
    deleteConversation: async (id: string) => (calls.push(['delete', id]), store.delete(id)),
    rename: async (id: string) => {
      calls.push(['rename', id]);
      const c = (await store.load(id))!;
      c.title = 'Renamed';
      await store.save(c);
    },
  } as unknown as ChatController;
}

async function until(pred: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !pred(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(pred(), 'the condition never held');
}

beforeEach(async () => {
  double.reset();
  double.driveQuickPicks();
  calls = [];
  dir = await mkdtemp(join(tmpdir(), 'glue3-history-'));
  store = new HistoryStore(dir);
  const day = Date.UTC(2026, 0, 10, 12);
  await store.save(conv('a', 'Trip plans', 'train to Lyon', day));
  await store.save(conv('b', 'Budget review', 'spreadsheet totals', day + 1000));
});
afterEach(async () => {
  store.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('[#40.5] Conversation History', () => {
  test('[#40.5] lists the conversations newest first, marks the current one, each with Rename and Delete', async () => {
    await showHistory(store, chat('a'));
    const [qp] = double.createdQuickPicks;
    assert.equal(qp.title, 'Conversation History');
    assert.equal(qp.placeholder, 'Search conversations by title or text');
    assert.equal(qp.visible, true);
    assert.equal(qp.busy, false);
    assert.deepEqual(qp.items.map((i) => i.label), ['Budget review', 'Trip plans']);
    assert.match(String(qp.items[1].description), /^current · /);
    assert.doesNotMatch(String(qp.items[0].description), /current/);
    assert.deepEqual((qp.items[0].buttons as Array<{ tooltip: string }>).map((b) => b.tooltip), ['Rename', 'Delete']);
  });

  test('[#40.5] Enter opens the picked conversation in the chat, then the picker closes', async () => {
    await showHistory(store, chat('a'));
    const [qp] = double.createdQuickPicks;
    qp.accept('Budget review');
    await until(() => qp.disposed);
    assert.deepEqual(calls, [['open', 'b']]);
  });

  test('[#40.5] Delete removes it from the list and the picker comes back; nothing is opened', async () => {
    await showHistory(store, chat('a'));
    const [qp] = double.createdQuickPicks;
    qp.pressItemButton('Trip plans', 1);
    qp.hide(); // the workbench hides the picker while the confirmation is up...
    await until(() => qp.shows === 2); // ...and it is shown again afterwards
    assert.equal(qp.disposed, false, 'hidden for the action, not closed');
    assert.deepEqual(calls, [['delete', 'a']]);
    assert.deepEqual(qp.items.map((i) => i.label), ['Budget review']);
  });

  test('[#40.5] Rename: the list shows the new title', async () => {
    await showHistory(store, chat('a'));
    const [qp] = double.createdQuickPicks;
    qp.pressItemButton('Trip plans', 0);
    await until(() => qp.shows === 2);
    assert.deepEqual(calls, [['rename', 'a']]);
    assert.ok(qp.items.some((i) => i.label === 'Renamed'));
  });

  test('[#40.5] typing searches the conversations\' text: a match shows its snippet and is kept in the list', async () => {
    await showHistory(store, chat('a'));
    const [qp] = double.createdQuickPicks;
    qp.type('Lyon');
    await until(() => qp.items.some((i) => i.detail !== undefined));
    const hit = qp.items.find((i) => i.label === 'Trip plans')!;
    assert.match(String(hit.detail), /Lyon/);
    assert.equal(hit.alwaysShow, true);
    assert.equal(qp.items.find((i) => i.label === 'Budget review')!.detail, undefined);
    qp.type('');
    await until(() => qp.items.every((i) => i.detail === undefined));
  });

  test('[#40.5] Escape closes the picker and it stops following the store', async () => {
    await showHistory(store, chat('a'));
    const [qp] = double.createdQuickPicks;
    qp.hide();
    assert.equal(qp.disposed, true);
    await store.save(conv('c', 'Later', 'x', Date.UTC(2026, 0, 11)));
    assert.deepEqual(qp.items.map((i) => i.label), ['Budget review', 'Trip plans']);
    assert.deepEqual(calls, []);
  });
});

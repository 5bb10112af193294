/**
 * Context by typing (#29.4): where a `#` or `/` completion starts, how candidates are ranked, the
 * protocol's bounds, and the controller's side: items offered by id only, a picked item attached with
 * its size and estimated cost, `/` commands running the existing behaviour, and the active editor's
 * file sent as an implicit attachment unless the user removed it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findTrigger, matchScore, rankCandidates, slashMatches, MAX_ITEMS, MAX_QUERY } from '../../../src/protocol/chatCompose';
import { isHostToWebview, isWebviewToHost, type HostToWebview } from '../../../src/protocol/chatProtocol';
import { ChatController, type ChatEditorHost, type ContextCandidate } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/historyStore';
import { Emitter } from '../../../src/core/disposables';
import type { IGatewayClient } from '../../../src/core/gateway/api';
import type { Model } from '../../../src/core/gateway/types';
import { quietEditorHost } from './controllerRig';

test('[#29.4] `#` starts a completion at the start or after a space; `/` only at the very start; whitespace ends it', () => {
  assert.deepEqual(findTrigger('#', 1), { kind: '#', query: '', start: 0 });
  assert.deepEqual(findTrigger('look at #src/ma', 15), { kind: '#', query: 'src/ma', start: 8 });
  assert.deepEqual(findTrigger('/su', 3), { kind: '/', query: 'su', start: 0 });
  assert.equal(findTrigger('a /su', 5), undefined, '/ mid-message is no command');
  assert.equal(findTrigger('C# is', 2), undefined, 'C# is no completion');
  assert.equal(findTrigger('#main done', 10), undefined, 'the caret after a space: no completion');
  assert.deepEqual(findTrigger('#main done', 5), { kind: '#', query: 'main', start: 0 }, 'the caret decides, not the end of the text');
  assert.equal(findTrigger('plain text', 10), undefined);
});

test('[#29.4] finding the trigger is bounded: it looks back at most MAX_QUERY characters from the caret', () => {
  const long = `#${'a'.repeat(MAX_QUERY + 5)}`;
  assert.equal(findTrigger(long, long.length), undefined);
  const huge = 'x'.repeat(2_000_000);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < 1000; i++) findTrigger(huge, huge.length);
  assert.ok(process.hrtime.bigint() - t0 < 2_000_000_000n, 'a thousand looks at a 2 MB text take well under 2 s');
});

test('[#29.4] ranking: the name equal, then starting with, then containing the query, then the path, then fuzzy; shorter paths first on ties', () => {
  const c = (name: string, path: string) => ({ name, path });
  const ranked = rankCandidates('main', [c('domain.ts', 'src/domain.ts'), c('main.ts', 'src/deep/main.ts'), c('x.ts', 'main/x.ts'), c('main', 'main'), c('m_a_i_n.md', 'docs/m_a_i_n.md'), c('main.ts', 'main.ts'), c('other.ts', 'other.ts')]);
  assert.deepEqual(
    ranked.map((x) => x.path),
    ['main', 'main.ts', 'src/deep/main.ts', 'src/domain.ts', 'main/x.ts', 'docs/m_a_i_n.md'],
  );
  assert.equal(matchScore('MAIN', c('Main.ts', 'Main.ts')) > 0, true, 'case-insensitive');
  assert.equal(rankCandidates('', [c('b', 'b'), c('a', 'a')]).length, 2, 'an empty query lists everything');
  assert.equal(rankCandidates('', Array.from({ length: 500 }, (_, i) => c(`f${i}`, `f${i}`))).length, MAX_ITEMS, 'bounded');
});

test('[#29.4] `/` lists the commands; a prefix narrows them', () => {
  assert.deepEqual(
    slashMatches('').map((x) => x.id),
    ['alt', 'summary', 'tags', 'new', 'model'],
  );
  assert.deepEqual(
    slashMatches('mo').map((x) => x.id),
    ['model'],
  );
  assert.deepEqual(
    slashMatches('s').map((x) => x.id)[0],
    'summary',
  );
});

test('[#29.4] the protocol: completion messages are bounded both ways; an unknown command or a long query is refused', () => {
  assert.equal(isWebviewToHost({ type: 'contextQuery', query: 'ma', seq: 3 }), true);
  assert.equal(isWebviewToHost({ type: 'contextQuery', query: 'x'.repeat(MAX_QUERY + 1), seq: 3 }), false);
  assert.equal(isWebviewToHost({ type: 'contextQuery', query: 'x', seq: -1 }), false);
  assert.equal(isWebviewToHost({ type: 'addContext', itemId: '3-0' }), true);
  assert.equal(isWebviewToHost({ type: 'addContext', itemId: '' }), false);
  assert.equal(isWebviewToHost({ type: 'slashCommand', command: 'summary' }), true);
  assert.equal(isWebviewToHost({ type: 'slashCommand', command: 'rm' }), false);
  assert.equal(isWebviewToHost({ type: 'implicitContext', include: false }), true);
  assert.equal(isWebviewToHost({ type: 'implicitContext', include: 'no' }), false);
  const item = { id: '1-0', kind: 'file', label: 'a.ts', detail: 'src' };
  assert.equal(isHostToWebview({ type: 'contextItems', seq: 1, items: [item] }), true);
  assert.equal(isHostToWebview({ type: 'contextItems', seq: 1, items: Array.from({ length: MAX_ITEMS + 1 }, () => item) }), false);
  assert.equal(isHostToWebview({ type: 'contextItems', seq: 1, items: [{ ...item, kind: 'folder' }] }), false);
});

// ---------- the controller ----------

const MODELS = [{ id: 'm/a', object: 'model', owned_by: 'x', provider: 'openai', display_name: 'Model A', capabilities: ['chat'], pricing: { input_per_million: '2', output_per_million: '10', pricing_version: 'v1', unit: 'credits' } }] as Model[];

async function rig(host: Partial<ChatEditorHost>, fn: (h: { c: ChatController; posted: HostToWebview[]; requests: unknown[]; calls: string[] }) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'chat-composer-'));
  const posted: HostToWebview[] = [];
  const requests: unknown[] = [];
  const calls: string[] = [];
  // A client that records the request and answers with one chunk (no gateway needed for what is sent).
  const client = {
    streamChatCompletion: async (r: unknown) => {
      requests.push(r);
      return Object.assign(
        (async function* () {
          yield { choices: [{ delta: { content: 'ok' } }] };
        })(),
        { requestId: 'req-1' },
      );
    },
  } as unknown as IGatewayClient;
  const c = new ChatController({
    getClient: async () => client,
    models: { chatModels: () => MODELS, getModel: (id) => MODELS.find((m) => m.id === id), onDidChange: new Emitter<unknown>().event },
    store: new HistoryStore(dir),
    prefs: { lastModelId: () => 'm/a', setLastModelId: () => undefined },
    host: quietEditorHost({ showError: (m) => void calls.push(`error:${m}`), ...host }),
    post: (m) => void posted.push(m),
    log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
  });
  try {
    await c.handle({ type: 'ready' });
    await fn({ c, posted, requests, calls });
  } finally {
    c.dispose();
    await rm(dir, { recursive: true, force: true });
  }
}

const lastState = (posted: HostToWebview[]) => {
  const s = posted.filter((m) => m.type === 'state').at(-1);
  assert.ok(s?.type === 'state');
  return s.state;
};

function candidates(): ContextCandidate[] {
  return [
    { kind: 'file', name: 'main.ts', path: 'src/main.ts', label: 'main.ts', detail: 'src', ref: 'ref-main' },
    { kind: 'file', name: 'other.ts', path: 'src/other.ts', label: 'other.ts', detail: 'src', ref: 'ref-other' },
    { kind: 'symbol', name: 'mainLoop', path: 'src/main.ts mainLoop', label: 'mainLoop', detail: 'src/main.ts:4', ref: 'ref-sym' },
  ];
}

test('[#29.4] `#` items come from the host ranked; a picked one is attached by the id the host gave, with its size and estimated cost', async () => {
  const attached: unknown[] = [];
  await rig(
    {
      contextCandidates: async () => candidates(),
      attachCandidate: async (cand) => {
        attached.push(cand.ref);
        return [{ id: 'a1', kind: 'file', label: 'src/main.ts', content: 'x'.repeat(4000) }];
      },
    },
    async ({ c, posted }) => {
      await c.handle({ type: 'contextQuery', query: 'main', seq: 7 });
      const answer = posted.find((m) => m.type === 'contextItems');
      assert.ok(answer?.type === 'contextItems');
      assert.equal(answer.seq, 7);
      assert.deepEqual(
        answer.items.map((i) => [i.kind, i.label]),
        [
          ['file', 'main.ts'],
          ['symbol', 'mainLoop'],
        ],
      );
      assert.equal(JSON.stringify(answer).includes('ref-'), false, "the host's handles never cross to the webview");
      await c.handle({ type: 'addContext', itemId: answer.items[0].id });
      assert.deepEqual(attached, ['ref-main']);
      const chip = lastState(posted).attachments[0];
      assert.equal(chip.label, 'src/main.ts');
      assert.equal(chip.size, 4000);
      // 4000 characters ≈ 1000 tokens at 2 credits per million input tokens = 0.002 credits.
      assert.match(chip.cost ?? '', /^≈0\.002\b/);
    },
  );
});

test('[#29.4] an id the host did not offer in its last answer attaches nothing (no path from the webview is ever read)', async () => {
  const attached: unknown[] = [];
  await rig(
    {
      contextCandidates: async () => candidates(),
      attachCandidate: async (cand) => {
        attached.push(cand.ref);
        return [];
      },
    },
    async ({ c, posted }) => {
      await c.handle({ type: 'contextQuery', query: 'main', seq: 1 });
      await c.handle({ type: 'contextQuery', query: 'other', seq: 2 });
      await c.handle({ type: 'addContext', itemId: '1-0' }); // from the older answer
      await c.handle({ type: 'addContext', itemId: '../../etc/passwd' });
      assert.deepEqual(attached, []);
      assert.ok(posted.some((m) => m.type === 'notice' && /no longer offered/.test(m.text)));
    },
  );
});

test('[#29.4] `/new` starts a conversation, `/model` opens the model picker, `/summary` runs the content command through the host', async () => {
  const ran: string[] = [];
  let picked = 0;
  await rig(
    {
      runContentCommand: async (cmd) => void ran.push(cmd),
      pickModel: async () => {
        picked++;
        return undefined;
      },
    },
    async ({ c, posted }) => {
      await c.handle({ type: 'send', text: 'first' });
      const before = lastState(posted).conversation.id;
      await c.handle({ type: 'slashCommand', command: 'new' });
      assert.notEqual(lastState(posted).conversation.id, before);
      assert.equal(lastState(posted).conversation.messages.length, 0);
      await c.handle({ type: 'slashCommand', command: 'model' });
      assert.equal(picked, 1);
      await c.handle({ type: 'slashCommand', command: 'summary' });
      await c.handle({ type: 'slashCommand', command: 'alt' });
      await c.handle({ type: 'slashCommand', command: 'tags' });
      assert.deepEqual(ran, ['summary', 'alt', 'tags']);
    },
  );
});

test('[#29.4] the active file is offered as an implicit attachment and sent; once removed it is not sent, and can be put back', async () => {
  const file = { key: 'file:///w/post.md', label: 'post.md', size: 12 };
  await rig(
    {
      implicitContext: () => file,
      implicitAttachment: async (key) => (key === file.key ? { id: 'imp', kind: 'file', label: 'post.md', content: 'Hello world!' } : undefined),
    },
    async ({ c, posted, requests }) => {
      const imp = lastState(posted).implicit;
      assert.deepEqual({ ...imp, cost: undefined }, { label: 'post.md', size: 12, included: true, cost: undefined });
      assert.match(imp?.cost ?? '', /^≈/);
      await c.handle({ type: 'send', text: 'one' });
      const first = JSON.stringify(requests.at(-1));
      assert.match(first, /Attached file post.md/);
      assert.match(first, /Hello world!/);
      await c.handle({ type: 'implicitContext', include: false });
      assert.equal(lastState(posted).implicit?.included, false);
      await c.handle({ type: 'send', text: 'two' });
      const second = requests.at(-1) as { messages: Array<{ role: string; content: string }> };
      assert.equal(second.messages.at(-1)?.content, 'two', 'removed: not sent');
      await c.handle({ type: 'implicitContext', include: true });
      assert.equal(lastState(posted).implicit?.included, true);
    },
  );
});

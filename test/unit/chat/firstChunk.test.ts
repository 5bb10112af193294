/**
 * The first text of a reply crosses to the webview at once; later chunks are coalesced (at most one
 * message per frame). Checked without timing: the fake stream looks at what was posted at the moment
 * the controller asks it for the next chunk, before any timer can have run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatController } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/historyStore';
import type { ChatStream, IGatewayClient } from '../../../src/core/gateway/api';
import type { ChatCompletionChunk, Model } from '../../../src/core/gateway/types';
import { Emitter } from '../../../src/core/disposables';
import type { HostToWebview } from '../../../src/protocol/chatProtocol';

const MODEL: Model = { id: 'test/chat', object: 'model', owned_by: 't', provider: 't', display_name: 'T', capabilities: ['chat'] };
const chunk = (content: string) => ({ id: 'c', object: 'chat.completion.chunk', created: 0, model: MODEL.id, choices: [{ index: 0, delta: { content }, finish_reason: null }] }) as ChatCompletionChunk;

test('the first chunk of a reply is posted before the next one is read; later ones are coalesced', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'chat-first-'));
  try {
    const posted: HostToWebview[] = [];
    const chunksPosted = () => posted.filter((m) => m.type === 'streamChunk').map((m) => (m.type === 'streamChunk' ? m.text : ''));
    const seen: string[][] = [];
    const client = {
      streamChatCompletion: async (): Promise<ChatStream> => ({
        requestId: 'r1',
        async *[Symbol.asyncIterator]() {
          yield chunk('Hel');
          seen.push(chunksPosted());
          yield chunk('lo');
          seen.push(chunksPosted());
          yield chunk('!');
          seen.push(chunksPosted());
        },
      }),
    } as unknown as IGatewayClient;
    const controller = new ChatController({
      getClient: async () => client,
      models: { chatModels: () => [MODEL], getModel: (id) => (id === MODEL.id ? MODEL : undefined), onDidChange: new Emitter<unknown>().event },
      store: new HistoryStore(dir),
      prefs: { lastModelId: () => MODEL.id, setLastModelId: () => undefined },
      host: {} as never,
      post: (m) => void posted.push(m),
      log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    });
    await controller.handle({ type: 'ready' });
    await controller.handle({ type: 'send', text: 'hi' });
    assert.deepEqual(seen[0], ['Hel'], 'the first text was posted at once');
    assert.deepEqual(seen[1], ['Hel'], 'the second is held for coalescing');
    assert.deepEqual(chunksPosted().join(''), 'Hello!');
    assert.ok(chunksPosted().length <= 2);
    controller.dispose();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/**
 * [#39.2] The cost before sending counts everything the request will carry: the open file's implicit
 * chip, attachments, the system prompt, earlier turns, images (at the stated assumed rate) and, in agent
 * mode, the tool schemas. It is built by the function that builds the request (requestBody.ts), so the
 * text priced is the text sent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatController, type ChatAgentHost } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/historyStore';
import { Emitter } from '../../../src/core/disposables';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import type { ChatCompletionRequest } from '../../../src/core/gateway/types';
import { PromptCostEstimator } from '../../../src/core/spend/promptCost';
import { IMAGE_PROMPT_TOKENS, promptOf } from '../../../src/core/chat/requestBody';
import { buildToolbox } from '../../../src/core/agentLoop/toolbox';
import { OutcomeLedger } from '../../../src/core/mcp/outcomeLedger';
import type { StoredAttachment } from '../../../src/core/chat/conversation';
import type { HostToWebview } from '../../../src/protocol/chatProtocol';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { quietEditorHost, useControllerRig } from './controllerRig';

const rig = useControllerRig('chat-prompt-cost-');

/** An open file of 4,000 characters: about 1,000 tokens at 4 characters per token. */
const FILE = `// notes\n${'const value = 42; // the answer\n'.repeat(125)}`.slice(0, 4000);
const FILE_TOKENS = Math.ceil(FILE.length / 4);

function harness(opts: { modelId?: string; picked?: StoredAttachment[]; agent?: ChatAgentHost } = {}) {
  const posted: HostToWebview[] = [];
  const counted: string[] = [];
  const asked: Array<{ text: string; extra: number; tokens?: number; counted?: boolean }> = [];
  const sent: ChatCompletionRequest[] = [];
  const estimator = new PromptCostEstimator({
    // The gateway's count stands in as 4 characters per token (what the file's tokens are measured in here).
    count: async (_m, text) => {
      counted.push(text);
      return { tokens: Math.ceil(text.length / 4), source: 'gateway' };
    },
    model: (id) => rig.models.find((m) => m.id === id),
    delayMs: 0,
  });
  const promptCost = {
    request: async (model: string, text: string, extra = 0) => {
      const cost = await estimator.request(model, text, extra);
      asked.push({ text, extra, ...(cost ? { tokens: cost.inputTokens, counted: cost.counted } : {}) });
      return cost;
    },
    cancel: () => estimator.cancel(),
  };
  const client = createGatewayClient({ baseUrl: rig.gw.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'test' });
  const controller = new ChatController({
    getClient: async () => ({
      ...client,
      streamChatCompletion: (r, o) => {
        sent.push(r);
        return client.streamChatCompletion(r, o);
      },
    }),
    models: {
      chatModels: () => rig.models.filter((m) => m.capabilities?.includes('chat')),
      getModel: (id) => rig.models.find((m) => m.id === id),
      toolModels: () => rig.models.filter((m) => m.capabilities?.includes('tools')),
      visionModels: () => rig.models.filter((m) => m.capabilities?.includes('vision')),
      onDidChange: new Emitter<unknown>().event,
    },
    store: new HistoryStore(rig.dir),
    prefs: { lastModelId: () => opts.modelId ?? 'openai/gpt-4o', setLastModelId: () => undefined },
    host: quietEditorHost({
      implicitContext: () => ({ key: 'file:///work/notes.ts', label: 'notes.ts', size: FILE.length }),
      implicitAttachment: async () => ({ id: 'imp', kind: 'file', label: 'notes.ts', content: FILE }),
      pickAttachments: async () => opts.picked ?? [],
    }),
    post: (m) => void posted.push(m),
    log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    promptCost,
    ...(opts.agent ? { agent: opts.agent } : {}),
  });
  return { controller, posted, counted, asked, sent };
}

test('[#39.2] with the open file attached (implicit chip), the preview counts at least the file\'s tokens, and exactly the text Send sends', async () => {
  const h = harness();
  try {
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'draft', text: 'hi' });
    const preview = h.asked.at(-1)!;
    assert.ok((preview.tokens ?? 0) >= FILE_TOKENS, `the preview counts ${preview.tokens} tokens, the open file alone is ${FILE_TOKENS}`);
    assert.ok(preview.text.includes(FILE), 'the open file is in the priced text');
    await h.controller.handle({ type: 'send', text: 'hi' });
    assert.equal(promptOf(h.sent[0]).text, preview.text, 'the priced text is the text sent');
  } finally {
    h.controller.dispose();
  }
});

test('[#39.2] the preview counts the system prompt and the earlier turns; an image at the assumed rate, marked an estimate', async () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex').toString('base64');
  const h = harness({ picked: [{ id: 'img', kind: 'image', label: 'photo.png', content: png, mime: 'image/png' }] });
  try {
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'setSystemPrompt', text: 'You are a terse assistant for gardeners.' });
    await h.controller.handle({ type: 'send', text: 'first question about roses' });
    await h.controller.handle({ type: 'implicitContext', include: false });
    await h.controller.handle({ type: 'attach', kind: 'image' });
    await h.controller.handle({ type: 'draft', text: 'and this picture?' });
    const preview = h.asked.at(-1)!;
    assert.ok(preview.text.includes('You are a terse assistant for gardeners.'), 'the system prompt');
    assert.ok(preview.text.includes('first question about roses'), 'the earlier question');
    assert.ok(preview.text.includes('This is a deterministic reply from'), 'the earlier reply');
    assert.equal(preview.extra, IMAGE_PROMPT_TOKENS, 'one image at the assumed rate');
    assert.equal(preview.counted, false, 'a figure with an assumed image rate is an estimate');
    assert.ok(!preview.text.includes(png), 'the image bytes are not counted as text');
    await h.controller.handle({ type: 'send', text: 'and this picture?' });
    const body = promptOf(h.sent.at(-1)!);
    assert.equal(body.text, preview.text, 'the priced text is the text sent');
    assert.equal(body.images, 1);
  } finally {
    h.controller.dispose();
  }
});

test('[#39.2] in agent mode the preview counts the tool schemas the reply will offer', async () => {
  const agent: ChatAgentHost = {
    maxRounds: () => 10,
    confirmReadOnlyAbilities: () => true,
    ledger: new OutcomeLedger({ get: () => [], set: () => undefined }),
    toolbox: async () =>
      buildToolbox(
        [{ serverId: 'gateway', serverLabel: 'AI Gateway', isGateway: true, tools: [{ name: 'list_account_sites', description: 'Lists the sites of the account, with their plans and regions.', inputSchema: { type: 'object', properties: { filter: { type: 'string', description: 'A part of the site name' } } } }] }],
        'user',
        {},
      ),
    callTool: async () => ({ result: { content: [] }, durationMs: 0, requestIds: [] }),
    abilityReadOnly: async () => false,
    pickServers: async () => undefined,
  };
  const h = harness({ modelId: 'openai/gpt-4.1', agent });
  try {
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'implicitContext', include: false });
    await h.controller.handle({ type: 'draft', text: 'which sites?' });
    const plain = h.asked.at(-1)!;
    assert.ok(!plain.text.includes('list_account_sites'));
    await h.controller.handle({ type: 'setAgent', on: true });
    await h.controller.handle({ type: 'draft', text: 'which sites?' });
    const withTools = h.asked.at(-1)!;
    assert.ok(withTools.text.includes('"name":"list_account_sites"') && withTools.text.includes('A part of the site name'), 'the tool schema is priced');
    assert.ok((withTools.tokens ?? 0) > (plain.tokens ?? 0));
  } finally {
    h.controller.dispose();
  }
});

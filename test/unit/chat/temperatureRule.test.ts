/**
 * [G-CAT-5] A model whose temperature is `supported: false` never gets a temperature, even when its
 * catalog entry also publishes a min and a max. Checked where the temperature is chosen
 * (src/core/chat/modelOptions.ts, for every value fast-check finds) and where requests leave: the chat
 * panel's plain and agent turns against the local gateway, which rejects a temperature sent to such a
 * model (qwen/qwq-plus in its catalog) and records whether a request carried one. The content commands
 * and VS Code's chat (src/lm/lmRequests.ts) build requests without any temperature field.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { quietEditorHost, useControllerRig } from './controllerRig';
import { chatModelOptions, temperatureBounds, temperatureToSend } from '../../../src/core/chat/modelOptions';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import type { Model } from '../../../src/core/gateway/types';
import { ChatController, type ChatAgentHost } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/historyStore';
import { Emitter } from '../../../src/core/disposables';
import { McpConnection } from '../../../src/core/mcp/mcpClient';
import { OutcomeLedger, type OutcomeUnknownEntry } from '../../../src/core/mcp/outcomeLedger';
import { buildToolbox } from '../../../src/core/agentLoop/toolbox';
import type { HostToWebview } from '../../../src/protocol/chatProtocol';

const NOW = Date.UTC(2026, 5, 15);
const FIXED = 'qwen/qwq-plus'; // supported:false, min 0.1, max 1.5 in the local catalog
const RANGED = 'openai/gpt-4.1'; // max 2: takes a temperature (the control case)

const model = (temperature: unknown): Model => ({
  id: 'a/m',
  object: 'model',
  owned_by: 'x',
  provider: 'openai',
  display_name: 'M',
  capabilities: ['chat'],
  parameters: { temperature: temperature as NonNullable<Model['parameters']>['temperature'] },
});

const anyNumber = fc.oneof(fc.double(), fc.integer({ min: -5, max: 5 }), fc.constantFrom(0, 0.1, 1, 1.5, 2, Number.NaN, Infinity, -Infinity));

describe('[G-CAT-5] choosing the temperature', () => {
  test('[G-CAT-5] supported:false with any published min and max: no bounds, no control, no temperature for any chosen value', () => {
    fc.assert(
      fc.property(fc.option(anyNumber, { nil: undefined }), fc.option(anyNumber, { nil: undefined }), fc.option(anyNumber, { nil: undefined }), (min, max, chosen) => {
        const m = model({ supported: false, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) });
        assert.equal(temperatureBounds(m), undefined);
        assert.equal(temperatureToSend(m, chosen), undefined);
        const [option] = chatModelOptions([m], NOW, chosen);
        assert.equal(option.temperature, undefined);
      }),
      { numRuns: 500 },
    );
  });

  test('[G-CAT-5] a `supported` that is not plainly true (a string, a number, null) is not taken as support: no temperature', () => {
    const notTrue = fc.oneof(fc.constantFrom<unknown>('false', 'true', 0, 1, null, 'no', {}, []), fc.string(), fc.integer());
    fc.assert(
      fc.property(notTrue, anyNumber, (supported, chosen) => {
        const m = model({ supported, min: 0, max: 2 });
        assert.equal(temperatureToSend(m, chosen), undefined, JSON.stringify(supported));
      }),
    );
  });

  test('[G-CAT-6] a supported range: whatever is chosen, what is sent lies inside [min ?? 0, max]', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 1, max: 2, noNaN: true }), fc.option(anyNumber, { nil: undefined }), (min, max, chosen) => {
        const t = temperatureToSend(model({ min, max }), chosen);
        if (chosen === undefined || !Number.isFinite(chosen)) assert.equal(t, undefined);
        else assert.ok(t !== undefined && t >= min && t <= max, `${t} outside [${min}, ${max}]`);
      }),
    );
  });
});

const rig = useControllerRig('temperature-');

function harness(modelId: string) {
  const posted: HostToWebview[] = [];
  const waiters: Array<() => void> = [];
  const key = LOCAL_KEYS.userFull;
  let stored: OutcomeUnknownEntry[] = [];
  let conn: Promise<McpConnection> | undefined;
  const connection = () => (conn ??= McpConnection.connect({ url: `${rig.gw.url}/v1/mcp`, fetch: (u, i) => fetch(u, i), getHeaders: async () => ({ Authorization: `Bearer ${key}` }) }));
  const agent: ChatAgentHost = {
    maxRounds: () => 10,
    confirmReadOnlyAbilities: () => true,
    ledger: new OutcomeLedger({ get: () => stored, set: (e) => void (stored = e) }),
    toolbox: async () => {
      const { tools } = await (await connection()).listTools();
      return buildToolbox([{ serverId: 'gateway', serverLabel: 'AI Gateway', isGateway: true, tools }], 'user', { kbSearch: false });
    },
    callTool: async (tool, args, signal, headers) => (await connection()).callTool(tool.serverToolName, args, { signal, ...(headers ? { headers } : {}) }),
    abilityReadOnly: async () => false,
    pickServers: async () => undefined,
  };
  const client = createGatewayClient({ baseUrl: rig.gw.url, getKey: async () => key, userAgent: 'temperature-test', retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 } });
  const changed = new Emitter<unknown>();
  const controller = new ChatController({
    getClient: async () => client,
    models: {
      chatModels: () => rig.models.filter((m) => m.capabilities?.includes('chat')),
      getModel: (id) => rig.models.find((m) => m.id === id),
      toolModels: () => rig.models.filter((m) => m.capabilities?.includes('tools')),
      visionModels: () => rig.models.filter((m) => m.capabilities?.includes('vision')),
      onDidChange: changed.event,
    },
    store: new HistoryStore(rig.dir),
    prefs: { lastModelId: () => modelId, setLastModelId: () => {} },
    host: quietEditorHost(),
    post: (m) => {
      posted.push(m);
      waiters.splice(0).forEach((w) => w());
    },
    log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    agent,
  });
  // Safety net so a broken engine fails the test instead of hanging it; not a timing assertion.
  const end = async () => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const found = posted.find((m): m is Extract<HostToWebview, { type: 'streamDone' | 'streamError' }> => m.type === 'streamDone' || m.type === 'streamError');
      if (found) return found;
      if (Date.now() > deadline) throw new Error('the reply never ended');
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 200);
      });
    }
  };
  const sent = () => rig.gw.events.list('chat-request').filter((e) => e.model === modelId);
  return { controller, end, sent, close: async () => (await conn)?.close() };
}

describe('[G-CAT-5] requests to the local gateway', () => {
  test('[G-CAT-5] the chat panel sends no temperature to a supported:false model that publishes min/max; the reply completes', async () => {
    const h = harness(FIXED);
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'setTemperature', value: 0.7 });
    await h.controller.handle({ type: 'send', text: 'hello' });
    const done = await h.end();
    assert.equal(done.type, 'streamDone', done.type === 'streamError' ? done.message.error?.message : '');
    assert.deepEqual(
      h.sent().map((e) => e.hasTemperature),
      [false],
    );
    const state = await h.controller.state();
    assert.equal(state.models?.find((m) => m.id === FIXED)?.temperature, undefined, 'no temperature control is offered');
  });

  test('[G-CAT-5] an agent turn sends no temperature in any round to such a model', async () => {
    const h = harness(FIXED);
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'setTemperature', value: 1 });
    await h.controller.handle({ type: 'setAgent', on: true });
    assert.equal((await h.controller.state()).agent?.on, true);
    await h.controller.handle({ type: 'send', text: 'Which sites? [[tool:list_account_sites {}]]' });
    const done = await h.end();
    assert.equal(done.type, 'streamDone', done.type === 'streamError' ? done.message.error?.message : '');
    assert.equal(done.message.toolCalls?.[0]?.status, 'done');
    const rounds = h.sent();
    assert.equal(rounds.length, 2, 'a tool round and the answer');
    assert.deepEqual(
      rounds.map((e) => e.hasTemperature),
      [false, false],
    );
    await h.close();
  });

  test('the control: the same turns to a model that takes a temperature do carry it (so the checks above can see one)', async () => {
    const h = harness(RANGED);
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'setTemperature', value: 0.7 });
    await h.controller.handle({ type: 'send', text: 'hello' });
    assert.equal((await h.end()).type, 'streamDone');
    assert.deepEqual(
      h.sent().map((e) => [e.hasTemperature, e.temperature]),
      [[true, 0.7]],
    );
    await h.close();
  });
});

/**
 * Where a temperature can enter a request: every file under src/ (the webview only shows the control)
 * that mentions one either takes it from modelOptions.ts or is known not to choose one. A new request
 * builder that forwards a temperature (VS Code's modelOptions, a content command, a comparison) fails
 * here until it goes through temperatureToSend and is looked at.
 */
const NOT_CHOOSING: Record<string, string> = {
  'src/core/chat/modelOptions.ts': 'chooses it (temperatureBounds, temperatureToSend)',
  'src/core/gateway/types.ts': 'the wire type only',
  'src/protocol/chatProtocol.ts': 'the webview messages: the control and the value the user set',
  'src/core/chat/conversation.ts': 'the value the user set, saved with the conversation',
  'src/core/catalog/details.ts': 'the model details text ("fixed by provider")',
  'src/core/agentLoop/agentLoop.ts': 'sends deps.temperature, which the chat controller took from temperatureToSend',
  'src/core/chat/liveConversations.ts': 'merges the conversation\'s saved fields (the value the user set) between windows',
  'src/core/chat/chatView.ts': 'the state: the value the user set, and the model list it bounds',
  'src/core/chat/settingsPart.ts': 'saves the value the user set with the conversation (setTemperature)',
  'src/core/gateway/messagesWire.ts': "copies the chat request's temperature (chosen by its builder) into the messages request",
  'src/core/gateway/reasoningEffort.ts': 'a comment naming the documented parameters (temperature among them); sends no temperature',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? (p === join('src', 'webview') ? [] : sourceFiles(p)) : name.endsWith('.ts') ? [p] : [];
  });
}

test('[G-CAT-5] every file under src/ that puts a temperature into a request takes it from temperatureToSend', () => {
  const unexplained = sourceFiles('src')
    .filter((f) => /temperature/i.test(readFileSync(f, 'utf8')))
    .filter((f) => !(f.split('\\').join('/') in NOT_CHOOSING))
    .filter((f) => !/import\s*\{[^}]*\btemperatureToSend\b[^}]*\}\s*from\s*'[^']*modelOptions'/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(unexplained, []);
  // And the builders that send none today still send none.
  for (const f of ['src/lm/lmRequests.ts', 'src/core/content/contentClient.ts', 'src/core/content/wire.ts', 'src/core/content/chatFallback.ts']) {
    assert.doesNotMatch(readFileSync(f, 'utf8'), /temperature|modelOptions/, f);
  }
});

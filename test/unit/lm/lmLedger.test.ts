/**
 * [#39.1] VS Code's chat through the provider (src/lm/lmRequests.ts `respond`) against the local
 * gateway: a request cancelled while the reply streams is still recorded in the spend ledger, as an
 * estimate marked `stopped`; a completed one with the gateway's usage. The fake `vscode` has only what
 * the request path touches.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import * as l10n from '../../../src/core/l10n';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import type { Model } from '../../../src/core/gateway/types';
import type { SpendInput } from '../../../src/core/spend/ledger';

class LanguageModelTextPart {
  constructor(readonly value: string) {}
}
class LanguageModelToolCallPart {
  constructor(
    readonly callId: string,
    readonly name: string,
    readonly input: object,
  ) {}
}
class LanguageModelToolResultPart {
  constructor(
    readonly callId: string,
    readonly content: unknown[],
  ) {}
}
class LanguageModelPromptTsxPart {
  constructor(readonly value: unknown) {}
}
class LanguageModelError extends Error {
  constructor(
    message: string,
    readonly code = 'Unknown',
  ) {
    super(message);
  }
  static NoPermissions = (m: string) => new LanguageModelError(m, 'NoPermissions');
  static Blocked = (m: string) => new LanguageModelError(m, 'Blocked');
  static NotFound = (m: string) => new LanguageModelError(m, 'NotFound');
}
class CancellationError extends Error {}
const fakeVscode = {
  l10n: { t: l10n.t },
  LanguageModelTextPart,
  LanguageModelToolCallPart,
  LanguageModelToolResultPart,
  LanguageModelPromptTsxPart,
  LanguageModelError,
  CancellationError,
  LanguageModelChatMessageRole: { User: 1, Assistant: 2 },
  LanguageModelChatToolMode: { Auto: 1, Required: 2 },
};
const loader = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
const load = loader._load;
loader._load = function (request: string, parent: unknown, isMain: boolean) {
  return request === 'vscode' ? fakeVscode : load.call(this, request, parent, isMain);
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { respond } = require('../../../src/lm/lmRequests') as typeof import('../../../src/lm/lmRequests');
loader._load = load;

describe('[#39.1] VS Code chat through the provider', () => {
  let gw: RunningGateway;
  let models: Model[];
  before(async () => {
    gw = await startGateway({ chunkSize: 8, slowChunkDelayMs: 40 });
    models = ((await (await fetch(`${gw.url}/v1/models`)).json()) as { data: Model[] }).data;
  });
  after(async () => {
    await gw.close();
  });

  function run(text: string, cancelOnFirstText: boolean) {
    const recorded: Array<Omit<SpendInput, 'keyName'>> = [];
    const client = createGatewayClient({ baseUrl: gw.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'lm-ledger-test', retry: { maxAttempts: 1 } });
    const services = {
      catalog: { getModel: (id: string) => models.find((m) => m.id === id) },
      budget: { allowSend: async () => true },
      getClient: async () => client,
    };
    let cancelled = false;
    const listeners: Array<() => void> = [];
    const token = {
      get isCancellationRequested() {
        return cancelled;
      },
      onCancellationRequested: (l: () => void) => {
        listeners.push(l);
        return { dispose: () => undefined };
      },
    };
    const progress = {
      report: (p: unknown) => {
        if (cancelOnFirstText && p instanceof LanguageModelTextPart && p.value && !cancelled) {
          cancelled = true;
          listeners.forEach((l) => l());
        }
      },
    };
    const messages = [{ role: 1, content: [new LanguageModelTextPart(text)], name: undefined }];
    const done = respond(services as never, { record: (r: Omit<SpendInput, 'keyName'>) => void recorded.push(r) } as never, { id: 'openai/gpt-4o' } as never, messages as never, {} as never, progress as never, token as never);
    return { done, recorded };
  }

  test('[#39.1] a request cancelled while streaming is in the ledger as an estimate marked stopped', async () => {
    const r = run('[[slow]] a long answer please', true);
    await assert.rejects(r.done, CancellationError);
    assert.equal(r.recorded.length, 1);
    assert.equal(r.recorded[0].estimated, 'stopped');
    assert.equal(r.recorded[0].operation, 'vscode-chat');
    assert.ok(r.recorded[0].usage.prompt_tokens > 0);
  });

  test('[#39.1] a completed request is recorded with the gateway\'s usage, not an estimate', async () => {
    const r = run('hello', false);
    await r.done;
    assert.equal(r.recorded.length, 1);
    assert.equal(r.recorded[0].estimated, undefined);
    assert.equal(r.recorded[0].usage.source, 'chat_completions');
  });
});

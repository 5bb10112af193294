/**
 * [#43.3] Reasoning effort in Compare Models: the controller against the local gateway (the options
 * say which models take an effort; the estimate names the rate of the reasoning tokens; the effort goes
 * only to the models that list it, seen at the gateway and priced) and the page (happy-dom): the effort
 * list beside the models, keyboard-operable as a native select, what is sent with it, and the note on
 * the models that get nothing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import { parseCatalog } from '../../../src/core/catalog/catalogStore';
import { CompareController, type CompareDeps } from '../../../src/core/compare/compareController';
import type { Model } from '../../../src/core/gateway/types';
import { isHostToCompareWebview, type CompareModelOption, type HostToCompareWebview } from '../../../src/protocol/compareProtocol';
import { bootWebview, type WebviewPage } from '../webview/domKit';
import type { HTMLSelectElement } from 'happy-dom';

describe('[#43.3] Compare: the controller', () => {
  let gw: RunningGateway;
  let models: Model[];
  before(async () => {
    gw = await startGateway({ chunkSize: 64 });
    models = parseCatalog(await (await fetch(`${gw.url}/v1/models`)).json()).catalog.data;
  });
  after(async () => {
    await gw?.close();
  });

  function harness() {
    const posted: HostToCompareWebview[] = [];
    const client = createGatewayClient({ baseUrl: () => gw.url, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'compare-test', env: {}, retry: { maxAttempts: 1 } });
    let t = Date.now();
    const deps: CompareDeps = {
      getClient: async () => client,
      models: () => models,
      allowSend: async () => true,
      record: () => undefined,
      countTokens: async (_m, text) => ({ tokens: Math.ceil(text.length / 4), counted: true }),
      continueInChat: async () => undefined,
      pickAttachments: async () => [],
      post: (m) => {
        assert.ok(isHostToCompareWebview(m), `a message the page accepts: ${JSON.stringify(m)}`);
        posted.push(m);
      },
      now: () => (t += 5),
    };
    return { controller: new CompareController(deps), posted };
  }

  test('[#43.3] the options say which models take an effort; the estimate names the rate for those that get one', async () => {
    const h = harness();
    await h.controller.handle({ type: 'ready' });
    const init = h.posted.find((m): m is Extract<HostToCompareWebview, { type: 'init' }> => m.type === 'init');
    assert.deepEqual(init?.models.find((m) => m.id === 'openai/gpt-5.1')?.reasoning, { values: ['low', 'medium', 'high'] });
    assert.equal(init?.models.find((m) => m.id === 'openai/gpt-4.1')?.reasoning, undefined);
    await h.controller.handle({ type: 'estimate', models: ['openai/gpt-5.1', 'openai/gpt-4.1'], prompt: 'Why is the sky blue?', systemPrompt: '', effort: 'high' });
    const est = h.posted.filter((m): m is Extract<HostToCompareWebview, { type: 'estimate' }> => m.type === 'estimate').at(-1);
    assert.match(est?.perModel.find((p) => p.model === 'openai/gpt-5.1')?.text ?? '', /reasoning tokens not included: billed as output at 10(\.00)? credits \/ 1M tokens/);
    assert.doesNotMatch(est?.perModel.find((p) => p.model === 'openai/gpt-4.1')?.text ?? '', /reasoning/);
  });

  test('[#43.3] Send: the effort goes to the model that lists it and to no other, and its reasoning tokens are counted and priced', async () => {
    gw.events.clear();
    const h = harness();
    await h.controller.handle({ type: 'ready' });
    await h.controller.handle({ type: 'send', models: ['openai/gpt-5.1', 'openai/gpt-4.1'], prompt: 'Why is the sky blue?', systemPrompt: '', effort: 'high' });
    const seen = gw.events.list('chat-request');
    assert.equal(seen.find((e) => e.model === 'openai/gpt-5.1')?.reasoningEffort, 'high');
    assert.equal('reasoningEffort' in (seen.find((e) => e.model === 'openai/gpt-4.1') ?? {}), false);
    const done = h.posted.filter((m): m is Extract<HostToCompareWebview, { type: 'columnDone' }> => m.type === 'columnDone');
    const first = done.find((d) => d.column === 0);
    assert.equal(first?.stats.reasoningTokens, 1024);
    assert.ok(first?.stats.credits, 'priced');
  });
});

describe('[#43.3] Compare: the page', () => {
  let page: WebviewPage;
  before(async () => {
    page = await bootWebview('src/webview/compare/main.ts', { width: 320 });
  });
  after(() => page.close());

  const TAKES: CompareModelOption = { id: 'o/r', label: 'R', deprecated: false, rates: '', reasoning: { values: ['low', 'high'] } };
  const PLAIN: CompareModelOption = { id: 'o/p', label: 'P', deprecated: false, rates: '' };
  const ODD: CompareModelOption = { id: 'o/x', label: 'X', deprecated: false, rates: '', reasoning: { unknown: 'reasoning' } };
  const init = (models: CompareModelOption[], selected: string[]) => page.receive({ type: 'init', models, selected, systemPrompt: '', attachments: [] });

  test('[#43.3] no selected model takes an effort: no list', async () => {
    await init([PLAIN, { ...PLAIN, id: 'o/q' }], ['o/p', 'o/q']);
    assert.equal(page.byId('effort-row').hidden, true);
  });

  test('[#43.3] a labelled native select (keyboard-operable) with Model default and the values; Send carries the choice, and the model that does not list it is named', async () => {
    await init([TAKES, PLAIN], ['o/r', 'o/p']);
    const row = page.byId('effort-row');
    assert.equal(row.hidden, false);
    const select = page.byId('effort') as unknown as HTMLSelectElement;
    assert.equal(select.tagName, 'SELECT');
    assert.equal(page.document.querySelector('label[for=effort]')?.textContent, 'Reasoning effort');
    assert.deepEqual([...select.options].map((o) => o.value), ['', 'low', 'high']);
    select.value = 'high';
    select.dispatchEvent(new page.window.Event('change', { bubbles: true }));
    assert.match(page.byId('effort-note').textContent ?? '', /o\/p: takes no reasoning effort "high"; nothing is sent\./);
    (page.byId('prompt') as unknown as { value: string }).value = 'Why?';
    page.byId('send').click();
    const sent = page.postedOf<{ type: 'send'; effort?: string; models: string[] }>('send').at(-1);
    assert.equal(sent?.effort, 'high');
  });

  test('[#43.3] Model default sends no effort field', async () => {
    const select = page.byId('effort') as unknown as HTMLSelectElement;
    select.value = '';
    select.dispatchEvent(new page.window.Event('change', { bubbles: true }));
    page.byId('send').click();
    assert.equal('effort' in (page.postedOf('send').at(-1) ?? {}), false);
  });

  test('[#43.3] a model described in a form this version does not read is named in a visible note; no value comes from it', async () => {
    await init([ODD, PLAIN], ['o/x', 'o/p']);
    assert.equal(page.byId('effort-row').hidden, false, 'said, not hidden');
    const select = page.byId('effort') as unknown as HTMLSelectElement;
    assert.deepEqual([...select.options].map((o) => o.value), ['']);
    assert.equal(select.disabled, true);
    assert.match(page.byId('effort-note').textContent ?? '', /o\/x: the catalog describes its reasoning setting in a form this version does not read; nothing is sent\./);
  });
});

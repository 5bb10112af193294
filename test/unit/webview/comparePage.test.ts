/**
 * The Compare Models page (src/webview/compare/main.ts) booted in a DOM (#41.10): the model lists and
 * the cost before sending name models as people read them (their names), not by catalog id.
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HTMLElement, HTMLSelectElement } from 'happy-dom';
import { bootWebview, type WebviewPage } from './domKit';

let page: WebviewPage | undefined;
afterEach(async () => {
  await page?.close();
  page = undefined;
});

const MODELS = [
  { id: 'openai/gpt-5-mini', label: 'GPT-5 mini', deprecated: false, rates: 'input 0.25 credits / 1M tokens' },
  { id: 'anthropic/claude-haiku-4-5', label: 'Claude Haiku 4.5', deprecated: true, rates: 'input 1 credit / 1M tokens' },
  { id: 'acme/chat', label: 'Chat', deprecated: false, rates: '' },
  { id: 'other/chat', label: 'Chat', deprecated: false, rates: '' },
  { id: 'bare/model-id', label: 'bare/model-id', deprecated: false, rates: '' },
];

test('[#41.10] the model lists show names (the id only to tell two equal names apart, and in the tooltip); the estimate names models too', async () => {
  page = await bootWebview('src/webview/compare/main.ts');
  await page.receive({ type: 'init', models: MODELS, selected: ['openai/gpt-5-mini', 'anthropic/claude-haiku-4-5'], systemPrompt: '', attachments: [] });
  const selects = [...page.document.querySelectorAll<HTMLSelectElement>('select[data-slot]')];
  assert.equal(selects.length, 2);
  const options = [...selects[0].querySelectorAll<HTMLElement>('option')];
  assert.deepEqual(
    options.map((o) => o.textContent),
    ['GPT-5 mini', 'Claude Haiku 4.5 (deprecated)', 'Chat (acme/chat)', 'Chat (other/chat)', 'bare/model-id'],
  );
  assert.deepEqual(options.map((o) => o.getAttribute('value')), MODELS.map((m) => m.id), 'the value stays the id the host needs');
  assert.equal(options[0].getAttribute('title'), 'openai/gpt-5-mini: input 0.25 credits / 1M tokens');
  assert.equal(selects[1].value, 'anthropic/claude-haiku-4-5');

  await page.receive({ type: 'estimate', total: '0.3 credits', counted: true, perModel: [{ model: 'openai/gpt-5-mini', text: '0.1 credits' }, { model: 'anthropic/claude-haiku-4-5', text: '0.2 credits' }] });
  const estimate = page.document.body.textContent ?? '';
  assert.match(estimate, /GPT-5 mini: 0\.1 credits; Claude Haiku 4\.5 \(deprecated\): 0\.2 credits/);
  assert.doesNotMatch(estimate, /openai\/gpt-5-mini:/);
});

/**
 * [#43.3] The reasoning-effort menu of the chat (src/chat/editorHost.ts pickReasoningEffort) against the
 * vscode double: "Model default" first (nothing sent), then the catalog's values, the current one
 * checked, how reasoning is billed as the placeholder; Escape changes nothing.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatEditorActions } from '../../../../src/chat/editorHost';

beforeEach(() => double.reset());

const actions = () => new ChatEditorActions(() => undefined);
const choice = (current: string | undefined) => ({
  model: 'GPT-5.1',
  values: ['low', 'medium', 'high'],
  current,
  costNote: 'Reasoning tokens are billed as output at 10 credits / 1M tokens; the cost shown before sending does not include them.',
});

test('[#43.3] the menu lists Model default then the values, marks the current one, and says how reasoning is billed', async () => {
  double.answer((shown) => (shown as { labels: string[] }).labels.find((l) => l.endsWith('high')));
  assert.deepEqual(await actions().pickReasoningEffort(choice('medium')), { value: 'high' });
  const [pick] = double.quickPicks;
  assert.deepEqual(pick.labels, ['Model default', 'low', '$(check) medium', 'high']);
  assert.equal(pick.options.title, 'Reasoning Effort: GPT-5.1');
  assert.match(String(pick.options.placeHolder), /billed as output at 10 credits \/ 1M tokens/);
});

test('[#43.3] Model default answers null (nothing sent); it is the one checked when no effort is chosen', async () => {
  double.answer((shown) => (shown as { labels: string[] }).labels[0]);
  assert.deepEqual(await actions().pickReasoningEffort(choice(undefined)), { value: null });
  assert.equal(double.quickPicks[0].labels[0], '$(check) Model default');
});

test('[#43.3] Escape changes nothing', async () => {
  assert.equal(await actions().pickReasoningEffort(choice('low')), undefined);
});

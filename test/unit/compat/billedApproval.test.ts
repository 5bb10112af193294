/**
 * [#39.15] The question before the compatibility check's one billed request: Enter (the default,
 * focused button) does not send it, Escape does not, only the explicit action does; the estimated
 * cost is shown. The fake `vscode` records what the dialog was given (as test/unit/safeDialog.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';

interface Item {
  title: string;
  isCloseAffordance?: boolean;
}
const shown: Array<{ message: string; options: { modal?: boolean; detail?: string }; items: Item[] }> = [];
let answer: (items: Item[]) => Item | undefined = () => undefined;
const dialog = async (message: string, options: { modal?: boolean; detail?: string }, ...items: Item[]) => {
  shown.push({ message, options, items });
  return answer(items);
};
const fakeVscode = { window: { showWarningMessage: dialog, showInformationMessage: dialog, showErrorMessage: dialog }, l10n: { t: (m: string, ...a: unknown[]) => m.replace(/\{(\d+)\}/g, (_x, i: string) => String(a[Number(i)])) } };
const loader = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
const load = loader._load;
loader._load = function (request: string, parent: unknown, isMain: boolean) {
  return request === 'vscode' ? fakeVscode : load.call(this, request, parent, isMain);
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { askBilledProbe } = require('../../../src/compat/billedApproval') as typeof import('../../../src/compat/billedApproval');
loader._load = load;

const offer = { model: 'openai/gpt-5.1', estimateNano: 200_000n, maxTokens: 16 };

test('[#39.15] the billed request is not the default: Enter and Escape send nothing, the first button is "Don\'t Send"', async () => {
  answer = (items) => items.find((i) => !i.isCloseAffordance);
  assert.equal(await askBilledProbe(offer), false);
  answer = () => undefined;
  assert.equal(await askBilledProbe(offer), false);
  const last = shown[shown.length - 1];
  assert.equal(last.options.modal, true);
  assert.equal(last.items[0].title, "Don't Send");
  assert.equal(last.items.length, 2);
  assert.match(last.options.detail ?? '', /0\.0002 credits/);
  assert.match(last.options.detail ?? '', /openai\/gpt-5\.1/);
});

test('[#39.15] only choosing "Send Billed Request" approves it', async () => {
  answer = (items) => items.find((i) => i.title === 'Send Billed Request');
  assert.equal(await askBilledProbe(offer), true);
});

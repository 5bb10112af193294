/**
 * [#40.5] The budget guard (src/platform/budgetService.ts) with the real Services and spend ledger (in
 * a temporary global storage) against the vscode double: the status bar item, the 80 % warning, the
 * over-budget refusal before a send, and only user-level budgets counting.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { glueWorld, until } from '../world';
import { BudgetService, DAILY_KEY } from '../../../../src/platform/budgetService';

const world = glueWorld({ key: false });

/** Spends exactly 1 credit today: 1,000,000 input tokens at a rate of 1 credit per million. */
async function spendOneCredit(): Promise<void> {
  await world.services.spend.recordSpend({ model: 'test/model', operation: 'chat-panel', usage: { prompt_tokens: 1_000_000, completion_tokens: 0, total_tokens: 1_000_000 }, pricing: { input_per_million: '1', output_per_million: '1', pricing_version: '2025-11-01', unit: 'credits' } });
}
const item = () => double.statusBarItems.find((i) => i.id === 'aiGateway.budget')!;
describe('[#40.5] the budget guard', () => {
  test('[#40.5] no budget and nothing spent: the status bar item stays hidden and sends are allowed', async () => {
    assert.equal(await world.services.budget.allowSend('Chat'), true);
    assert.equal(item().visible, false);
    assert.equal(double.messages.length, 0);
  });

  test('[#40.5][#27.5] over the daily budget: the send waits for the modal; Escape refuses it', async () => {
    await spendOneCredit();
    double.setConfig(DAILY_KEY, '0.5', 'global');
    const state = await world.services.budget.check();
    assert.equal(state.check.level, 'over');
    assert.equal(await world.services.budget.allowSend('Summarise the document'), false);
    const m = double.messages.find((x) => x.options.modal)!;
    assert.match(m.message, /The daily budget is used up/);
    assert.equal(m.defaultTitle, 'Open Settings');
    assert.equal(item().visible, true);
    assert.match(item().text, /^\$\(error\) /);
  });

  test('[#40.5] "Send Anyway" sends, and the choice is logged', async () => {
    await spendOneCredit();
    double.setConfig(DAILY_KEY, '0.5', 'global');
    double.answer('Send Anyway');
    assert.equal(await world.services.budget.allowSend('Chat'), true);
    const log = double.outputChannels.find((c) => c.name === 'AI Gateway')!.lines.join('\n');
    assert.match(log, /Budget: "Chat" sent over the daily budget at the user's choice\./);
  });

  test('[#40.5] at 80 % of the budget: a warning, once, and the item in the warning colour', async () => {
    await spendOneCredit();
    double.setConfig(DAILY_KEY, '1.2', 'global');
    await world.services.budget.refresh();
    await world.services.budget.refresh();
    const warnings = double.messages.filter((m) => m.severity === 'warning');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0].message, /^AI Gateway: 80 ?% of the daily budget is spent \(/);
    assert.match(item().text, /^\$\(warning\) .* · local$/);
    assert.equal(await world.services.budget.allowSend('Chat'), true, 'a warning does not block');
  });

  test('[#40.5] a budget set only in the workspace is ignored (a repository cannot lower or raise it)', async () => {
    await spendOneCredit();
    double.setConfig(DAILY_KEY, '0.5', 'workspace');
    assert.equal(world.services.budget.limits().dailyNano, undefined);
    assert.equal(await world.services.budget.allowSend('Chat'), true);
  });

  test('[#40.5] a bad budget value is logged and ignored', async () => {
    double.setConfig(DAILY_KEY, 'five', 'global');
    assert.equal(world.services.budget.limits().dailyNano, undefined);
    await until(() => double.outputChannels.find((c) => c.name === 'AI Gateway')!.lines.some((l) => l.includes('is not a plain decimal number of credits')));
  });

  test('[#40.5] the status bar opens the Usage dashboard', () => {
    assert.ok(world.services.budget instanceof BudgetService);
    assert.equal(item().command, 'aiGateway.usage.show');
    assert.equal(item().name, 'AI Gateway Spend');
  });
});

/**
 * [#40.4] src/platform/budgetRefusal.ts against the vscode double: the over-budget modal's default is
 * Open Settings, and only "Send Anyway" sends.
 */
import { double } from '../vscodeDouble'; // first: points `vscode` at the double
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { askOverBudget } from '../../../src/platform/budgetRefusal';

beforeEach(() => double.reset());

const OVER = { check: { level: 'blocked', which: 'daily', dayNano: 6_000_000_000n, monthNano: 6_000_000_000n }, limits: { dailyNano: 5_000_000_000n }, source: 'ledger' } as never;

describe('[#40.4] the over-budget modal (src/platform/budgetRefusal.ts)', () => {
  test('[#40.4][#27.5] a modal warning whose default (first) button is Open Settings, then Send Anyway', async () => {
    await askOverBudget(OVER, 'Summarise the document');
    const [m] = double.messages;
    assert.equal(m.severity, 'warning');
    assert.equal(m.options.modal, true);
    assert.match(m.message, /The daily budget is used up: 6 credits of 5 credits spent today \(local ledger\)\. Summarise the document was not sent\./);
    assert.deepEqual(m.titles, ['Open Settings', 'Send Anyway']);
    assert.equal(m.defaultTitle, 'Open Settings');
  });

  test('[#40.4] Send Anyway: true, and no settings opened', async () => {
    double.answer('Send Anyway');
    assert.equal(await askOverBudget(OVER, 'Chat'), true);
    assert.equal(double.executed.length, 0);
  });

  test('[#40.4] Open Settings: false, and the budget settings open', async () => {
    double.answer('Open Settings');
    assert.equal(await askOverBudget(OVER, 'Chat'), false);
    assert.deepEqual(double.executed, [{ command: 'workbench.action.openSettings', args: ['aiGateway.budget'] }]);
  });

  test('[#40.4] Escape: false, nothing opened', async () => {
    assert.equal(await askOverBudget(OVER, 'Chat'), false);
    assert.equal(double.executed.length, 0);
  });
});

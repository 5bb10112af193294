/**
 * The over-budget modal of the send guard (src/platform/budgetService.ts allowSend), imported when a
 * send is refused. The default button (Enter) is Open Settings, never Send Anyway: see src/platform/safeDialog.ts.
 */
import * as vscode from 'vscode';
import { askRisky } from './safeDialog';
import { refusalMessage, type BudgetCheck, type BudgetLimits } from '../core/spend/budget';

/** True when the user chose "Send Anyway" for this one send. */
export async function askOverBudget(state: { check: BudgetCheck; limits: BudgetLimits; source: 'ledger' | 'gateway' }, operation: string): Promise<boolean> {
  const OPEN_SETTINGS = vscode.l10n.t('Open Settings');
  const SEND_ANYWAY = vscode.l10n.t('Send Anyway');
  const choice = await askRisky({
    message: refusalMessage(
      state.check,
      state.limits,
      operation,
      state.source === 'gateway' ? vscode.l10n.t('the larger of the gateway’s figure and the local ledger') : vscode.l10n.t('local ledger'),
    ),
    detail: vscode.l10n.t('Raise or clear the budget in the settings (AI Gateway › Budget), or send this one request anyway.'),
    safe: OPEN_SETTINGS,
    risky: [SEND_ANYWAY],
  });
  if (choice === OPEN_SETTINGS) void vscode.commands.executeCommand('workbench.action.openSettings', 'aiGateway.budget');
  return choice === SEND_ANYWAY;
}

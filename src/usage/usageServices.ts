/**
 * The usage feature's host services, one set per extension Services (src/services.ts is shared and
 * being refactored, so these live here and take Services as a parameter):
 *  - `spend.recordSpend(input)`: record a priced reply in the local ledger (src/usage/spendService.ts);
 *  - `budget.allowSend(operation)`: the budget guard to await before a billed send
 *    (src/usage/budgetService.ts).
 * Every surface gets the same instances through `usageServices(services)`.
 */
import type * as vscode from 'vscode';
import type { Services } from '../services';
import { BudgetService } from './budgetService';
import { SpendService } from './spendService';

export interface UsageServices {
  spend: SpendService;
  budget: BudgetService;
}

const instances = new WeakMap<object, UsageServices>();

export function usageServices(services: Services): UsageServices {
  let u = instances.get(services);
  if (!u) {
    const spend = new SpendService(services);
    const budget = new BudgetService(services, spend);
    u = { spend, budget };
    instances.set(services, u);
    const disposables: vscode.Disposable[] = [budget, spend];
    services.context.subscriptions.push({ dispose: () => disposables.forEach((d) => d.dispose()) });
  }
  return u;
}

/**
 * Budgets on the host: the settings `aiGateway.budget.daily` / `aiGateway.budget.monthly` (credits as
 * exact decimal strings; application scope, and only the user-level value is read, so a workspace can
 * never raise or remove them), a status bar item with today's spend against the daily budget, a
 * warning at 80 %, and the send guard.
 *
 * The guard is one call before any billed send:
 *     if (!(await usageServices(services).budget.allowSend('Summarise'))) return;
 * Over budget it refuses with a modal that names the budget and the spend; "Send anyway" lets exactly
 * this one send through (the next one asks again). Spend comes from the local ledger, which every
 * window appends to, so the figure is re-read (at most every RELOAD_MS, and after each local record).
 */
import * as vscode from 'vscode';
import { checkBudget, describeToday, monthStartMs, parseBudget, refusalMessage, spendTotals, type BudgetCheck, type BudgetLimits } from '../core/spend/budget';
import type { Services } from '../services';
import type { SpendService } from './spendService';

export const DAILY_KEY = 'aiGateway.budget.daily';
export const MONTHLY_KEY = 'aiGateway.budget.monthly';
export const SEND_ANYWAY = 'Send anyway';
/** Other windows' spend appears in the status bar within this time (a ledger read, no network). */
const RELOAD_MS = 60_000;

export class BudgetService implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private warnedFor = '';
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly services: Pick<Services, 'log'>,
    private readonly spend: SpendService,
    private readonly now: () => number = Date.now,
  ) {
    this.item = vscode.window.createStatusBarItem('aiGateway.budget', vscode.StatusBarAlignment.Right, 90);
    this.item.name = 'AI Gateway Spend';
    this.item.command = 'aiGateway.usage.show';
    this.disposables.push(
      this.item,
      spend.onDidRecord(() => void this.refresh()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(DAILY_KEY) || e.affectsConfiguration(MONTHLY_KEY)) void this.refresh();
      }),
    );
    this.timer = setInterval(() => void this.refresh(), RELOAD_MS);
    void this.refresh();
  }

  /** The user-level budgets; a workspace or folder value is ignored on purpose. Bad values are logged and ignored. */
  limits(): BudgetLimits {
    const config = vscode.workspace.getConfiguration();
    const read = (key: string): bigint | undefined => {
      const r = parseBudget(config.inspect<string>(key)?.globalValue, key);
      if (r.error) this.services.log.warn(`Budget: ${r.error}`);
      return r.nano;
    };
    return { dailyNano: read(DAILY_KEY), monthlyNano: read(MONTHLY_KEY) };
  }

  async check(): Promise<{ check: BudgetCheck; limits: BudgetLimits }> {
    const now = this.now();
    const read = await this.spend.ledger.read({ fromMs: monthStartMs(now), toMs: now + 1 });
    const totals = spendTotals(read, now);
    const limits = this.limits();
    return { check: checkBudget(limits, totals.dayNano, totals.monthNano), limits };
  }

  /**
   * The send guard. True: go ahead. False: the budget is used up and the user did not choose "Send
   * anyway" (the message said so). A ledger that cannot be read never blocks a send (it is logged).
   */
  async allowSend(operation: string): Promise<boolean> {
    let state;
    try {
      state = await this.check();
    } catch (e) {
      this.services.log.warn(`Budget: could not read the spend ledger (${e instanceof Error ? e.message : String(e)}); not checking.`);
      return true;
    }
    this.show(state.check, state.limits);
    if (state.check.level !== 'over') return true;
    const choice = await vscode.window.showWarningMessage(refusalMessage(state.check, state.limits, operation), { modal: true, detail: 'Raise or clear the budget in the settings (AI Gateway › Budget), or send this one request anyway.' }, SEND_ANYWAY, 'Open Settings');
    if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'aiGateway.budget');
    if (choice === SEND_ANYWAY) {
      this.services.log.info(`Budget: "${operation}" sent over the ${state.check.which} budget at the user's choice.`);
      return true;
    }
    return false;
  }

  async refresh(): Promise<void> {
    try {
      const { check, limits } = await this.check();
      this.show(check, limits);
    } catch (e) {
      this.services.log.warn(`Budget: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private show(check: BudgetCheck, limits: BudgetLimits): void {
    if (limits.dailyNano === undefined && limits.monthlyNano === undefined && check.dayNano === 0n) {
      this.item.hide();
      return;
    }
    const icon = check.level === 'over' ? '$(error)' : check.level === 'warn' ? '$(warning)' : '$(credit-card)';
    this.item.text = `${icon} ${describeToday(check.dayNano, limits.dailyNano)}`;
    this.item.tooltip = `AI Gateway spend from the local ledger (every window of this editor). Click for the Usage dashboard.`;
    this.item.backgroundColor = check.level === 'over' ? new vscode.ThemeColor('statusBarItem.errorBackground') : check.level === 'warn' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
    const day = new Date(this.now()).toISOString().slice(0, 10);
    const mark = `${day}:${check.which ?? ''}:${check.level}`;
    if (check.level === 'warn' && this.warnedFor !== mark) {
      this.warnedFor = mark;
      void vscode.window.showWarningMessage(`AI Gateway: 80 % of the ${check.which} budget is spent (${describeToday(check.dayNano, limits.dailyNano)}).`);
    }
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.disposables.forEach((d) => d.dispose());
  }
}

/**
 * Budgets on the host: the settings `aiGateway.budget.daily` / `aiGateway.budget.monthly` (credits as
 * exact decimal strings; application scope, and only the user-level value is read, so a workspace can
 * never raise or remove them), a status bar item with today's spend against the daily budget, a
 * warning at 80 %, and the send guard.
 *
 * The guard is one call before any billed send:
 *     if (!(await services.budget.allowSend('Summarise'))) return;
 * Over budget it refuses with a modal that names the budget and the spend; "Send Anyway" lets exactly
 * this one send through (the next one asks again). Spend comes from the local ledger, which every
 * window appends to, so the figure is re-read (at most every RELOAD_MS, and after each local record).
 */
import * as vscode from 'vscode';
import { checkBudget, describeToday, formatPercent, guardedSpend, monthStartMs, parseBudget, spendTotals, type BudgetCheck, type BudgetLimits } from '../core/spend/budget';
import { GatewayFigurePoller } from '../core/spend/gatewayFigure';
import { formatCredits } from '../core/pricing';
import { settings } from './config';
import type { AnalyticsQuery, AnalyticsResult } from '../core/usage/analytics';
import type { SpendService } from './spendService';

/** Where the account feature's analytics come from (GET /v1/analytics with the identity token). */
export interface BudgetGatewaySource {
  analytics(query: AnalyticsQuery, signal: AbortSignal): Promise<AnalyticsResult>;
  getJwt(): Promise<string | undefined>;
}

/** Which figure the status bar shows. */
export type SpendSource = 'gateway' | 'ledger';

export const DAILY_KEY = 'aiGateway.budget.daily';
export const MONTHLY_KEY = 'aiGateway.budget.monthly';

/** Other windows' spend appears in the status bar within this time (a ledger read, no network). */
const RELOAD_MS = 60_000;

/** What the budget guard needs besides the ledger (src/services.ts composes it). */
export interface BudgetServiceDeps {
  readonly log: vscode.LogOutputChannel;
}

export class BudgetService implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private warnedFor = '';
  private timer: ReturnType<typeof setInterval> | undefined;
  private poller: GatewayFigurePoller | undefined;

  constructor(
    private readonly services: BudgetServiceDeps,
    private readonly spend: SpendService,
    private readonly now: () => number = Date.now,
  ) {
    this.item = vscode.window.createStatusBarItem('aiGateway.budget', vscode.StatusBarAlignment.Right, 90);
    this.item.name = vscode.l10n.t('AI Gateway Spend');
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

  /**
   * Shows the gateway's figure for today when an identity token and a project are set. The poller
   * asks at most once a minute however often the status bar refreshes.
   */
  useGateway(source: BudgetGatewaySource): vscode.Disposable {
    const poller = new GatewayFigurePoller({
      available: async () => Boolean((await source.getJwt())?.trim()) && settings.analyticsProjectId.get().trim() !== '',
      fetchDay: async (startSec, endSec) => {
        const r = await source.analytics({ projectId: settings.analyticsProjectId.get().trim(), startTime: startSec, endTime: endSec, bucketWidth: '1d', authMethod: 'api_key' }, new AbortController().signal);
        return r.totals.credits_nano;
      },
      now: this.now,
      log: (line) => this.services.log.info(line),
    });
    this.poller = poller;
    const sub = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(settings.analyticsProjectId.key)) {
        poller.reset();
        void this.refresh();
      }
    });
    void this.refresh();
    return {
      dispose: () => {
        sub.dispose();
        if (this.poller === poller) this.poller = undefined;
      },
    };
  }

  /** The token was set or cleared: ask the gateway again on the next refresh. */
  gatewayChanged(): void {
    this.poller?.reset();
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

  /**
   * The budget state. `check` is what the guard goes by: today's spend is the larger of the local
   * ledger and the gateway's last figure (when there is one). `shownDayNano` is what the status bar
   * shows: the gateway's figure when there is one (source 'gateway'), else the ledger's.
   */
  async check(options: { poll?: boolean } = {}): Promise<{ check: BudgetCheck; limits: BudgetLimits; source: SpendSource; shownDayNano: bigint }> {
    const now = this.now();
    const read = await this.spend.ledger.read({ fromMs: monthStartMs(now), toMs: now + 1 });
    const totals = spendTotals(read, now);
    const limits = this.limits();
    const gateway = options.poll ? await this.poller?.poll() : this.poller?.current();
    if (!gateway) return { check: checkBudget(limits, totals.dayNano, totals.monthNano), limits, source: 'ledger', shownDayNano: totals.dayNano };
    const guarded = guardedSpend(totals, gateway.dayNano);
    return { check: checkBudget(limits, guarded.dayNano, guarded.monthNano), limits, source: 'gateway', shownDayNano: gateway.dayNano };
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
    this.show(state);
    if (state.check.level !== 'over') return true;
    // The dialog and its words load only when a send is refused (src/platform/budgetRefusal.ts).
    const sendAnyway = await (await import('./budgetRefusal')).askOverBudget(state, operation);
    if (sendAnyway) this.services.log.info(`Budget: "${operation}" sent over the ${state.check.which} budget at the user's choice.`);
    return sendAnyway;
  }

  async refresh(): Promise<void> {
    try {
      this.show(await this.check({ poll: true }));
    } catch (e) {
      this.services.log.warn(`Budget: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private show({ check, limits, source, shownDayNano }: { check: BudgetCheck; limits: BudgetLimits; source: SpendSource; shownDayNano: bigint }): void {
    if (limits.dailyNano === undefined && limits.monthlyNano === undefined && check.dayNano === 0n && source === 'ledger') {
      this.item.hide();
      return;
    }
    const icon = check.level === 'over' ? '$(error)' : check.level === 'warn' ? '$(warning)' : '$(credit-card)';
    const where = source === 'gateway' ? vscode.l10n.t({ message: 'gateway', comment: ['where the spend figure comes from'] }) : vscode.l10n.t({ message: 'local', comment: ['where the spend figure comes from: the local ledger'] });
    // The last priced reply's exact cost beside the day's total (#43.4): VS Code's chat requests included.
    const last = this.spend.last;
    const lastText = last ? ` · ${vscode.l10n.t({ message: 'last {0}', args: [formatCredits(last.nano)], comment: ['the exact cost of the last request'] })}` : '';
    this.item.text = `${icon} ${describeToday(shownDayNano, limits.dailyNano)}${lastText} · ${where}`;
    this.item.tooltip =
      source === 'gateway'
        ? vscode.l10n.t(
            "Today's AI Gateway spend as the gateway bills it (API-key traffic of the project, asked at most once a minute). Sends are checked against the larger of this and the local ledger. Click for the Usage dashboard.",
          )
        : vscode.l10n.t("Today's AI Gateway spend from the local ledger (every window of this editor). Set an identity token to see the gateway's own figure. Click for the Usage dashboard.");
    if (last) this.item.tooltip = `${this.item.tooltip} ${vscode.l10n.t('Last request: {0} on {1}.', formatCredits(last.nano), last.model)}`;
    this.item.backgroundColor = check.level === 'over' ? new vscode.ThemeColor('statusBarItem.errorBackground') : check.level === 'warn' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
    const day = new Date(this.now()).toISOString().slice(0, 10);
    const mark = `${day}:${check.which ?? ''}:${check.level}`;
    if (check.level === 'warn' && this.warnedFor !== mark) {
      this.warnedFor = mark;
      const spent = describeToday(check.dayNano, limits.dailyNano);
      void vscode.window.showWarningMessage(
        check.which === 'monthly'
          ? vscode.l10n.t('AI Gateway: {0} of the monthly budget is spent ({1}).', formatPercent(80n), spent)
          : vscode.l10n.t('AI Gateway: {0} of the daily budget is spent ({1}).', formatPercent(80n), spent),
      );
    }
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.disposables.forEach((d) => d.dispose());
  }
}

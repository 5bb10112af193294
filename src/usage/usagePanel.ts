/**
 * The Usage dashboard (editor area). Sources: the gateway's GET /v1/analytics when an identity token
 * is set (fetched as documented windows, stitched: src/core/usage/range.ts), and always the local
 * spend ledger; every figure in the page names its source. CSV export goes through a save dialog here
 * on the host. Errors: a 400 names the parameter, 401/403 offer the identity-token command, 503 (and
 * whatever else aiGateway.retry.* allows) is retried with back-off before it is shown.
 */
import * as vscode from 'vscode';
import { checkAnalyticsCredential } from '../core/usage/analytics';
import { bucketsCsv, ledgerEntriesCsv, reconciliationCsv, totalsCsv } from '../core/usage/csv';
import type { SpendEntry } from '../core/spend/ledger';
import { ledgerGroupBy, ledgerResult, resolveRequest, toWireView, type LedgerDimension } from '../core/usage/dashboard';
import { fetchRange } from '../core/usage/range';
import { reconcile } from '../core/usage/reconcile';
import { isGatewayError } from '../core/http/errors';
import type { AnalyticsQuery, AnalyticsResult } from '../core/usage/analytics';
import type { ResolvedRequest } from '../core/usage/dashboard';
import { answerUsage, isUsageWebviewToHost, LEDGER_DIMENSIONS, type DashboardRequest, type HostToUsageWebview, type UsageDataMessage, type UsageExport, type UsageHostHandlers, type UsageWebviewToHost } from '../protocol/usageProtocol';
import { dispatch, type MessageOfType } from '../protocol/declare';
import type { ReconRow } from '../core/usage/reconcile';
import type { RetryInfo } from '../core/http/retry';
import { formatNano } from '../core/pricing';
import { settings } from '../platform/config';
import type { UsageServices } from './registerUsage';
import { loadingBody, newNonce, webviewHtml } from '../webviewKit/html';

export interface UsageSources {
  /** GET /v1/analytics with the stored identity token (src/platform/accountClients.ts). */
  analytics?: (query: AnalyticsQuery, signal: AbortSignal, onRetry?: (info: RetryInfo) => void) => Promise<AnalyticsResult>;
  getJwt?: () => Promise<string | undefined>;
  setTokenCommand?: string;
}


export class UsagePanel {
  private static current: UsagePanel | undefined;
  private readonly panel: vscode.WebviewPanel;
  private last: { resolved: ResolvedRequest; gateway?: AnalyticsResult; ledger: AnalyticsResult; ledgerDims: LedgerDimension[]; recon: ReconRow[]; entries: SpendEntry[] } | undefined;
  private abort: AbortController | undefined;

  static show(services: UsageServices, sources: UsageSources): void {
    if (UsagePanel.current) {
      UsagePanel.current.panel.reveal();
      return;
    }
    UsagePanel.current = new UsagePanel(services, sources);
  }

  private constructor(
    private readonly services: UsageServices,
    private readonly sources: UsageSources,
  ) {
    const root = vscode.Uri.joinPath(services.context.extensionUri, 'dist', 'webview');
    this.panel = vscode.window.createWebviewPanel('aiGateway.usage', vscode.l10n.t('AI Gateway Usage'), vscode.ViewColumn.Active, { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [root] });
    const webview = this.panel.webview;
    webview.html = webviewHtml({
      cspSource: webview.cspSource,
      nonce: newNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'usage.js')).toString(),
      styleUris: [webview.asWebviewUri(vscode.Uri.joinPath(root, 'usage.css')).toString()],
      title: vscode.l10n.t('AI Gateway Usage'),
      body: loadingBody(),
      l10nPage: { dir: root.fsPath, name: 'usage' },
    });
    const subs = [
      webview.onDidReceiveMessage((m: unknown) => {
        if (isUsageWebviewToHost(m)) this.run(m);
        else services.log.warn('Usage dashboard: ignored a message from the page that is not one of the usage protocol\'s (src/protocol/usageProtocol.ts).');
      }),
      // A reply was priced: show it. While the tab is hidden the query waits until it is shown again.
      services.spend.onDidRecord(() => {
        // Before the page's first query there is nothing to refresh; during one, a new query replaces it.
        if (!this.lastRequest) return;
        if (this.panel.visible) this.requery();
        else this.stale = true;
      }),
      this.panel.onDidChangeViewState(() => {
        if (this.panel.visible && this.stale) this.requery();
      }),
    ];
    this.panel.onDidDispose(() => {
      this.abort?.abort();
      subs.forEach((s) => s.dispose());
      UsagePanel.current = undefined;
    });
  }

  private lastRequest: DashboardRequest | undefined;
  private stale = false;

  private requery(): void {
    this.stale = false;
    this.run({ type: 'query', request: this.lastRequest ?? { preset: 'day' } });
  }

  /** Handles a message; a failure is logged and shown in the page instead of being lost. */
  private run(m: UsageWebviewToHost): void {
    this.handle(m).catch((e: unknown) => {
      const message = e instanceof Error ? e.message : String(e);
      this.services.log.warn(`Usage dashboard: ${message}`);
      this.post({ type: 'error', message: vscode.l10n.t('The dashboard could not be updated: {0}', message) });
    });
  }

  private post(m: HostToUsageWebview): void {
    void this.panel.webview.postMessage(m);
  }

  /** One handler per page message (the compiler refuses a map that misses one). */
  private readonly handlers: UsageHostHandlers = {
    query: (m) => this.query(m.request, m),
    export: (m) => this.export(m.what),
    setToken: async () => {
      if (this.sources.setTokenCommand) await vscode.commands.executeCommand(this.sources.setTokenCommand);
      if (this.lastRequest) await this.query(this.lastRequest);
    },
  };

  private handle(m: UsageWebviewToHost): Promise<void> {
    return dispatch(this.handlers, m);
  }

  /** The dashboard for `request`: the answer to the page's query `asked`, or a push (a refresh) without it. */
  private async query(request: DashboardRequest, asked?: MessageOfType<UsageWebviewToHost, 'query'>): Promise<void> {
    this.lastRequest = request;
    const resolved = resolveRequest(request, Date.now());
    if ('error' in resolved) {
      this.post({ type: 'error', message: resolved.error, param: resolved.param });
      return;
    }
    this.abort?.abort();
    const abort = (this.abort = new AbortController());
    this.post({ type: 'loading' });
    const spend = this.services.spend;
    const read = await spend.ledger.read({ fromMs: resolved.startTime * 1000, toMs: resolved.endTime * 1000 });
    const ledgerDims = ledgerGroupBy(resolved.groupBy);
    const ledger = ledgerResult(read, resolved, ledgerDims);
    let gateway: AnalyticsResult | undefined;
    let recon: ReconRow[] = [];
    let gatewayNote: { message: string; credentialAction?: boolean; param?: string; unknown?: boolean } | undefined;
    // The gateway cannot be asked (a refused query or an outage can be retried with the same controls).
    let ledgerOnly = false;
    const jwt = await this.sources.getJwt?.();
    const projectId = settings.analyticsProjectId.get().trim();
    if (!this.sources.analytics || checkAnalyticsCredential(jwt)) {
      ledgerOnly = true;
      gatewayNote = { message: vscode.l10n.t('No identity token is set: showing the local ledger only (this editor’s replies). With a token the dashboard also shows the gateway’s billed usage of the whole account (every client, site and authentication method) and reconciles it with the ledger.'), credentialAction: true };
    } else if (!projectId) {
      ledgerOnly = true;
      gatewayNote = { message: vscode.l10n.t('Set {0} to the project to report on (or run “Show Usage Report” once, which asks for it).', settings.analyticsProjectId.key) };
    } else {
      const analytics = this.sources.analytics;
      const base: AnalyticsQuery & { endTime: number } = {
        projectId,
        startTime: resolved.startTime,
        endTime: resolved.endTime,
        bucketWidth: resolved.bucketWidth,
        groupBy: resolved.groupBy,
        ...(resolved.authMethod ? { authMethod: resolved.authMethod } : {}),
        ...(resolved.actorType ? { actorType: resolved.actorType } : {}),
        ...(resolved.application ? { application: resolved.application } : {}),
        ...(resolved.site ? { siteClientId: resolved.site } : {}),
      };
      try {
        const onRetry = (_p: unknown, { attempt, delayMs, error }: RetryInfo): void =>
          this.post({
            type: 'status',
            message:
              error.status === 503
                ? vscode.l10n.t('The gateway is unavailable (503); retry {0} in {1} s…', attempt, Math.round(delayMs / 1000))
                : error.status
                  ? vscode.l10n.t('The gateway answered {0}; retry {1} in {2} s…', error.status, attempt, Math.round(delayMs / 1000))
                  : vscode.l10n.t('The gateway could not be reached; retry {0} in {1} s…', attempt, Math.round(delayMs / 1000)),
          });
        gateway = await fetchRange(base, { fetchOne: (q, s, r) => analytics(q, s ?? abort.signal, r), signal: abort.signal, onRetry });
        // Reconciliation: API-key traffic by model and day, next to the ledger.
        const daily = await fetchRange({ projectId, startTime: resolved.startTime, endTime: resolved.endTime, bucketWidth: '1d', authMethod: 'api_key', groupBy: ['model'] }, { fetchOne: (q, s, r) => analytics(q, s ?? abort.signal, r), signal: abort.signal, onRetry });
        const versions = new Map<string, string>();
        for (const model of this.services.catalog.models) if (model.pricing?.pricing_version) versions.set(model.id, model.pricing.pricing_version);
        recon = reconcile(await spend.ledger.read({ fromMs: Date.parse(daily.window_start), toMs: Date.parse(daily.window_end) }), daily, versions);
      } catch (e) {
        if (abort.signal.aborted) return;
        const status = isGatewayError(e) ? e.status : undefined;
        const message = e instanceof Error ? e.message : String(e);
        if (e instanceof Error && e.name === 'AnalyticsShapeError') {
          this.services.log.warn(`Usage dashboard: ${message}`);
          gatewayNote = { message: vscode.l10n.t('The gateway’s usage is unknown: {0}. Below is this editor’s local ledger only.', message), unknown: true };
        } else {
          ledgerOnly = status === 401 || status === 403;
          gatewayNote = {
            message: status === 400 ? vscode.l10n.t('The gateway refused the query (400): {0}', message) : status === 401 || status === 403 ? vscode.l10n.t('The gateway refused the identity token ({0}): {1}', status, message) : vscode.l10n.t('Gateway analytics failed: {0}', message),
            credentialAction: status === 401 || status === 403,
            param: status === 400 ? /\b(project_id|start_time|end_time|bucket_width|auth_method|actor_type|application|group_by|client_id)\b/.exec(message)?.[1] : undefined,
          };
        }
      }
    }
    if (abort.signal.aborted) return;
    // When the gateway cannot be asked (no token or project, the token refused) the view is the
    // ledger's (#41.7): the controls it cannot honour are disabled in the page, and dropped from the request kept for a refresh (so a token set later
    // queries what the page shows).
    const controls = !ledgerOnly
      ? undefined
      : {
          groupBy: [...LEDGER_DIMENSIONS],
          filters: false,
          reason: vscode.l10n.t('The local ledger records only the model and the operation of each reply: the filters and the other groupings need the gateway’s analytics (an identity token).'),
        };
    if (ledgerOnly) this.lastRequest = { ...request, authMethod: '', actorType: '', application: '', site: '', groupBy: ledgerDims };
    this.last = { resolved, gateway, ledger, ledgerDims, recon, entries: read.entries };
    const data: UsageDataMessage = {
      type: 'data',
      parts: resolved.parts,
      gateway: gateway ? toWireView(gateway, 'gateway', resolved.groupBy) : undefined,
      ledger: toWireView(ledger, 'ledger', ledgerDims),
      ...(controls ? { controls } : {}),
      gatewayNote,
      skipped: read.skipped,
      recon: recon.map((r) => ({ day: r.day, model: r.model, ledger: formatNano(r.ledgerNano), ledgerRequests: r.ledgerRequests, gateway: formatNano(r.gatewayNano), gatewayRequests: r.gatewayRequests, diff: formatNano(r.diffNano), flagged: r.flagged, explanation: r.explanation })),
    };
    this.post(asked ? answerUsage(asked, data) : data);
  }

  private async export(what: UsageExport): Promise<void> {
    const last = this.last;
    if (!last) return;
    const result = last.gateway ?? last.ledger;
    const groupBy = last.gateway ? last.resolved.groupBy : last.ledgerDims;
    const text = what === 'table' ? totalsCsv(result, groupBy) : what === 'buckets' ? bucketsCsv(result, groupBy) : what === 'entries' ? ledgerEntriesCsv(last.entries) : reconciliationCsv(last.recon);
    const name = `ai-gateway-usage-${what}-${result.window_start.slice(0, 10)}.csv`;
    const exportTitle =
      what === 'table'
        ? vscode.l10n.t('Export table as CSV')
        : what === 'buckets'
          ? vscode.l10n.t('Export buckets as CSV')
          : what === 'entries'
            ? vscode.l10n.t('Export ledger entries as CSV')
            : vscode.l10n.t('Export reconciliation as CSV');
    const uri = await vscode.window.showSaveDialog({ title: exportTitle, filters: { CSV: ['csv'] }, defaultUri: vscode.Uri.joinPath(vscode.workspace.workspaceFolders?.[0]?.uri ?? this.services.context.globalStorageUri, name) });
    if (!uri) return;
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
    const source = last.gateway ? vscode.l10n.t('gateway') : vscode.l10n.t('local ledger');
    const exported =
      what === 'table'
        ? vscode.l10n.t('Exported table ({0}) to {1}.', source, uri.fsPath)
        : what === 'buckets'
          ? vscode.l10n.t('Exported buckets ({0}) to {1}.', source, uri.fsPath)
          : what === 'entries'
            ? vscode.l10n.t('Exported the local ledger’s entries, with their tokens, to {0}.', uri.fsPath)
            : vscode.l10n.t('Exported reconciliation ({0}) to {1}.', source, uri.fsPath);
    this.post({ type: 'status', message: exported });
  }
}

/**
 * The host side of one tool panel, without the editor: answers the webview's messages
 * (src/protocol/toolsProtocol.ts) and enforces what the webview only displays: a Retry of an
 * `ambiguous_outcome` is refused here too (G-MCP-13), one call at a time, exports are redacted.
 * src/mcp/toolPanel.ts wires it to a WebviewPanel; the e2e test wires it to Chromium.
 */
import { dispatch } from '../../protocol/declare';
import type { CallView, HostToWebview, ToolsHostHandlers, ToolView, WebviewToHost } from '../../protocol/toolsProtocol';
import { isAmbiguousOutcome } from './batchPlan';
import { OUTCOME_UNKNOWN_ADVICE } from './errors';
import type { HistoryEntry } from './history';
import type { RunOutcome } from './toolRunner';

/** Why Retry is off for a call that was sent and never answered. */
export const OUTCOME_UNKNOWN_RETRY_REASON =
  'Retry is disabled: this call was sent and no answer came, so the change may still have happened. ' +
  'Running it again could apply it twice. Check the site first; if the change is missing, run the tool again yourself from a new call.';

export function toCallView(e: HistoryEntry): CallView {
  // A sent-but-unanswered call is shown like an ambiguous_outcome tool error: warning banner, the
  // advice in words, and Retry disabled with the reason (the webview renders toolError that way).
  if (e.failure?.outcomeUnknown && !e.toolError) {
    return {
      ...baseView(e),
      toolError: {
        code: 'ambiguous_outcome',
        message: e.failure.message,
        advice: `Outcome unknown. ${OUTCOME_UNKNOWN_ADVICE}\n${e.failure.message}`,
        retryAllowed: false,
        retryReason: OUTCOME_UNKNOWN_RETRY_REASON,
      },
    };
  }
  return baseView(e);
}

function baseView(e: HistoryEntry): CallView {
  return {
    id: e.id,
    tool: e.tool,
    args: e.args,
    startedAt: e.startedAt,
    durationMs: e.durationMs,
    requestIds: e.requestIds,
    result: e.result,
    toolError: e.toolError && {
      code: e.toolError.code,
      message: e.toolError.message,
      advice: e.toolError.advice,
      retryAllowed: e.toolError.retry.allowed,
      retryReason: e.toolError.retry.reason,
    },
    failure: e.failure,
    outputValidation: e.outputValidation,
    truncated: e.truncated,
  };
}

export interface ToolPanelHost {
  post(message: HostToWebview): void;
  toolView(): ToolView;
  run(args: Record<string, unknown>, signal: AbortSignal): Promise<RunOutcome>;
  /** This tool's calls, newest first. */
  history(): readonly HistoryEntry[];
  entry(id: string): HistoryEntry | undefined;
  exportRequest(args: Record<string, unknown>, format: 'jsonrpc' | 'curl'): Promise<string>;
  copy(text: string, what: 'jsonrpc' | 'curl' | 'text'): Promise<void>;
  openLink(uri: string): Promise<void>;
  /** Opens a site's details (GET /v1/sites/{site_identifier}, read-only). */
  showSiteDetails?(siteId: string): Promise<void>;
}

export class ToolPanelController {
  private running: AbortController | undefined;

  constructor(
    private readonly host: ToolPanelHost,
    private pendingLoad?: string,
  ) {}

  private historyViews(): CallView[] {
    return this.host.history().slice(0, 50).map(toCallView);
  }

  refreshHistory(): void {
    this.host.post({ type: 'history', history: this.historyViews() });
  }

  load(callId: string): void {
    const entry = this.host.entry(callId);
    if (!entry) return;
    this.host.post({ type: 'init', tool: this.host.toolView(), args: entry.args, history: this.historyViews() });
    this.host.post({ type: 'result', call: toCallView(entry) });
  }

  cancel(): void {
    this.running?.abort();
  }

  /** What each page message does (the map is exhaustive: toolsProtocol.ts declares the messages). */
  private readonly handlers: ToolsHostHandlers = {
    ready: () => {
      this.host.post({ type: 'init', tool: this.host.toolView(), history: this.historyViews() });
      if (this.pendingLoad) this.load(this.pendingLoad);
      this.pendingLoad = undefined;
    },
    run: (m) => this.run(m.args),
    cancel: () => this.cancel(),
    retry: (m) => {
      const entry = this.host.entry(m.callId);
      if (!entry) return;
      if (entry.toolError && !entry.toolError.retry.allowed) return this.host.post({ type: 'notRun', reason: entry.toolError.retry.reason });
      if (isAmbiguousOutcome(entry)) return this.host.post({ type: 'notRun', reason: OUTCOME_UNKNOWN_RETRY_REASON });
      return this.run(entry.args);
    },
    load: (m) => this.load(m.callId),
    copy: async (m) => this.host.copy(await this.host.exportRequest(m.args, m.format), m.format),
    copyText: (m) => this.host.copy(m.text, 'text'),
    openLink: (m) => this.host.openLink(m.href),
    siteDetails: async (m) => {
      await this.host.showSiteDetails?.(m.siteId);
    },
  };

  /** A message from the page, already checked with isWebviewToHost (src/mcp/toolPanel.ts). */
  async handle(m: WebviewToHost): Promise<void> {
    await dispatch(this.handlers, m);
  }

  private async run(args: Record<string, unknown>): Promise<void> {
    if (this.running) {
      this.host.post({ type: 'notRun', reason: 'A call of this tool is still running.' });
      return;
    }
    const abort = new AbortController();
    this.running = abort;
    this.host.post({ type: 'running', args });
    try {
      const out = await this.host.run(args, abort.signal);
      if (out.kind === 'invalid') this.host.post({ type: 'invalidArgs', issues: out.issues });
      else if (out.kind === 'notRun') this.host.post({ type: 'notRun', reason: out.reason });
      else this.host.post({ type: 'result', call: toCallView(out.entry) });
    } catch (e) {
      this.host.post({ type: 'notRun', reason: e instanceof Error ? e.message : String(e) });
    } finally {
      this.running = undefined;
    }
  }
}

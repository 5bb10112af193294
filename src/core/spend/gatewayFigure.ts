/**
 * Today's spend as the gateway bills it (vscode-free), for the budget status bar: GET /v1/analytics
 * for the current UTC day, API-key traffic of the reported project, summed exactly. Asked at most
 * once per GATEWAY_POLL_MIN_MS whatever calls it (a refresh timer, every local record, a settings
 * change): an attempt counts whether it succeeded or failed, and only one runs at a time. Without an
 * identity token or a project (`available()` false, checked locally) nothing is asked and the status
 * bar shows the local ledger. A figure from an earlier UTC day is never shown as today's.
 */
import { utcDay } from './ledger';

/** The gateway is asked for today's figure at most this often. */
export const GATEWAY_POLL_MIN_MS = 60_000;

export interface GatewayDayFigure {
  dayNano: bigint;
  /** When the gateway answered (ms). */
  asOfMs: number;
}

export interface GatewayFigureDeps {
  /** True when an identity token and a project are set (no network). */
  available(): Promise<boolean>;
  /** Exact nanocredits billed in [startSec, endSec) for API-key traffic. */
  fetchDay(startSec: number, endSec: number): Promise<bigint>;
  now(): number;
  log?: (line: string) => void;
}

export class GatewayFigurePoller {
  private figure: GatewayDayFigure | undefined;
  private lastAttemptMs: number | undefined;
  private running: Promise<void> | undefined;
  /** Requests made (tests, the log). */
  fetches = 0;

  constructor(private readonly deps: GatewayFigureDeps) {}

  /** The last figure, if it is of today (UTC) and the gateway is still available. */
  current(): GatewayDayFigure | undefined {
    const f = this.figure;
    return f && utcDay(f.asOfMs) === utcDay(this.deps.now()) ? f : undefined;
  }

  /** Forgets the figure and the rate limit's clock: the token or the project changed. */
  reset(): void {
    this.figure = undefined;
    this.lastAttemptMs = undefined;
  }

  /**
   * Asks the gateway when the last attempt is at least GATEWAY_POLL_MIN_MS old, then returns the
   * current figure; otherwise returns it at once. Never rejects (failures are logged).
   */
  async poll(): Promise<GatewayDayFigure | undefined> {
    if (this.running) {
      await this.running;
      return this.current();
    }
    if (!(await this.deps.available())) {
      this.figure = undefined;
      return undefined;
    }
    const now = this.deps.now();
    if (this.lastAttemptMs !== undefined && now - this.lastAttemptMs < GATEWAY_POLL_MIN_MS) return this.current();
    this.lastAttemptMs = now;
    const endSec = Math.floor(now / 1000);
    const startSec = Math.floor(Date.parse(`${utcDay(now)}T00:00:00Z`) / 1000);
    this.fetches++;
    this.running = (async () => {
      try {
        // The first second of a day is an empty window; the analytics end must be after the start.
        const nano = endSec > startSec ? await this.deps.fetchDay(startSec, endSec) : 0n;
        this.figure = { dayNano: nano, asOfMs: now };
      } catch (e) {
        this.figure = undefined;
        this.deps.log?.(`Budget: the gateway's figure for today is unavailable (${e instanceof Error ? e.message : String(e)}); showing the local ledger.`);
      }
    })();
    try {
      await this.running;
    } finally {
      this.running = undefined;
    }
    return this.current();
  }
}

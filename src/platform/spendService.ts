/**
 * The host side of the local spend ledger (src/core/spend/ledger.ts): one ledger directory in the
 * extension's global storage, shared by every surface that prices a reply and by every window.
 *
 * One call records a priced reply: `services.spend.recordSpend({ model, operation,
 * usage, pricing, requestId })`. It takes the catalog's pricing AT THE TIME OF THE REPLY (pass the
 * model's `pricing` as the catalog has it now) and the active key's NAME, never its secret. A failed
 * write is logged and never fails the reply.
 */
import * as vscode from 'vscode';
import { SpendLedger, spendEntry, type SpendInput } from '../core/spend/ledger';
import type { KeyStore } from '../core/keys/keyStore';

export const SPEND_LEDGER_DIR = 'spend-ledger';

/** What the ledger's host side needs (src/services.ts composes it). */
export interface SpendServiceDeps {
  readonly context: Pick<vscode.ExtensionContext, 'globalStorageUri'>;
  readonly log: vscode.LogOutputChannel;
  readonly keys: Pick<KeyStore, 'active'>;
}

export class SpendService implements vscode.Disposable {
  readonly ledger: SpendLedger;
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires after an entry from this window was written, with the entry's operation (`chat-panel`, …). */
  readonly onDidRecord = this.changed.event;

  constructor(private readonly services: SpendServiceDeps) {
    this.ledger = new SpendLedger({
      dir: vscode.Uri.joinPath(services.context.globalStorageUri, SPEND_LEDGER_DIR).fsPath,
      log: (line) => services.log.warn(line),
    });
    // Old days are folded into per-day summaries in the background; failures only cost disk space.
    this.compaction = setTimeout(() => {
      this.compacting = this.ledger.compact(Date.now()).then(
        () => undefined,
        (e: unknown) => services.log.warn(`Spend ledger: compaction failed: ${e instanceof Error ? e.message : String(e)}`),
      );
    }, 10_000);
    this.compaction.unref?.();
  }

  private readonly compaction: ReturnType<typeof setTimeout>;
  /** A compaction under way (it settles: a failure is logged, never thrown). */
  private compacting: Promise<void> | undefined;

  /**
   * Resolves once every entry this window started writing is written (or failed), from any surface (the
   * media commands append to the ledger directly), and a compaction under way has finished.
   */
  async whenIdle(): Promise<void> {
    await this.compacting;
    await this.ledger.idle();
  }

  private lastEntry: { nano: bigint; model: string } | undefined;
  /** The exact cost of the last priced reply this window recorded (any surface, VS Code's chat included; #43.4). */
  get last(): { nano: bigint; model: string } | undefined {
    return this.lastEntry;
  }

  /** Records one priced reply. Resolves when written (or when the failure was logged); never rejects. */
  recordSpend(input: Omit<SpendInput, 'keyName'>): Promise<void> {
    let entry;
    try {
      entry = spendEntry({ ...input, keyName: this.services.keys.active?.name });
    } catch (e) {
      this.services.log.warn(`Spend ledger: could not price a reply of ${input.model}: ${e instanceof Error ? e.message : String(e)}`);
      return Promise.resolve();
    }
    const written = entry;
    return this.ledger.append(entry).then(
      () => {
        if (written.cost_nano !== null) this.lastEntry = { nano: BigInt(written.cost_nano), model: written.model };
        this.changed.fire(written.operation);
      },
      (e: unknown) => this.services.log.warn(`Spend ledger: could not record a reply: ${e instanceof Error ? e.message : String(e)}`),
    );
  }

  /** Same as recordSpend, for callers that do not wait. */
  record(input: Omit<SpendInput, 'keyName'>): void {
    void this.recordSpend(input);
  }

  dispose(): void {
    clearTimeout(this.compaction);
    this.changed.dispose();
  }
}

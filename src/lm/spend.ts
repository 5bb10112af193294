/**
 * The host side of the local spend ledger (src/core/spend/ledger.ts): one ledger file in the
 * extension's global storage, shared by every surface that prices a reply (VS Code's chat through the
 * language model provider now; the chat panel is meant to record through the same service). Records
 * the active key's NAME, never its secret. A failed write is logged and never fails the reply.
 */
import * as vscode from 'vscode';
import { SpendLedger, spendEntry, type SpendInput } from '../core/spend/ledger';
import type { Services } from '../services';

export const SPEND_LEDGER_FILE = 'spend-ledger.jsonl';

export class SpendRecorder {
  readonly ledger: SpendLedger;

  constructor(private readonly services: Pick<Services, 'context' | 'log' | 'keys'>) {
    this.ledger = new SpendLedger({
      file: vscode.Uri.joinPath(services.context.globalStorageUri, SPEND_LEDGER_FILE).fsPath,
      log: (line) => services.log.warn(line),
    });
  }

  record(input: Omit<SpendInput, 'keyName'>): void {
    let entry;
    try {
      entry = spendEntry({ ...input, keyName: this.services.keys.active?.name });
    } catch (e) {
      this.services.log.warn(`Spend ledger: could not price a reply of ${input.model}: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    this.ledger.append(entry).catch((e: unknown) => this.services.log.warn(`Spend ledger: could not record a reply: ${e instanceof Error ? e.message : String(e)}`));
  }
}

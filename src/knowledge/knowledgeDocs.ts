/**
 * The read-only documents of the knowledge feature (KB documents and session events),
 * registered at activation so a restored tab gets an answer; the commands fill them.
 */
import * as vscode from 'vscode';
import { BoundedTexts } from './knowledgeRows';

/** Scheme of the read-only documents this feature opens (KB documents and session events). */
export const KNOWLEDGE_SCHEME = 'aigw-knowledge';
/** Most read-only documents kept in memory at once; the oldest is dropped (it reopens empty). */
const MAX_OPEN_TEXTS = 50;

export class ReadOnlyDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new BoundedTexts(MAX_OPEN_TEXTS);
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? vscode.l10n.t('This document is no longer available. Open it again from its view.');
  }
  set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }
  dispose(): void {
    this.changed.dispose();
  }
}


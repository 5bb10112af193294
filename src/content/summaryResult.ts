/**
 * Where a summary goes: a read-only Markdown document opened beside the editor, with Insert Below,
 * Replace Selection and Copy as notification buttons and as editor-title actions on that document.
 * The setting aiGateway.content.summaryAction picks what happens once it is shown: ask (the buttons),
 * or apply one of the three at once.
 *
 * Imported with the content commands: created on the first Summarise or summary action (src/content/registerContent.ts
 * registers the document provider and the actions' stubs at activation, so a summary tab restored after a
 * reload still says that its summary is gone).
 */
import * as vscode from 'vscode';
import type { CommandId, CommandRegistrar } from '../platform/commands';
import { settings } from '../platform/config';
import { DisposableStore, type IDisposable } from '../core/disposables';
import type { OffsetRange } from '../core/content/placement';
import { documentKind, placeBlock } from '../core/content/insertion';
import { relocateRange, replaceRangeEdit } from '../core/content/placement';
import { proposeOffsetEdits } from './contentRunner';

import { summaryGone, SUMMARY_SCHEME } from './summaryScheme';

export type SummaryAction = 'ask' | 'insertBelow' | 'replaceSelection' | 'copy';

export interface SummaryRecord {
  source: vscode.Uri;
  /** The summarised range, in offsets of the source at `version`. */
  range: OffsetRange;
  version: number;
  wholeDocument: boolean;
  /** The summarised text, to find it again after edits elsewhere in the document. */
  original: string;
  summary: string;
}

const label = () => ({ insertBelow: vscode.l10n.t('Insert Below'), replaceSelection: vscode.l10n.t('Replace Selection'), copy: vscode.l10n.t('Copy') });

/** Creates the summaries of this window (one per activation; see src/content/registerContent.ts). */
export function createSummaryResults(): SummaryResults {
  return new SummaryResults();
}

export class SummaryResults implements vscode.TextDocumentContentProvider, IDisposable {
  private readonly store = new DisposableStore();
  private readonly results = new Map<string, SummaryRecord>();
  private latest: string | undefined;
  /** Summaries shown per source file name: the first is "Summary of hello.md", the next "(2)", "(3)". */
  private readonly shownPerName = new Map<string, number>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** The placement maths (src/core/content) at apply time. */
  constructor() {
    this.store.add(this.changed);
  }

  /** The editor-title and palette actions on a summary (their stubs are registered at activation). */
  registerActions(registerCommand: CommandRegistrar): IDisposable {
    const store = new DisposableStore();
    const command = (id: CommandId, fn: (uri?: vscode.Uri) => unknown) => store.add(registerCommand(id, fn));
    command('aiGateway.content.summary.insertBelow', (uri) => this.apply('insertBelow', uri));
    command('aiGateway.content.summary.replaceSelection', (uri) => this.apply('replaceSelection', uri));
    command('aiGateway.content.summary.copy', (uri) => this.apply('copy', uri));
    return store;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.results.get(uri.toString())?.summary ?? summaryGone();
  }

  /** Opens the summary beside the editor, then follows aiGateway.content.summaryAction. */
  async show(record: SummaryRecord): Promise<void> {
    const name = record.source.path.split('/').pop() || vscode.l10n.t('document');
    // The tab shows the path's last segment: no ".md" added to it (the language is set below), no
    // number on the first summary of a file (not "Summary of hello.md (1).md").
    const nth = (this.shownPerName.get(name) ?? 0) + 1;
    this.shownPerName.set(name, nth);
    const title = nth === 1 ? vscode.l10n.t('Summary of {0}', name) : vscode.l10n.t('Summary of {0} ({1})', name, nth);
    const uri = vscode.Uri.from({ scheme: SUMMARY_SCHEME, path: `/${title.replaceAll('/', '∕')}` });
    this.results.set(uri.toString(), record);
    this.latest = uri.toString();
    void vscode.commands.executeCommand('setContext', 'aiGateway.content.hasSummary', true);
    let doc = await vscode.workspace.openTextDocument(uri);
    // A summary is Markdown whatever it was named after (greeting.ts would otherwise make it TypeScript).
    if (doc.languageId !== 'markdown') doc = await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: true });

    const action = settings.contentSummaryAction.get() as SummaryAction;
    if (action === 'insertBelow' || action === 'copy' || (action === 'replaceSelection' && !record.wholeDocument)) {
      await this.apply(action, uri);
      return;
    }
    const LABEL = label();
    const buttons: string[] = [LABEL.insertBelow, ...(record.wholeDocument ? [] : [LABEL.replaceSelection]), LABEL.copy];
    const ready = record.wholeDocument ? vscode.l10n.t('Summary of the whole of {0} is ready.', name) : vscode.l10n.t('Summary of the selection in {0} is ready.', name);
    const choice = await vscode.window.showInformationMessage(ready, ...buttons);
    if (choice === LABEL.insertBelow) await this.apply('insertBelow', uri);
    else if (choice === LABEL.replaceSelection) await this.apply('replaceSelection', uri);
    else if (choice === LABEL.copy) await this.apply('copy', uri);
  }

  private recordFor(uri: vscode.Uri | undefined): { key: string; record: SummaryRecord } | undefined {
    const active = vscode.window.activeTextEditor?.document.uri;
    const key = uri?.scheme === SUMMARY_SCHEME ? uri.toString() : active?.scheme === SUMMARY_SCHEME ? active.toString() : this.latest;
    const record = key ? this.results.get(key) : undefined;
    return key && record ? { key, record } : undefined;
  }

  async apply(action: Exclude<SummaryAction, 'ask'>, uri?: vscode.Uri): Promise<void> {
    const found = this.recordFor(uri);
    if (!found) {
      void vscode.window.showWarningMessage(vscode.l10n.t('There is no summary to use. Run "AI Gateway: Summarise" first.'));
      return;
    }
    const { record } = found;
    if (action === 'copy') {
      await vscode.env.clipboard.writeText(record.summary);
      vscode.window.setStatusBarMessage(vscode.l10n.t('Summary copied to the clipboard.'), 3000);
      return;
    }
    let doc: vscode.TextDocument;
    try {
      doc = await vscode.workspace.openTextDocument(record.source);
    } catch {
      void vscode.window.showErrorMessage(vscode.l10n.t('{0} can no longer be opened; use Copy instead.', record.source.fsPath));
      return;
    }
    const text = doc.getText();
    if (action === 'replaceSelection' && record.wholeDocument) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Nothing was selected when this summary was made, so there is no selection to replace. Use Insert Below or Copy.'));
      return;
    }
    // After edits, the summarised text is looked up again; a whole document is always "the end".
    const range = record.wholeDocument
      ? { start: Math.min(record.range.start, text.length), end: text.length }
      : doc.version === record.version
        ? record.range
        : relocateRange(text, record.original, record.range);
    if (!range) {
      void vscode.window.showWarningMessage(vscode.l10n.t('The summarised text is no longer in the document, so nothing was changed. Use Copy instead.'));
      return;
    }
    const eol = doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
    // Insert Below: a paragraph of its own after the summarised text (src/core/content/insertion.ts).
    const edit =
      action === 'insertBelow'
        ? placeBlock(text, documentKind(doc.languageId), record.wholeDocument ? { at: 'end' } : { at: 'below', range }, record.summary, eol)
        : replaceRangeEdit(range, record.summary, eol);
    // Shown as a diff first; written (one undo) only when accepted. Discarded, the summary stays available.
    if (!(await proposeOffsetEdits(doc, [edit], action === 'insertBelow' ? vscode.l10n.t('summary below the text') : vscode.l10n.t('summary in place of the selection')))) return;
    if (action === 'replaceSelection') this.results.delete(found.key);
    const editor = await vscode.window.showTextDocument(doc, { preserveFocus: false, preview: false, viewColumn: vscode.window.visibleTextEditors.find((e) => e.document === doc)?.viewColumn });
    const start = doc.positionAt(edit.start);
    editor.revealRange(new vscode.Range(start, doc.positionAt(edit.start + edit.newText.length)), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  dispose(): void {
    this.results.clear();
    this.store.dispose();
  }
}

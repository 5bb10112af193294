/**
 * The model-id providers and diagnostics (imported on first use by ./registerModelIds.ts). Everything is
 * judged from the cached catalog (`services.catalog.models`), so it works offline and sends nothing.
 * Diagnostics: open documents only, debounced, a bounded scan (src/core/modelIds/idScanner.ts); the
 * hover and completion read at most a few hundred characters around the cursor.
 *
 * The setting `aiGateway.modelIds.enabled` is language-overridable (`"[php]": {...}`), so it is read
 * per document through `getConfiguration(section, document)` rather than the global `settings` reader.
 */
import * as vscode from 'vscode';
import { findAlternative } from '../core/catalog/alternative';
import { DisposableStore, type IDisposable } from '../core/disposables';
import type { Capability } from '../core/gateway/types';
import { scanModelIds } from '../core/modelIds/idScanner';
import { CatalogIndex, findingsFor, type IdFinding } from '../core/modelIds/modelIdFindings';
import { completionSpot, hoverMarkdown, idCompletions } from '../core/modelIds/modelIdInfo';
import type { Services } from '../services';
import { PerDocumentDebounce } from '../platform/documentDebounce';

export const MODEL_ID_SOURCE = 'AI Gateway models';
export const ENABLED_KEY = 'modelIds.enabled';
const DEBOUNCE_MS = 300;
/** Characters read around the cursor for a hover or a completion. */
const WINDOW_BEFORE = 600;
const WINDOW_AFTER = 300;
const SCHEMES = new Set(['file', 'untitled']);

const SEVERITY: Record<IdFinding['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
};

/** The arguments of aiGateway.modelIds.replaceInWorkspace. */
export interface ReplaceInWorkspaceArgs {
  from: string;
  to: string;
}

export class ModelIdsFeature implements IDisposable {
  private readonly store = new DisposableStore();
  private readonly collection = vscode.languages.createDiagnosticCollection('aiGateway.modelIds');
  private readonly debounce = new PerDocumentDebounce<vscode.TextDocument>(DEBOUNCE_MS, (doc) => this.update(doc));
  private index: CatalogIndex | undefined;
  /** Documents whose last pass left unknown ids unchecked (its budget spent), with how many; logged once per series. */
  private readonly unfinished = new Map<string, number>();

  constructor(private readonly services: Pick<Services, 'catalog' | 'keys' | 'log'>) {
    this.store.add(this.collection);
    this.store.add(vscode.workspace.onDidOpenTextDocument((d) => this.update(d)));
    this.store.add(vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)));
    this.store.add(vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri)));
    this.store.add(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`aiGateway.${ENABLED_KEY}`)) this.refreshAll();
      }),
    );
    this.store.add(
      services.catalog.onDidChange(() => {
        if (this.index?.models !== services.catalog.models) {
          this.index = undefined;
          this.refreshAll();
        }
      }),
    );
    // Never fetched on this machine (no cache yet) and a key is set: fetch once, as the Models view
    // would; after that the cached catalog is used, offline too.
    if (services.catalog.state.source === 'none' && services.keys.active) void services.catalog.ensureLoaded();
    this.refreshAll();
  }

  private catalog(): CatalogIndex | undefined {
    const models = this.services.catalog.models;
    if (models.length === 0) return undefined;
    if (this.index?.models !== models) this.index = new CatalogIndex(models);
    return this.index;
  }

  enabledFor(doc: vscode.TextDocument): boolean {
    if (!SCHEMES.has(doc.uri.scheme)) return false;
    return vscode.workspace.getConfiguration('aiGateway', doc).get<boolean>(ENABLED_KEY, true) !== false;
  }

  private refreshAll(): void {
    for (const d of vscode.workspace.textDocuments) this.update(d);
  }

  private schedule(doc: vscode.TextDocument): void {
    if (!SCHEMES.has(doc.uri.scheme)) return;
    this.debounce.schedule(doc);
  }

  private forget(uri: vscode.Uri): void {
    this.debounce.forget(uri);
    this.unfinished.delete(uri.toString());
    this.collection.delete(uri);
  }

  update(doc: vscode.TextDocument): void {
    const index = this.catalog();
    if (doc.isClosed || !index || !this.enabledFor(doc)) {
      this.collection.delete(doc.uri);
      return;
    }
    const result = findingsFor(doc.getText(), index, Date.now());
    const t = result.truncated;
    if (this.debounce.firstNote(doc.uri, t !== undefined) && t) {
      this.services.log.info(`Model ids: the check of ${vscode.workspace.asRelativePath(doc.uri)} stopped ${t.reason === 'chars' ? 'at its size limit' : 'at its limit of ids'} (offset ${t.scannedChars}); ids after that are not checked.`);
    }
    // The pass spent its closeness budget (issue 40 item 12): say so once, and go on in the next pass,
    // which starts from the answers this one cached, for as long as each pass gets further.
    const u = result.unchecked;
    const key = doc.uri.toString();
    if (u) {
      const last = this.unfinished.get(key);
      if (last === undefined) this.services.log.info(`Model ids: ${u.ids} unknown ids of ${vscode.workspace.asRelativePath(doc.uri)} from offset ${u.firstOffset} are not yet compared with the catalog (the pass's budget); the next passes go on.`);
      this.unfinished.set(key, u.ids);
      if (last === undefined || u.ids < last) this.debounce.schedule(doc);
    } else this.unfinished.delete(key);
    this.collection.set(
      doc.uri,
      result.findings.map((f) => {
        const d = new vscode.Diagnostic(new vscode.Range(doc.positionAt(f.start), doc.positionAt(f.end)), f.message, SEVERITY[f.severity]);
        d.source = MODEL_ID_SOURCE;
        d.code = `model-${f.kind}`;
        if (f.kind !== 'unknown') d.tags = [vscode.DiagnosticTag.Deprecated];
        return d;
      }),
    );
  }

  /** The text around `pos` and the offset of `pos` in it: hovers and completions never read more. */
  private around(doc: vscode.TextDocument, pos: vscode.Position): { text: string; at: number; base: number } {
    const offset = doc.offsetAt(pos);
    const base = Math.max(0, offset - WINDOW_BEFORE);
    const text = doc.getText(new vscode.Range(doc.positionAt(base), doc.positionAt(offset + WINDOW_AFTER)));
    return { text, at: offset - base, base };
  }

  provideHover(doc: vscode.TextDocument, pos: vscode.Position, _token?: vscode.CancellationToken): vscode.Hover | undefined {
    const index = this.catalog();
    if (!index || !this.enabledFor(doc)) return undefined;
    const { text, at, base } = this.around(doc, pos);
    const token = scanModelIds(text).tokens.find((t) => t.start <= at && at <= t.end);
    const model = token && index.get(token.text);
    if (!token || !model) return undefined;
    const md = new vscode.MarkdownString(hoverMarkdown(model, Date.now(), index.ids), true);
    md.isTrusted = false;
    return new vscode.Hover(md, new vscode.Range(doc.positionAt(base + token.start), doc.positionAt(base + token.end)));
  }

  provideCompletionItems(doc: vscode.TextDocument, pos: vscode.Position, _token?: vscode.CancellationToken): vscode.CompletionItem[] | undefined {
    const index = this.catalog();
    if (!index || !this.enabledFor(doc)) return undefined;
    const { text, at, base } = this.around(doc, pos);
    const spot = completionSpot(text, at);
    if (!spot) return undefined;
    // An id-shaped string that is not a model id (a path, a MIME type) gets no list unless it starts like one.
    if (spot.typed.includes('/') && !index.list.some((id) => id.startsWith(spot.typed.slice(0, spot.typed.indexOf('/') + 1)))) return undefined;
    const range = new vscode.Range(doc.positionAt(base + spot.start), doc.positionAt(base + spot.end));
    return idCompletions(index.models, Date.now(), spot.capability as Capability | undefined, index.ids).map((c) => {
      const item = new vscode.CompletionItem({ label: c.label, description: c.detail }, vscode.CompletionItemKind.Value);
      item.detail = c.detail;
      item.documentation = new vscode.MarkdownString(c.documentation, true);
      item.range = range;
      item.insertText = c.id;
      item.filterText = c.id;
      item.sortText = c.sortText;
      if (c.deprecated) item.tags = [vscode.CompletionItemTag.Deprecated];
      return item;
    });
  }

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const index = this.catalog();
    if (!index) return [];
    const actions: vscode.CodeAction[] = [];
    for (const d of context.diagnostics) {
      if (d.source !== MODEL_ID_SOURCE) continue;
      const id = doc.getText(d.range);
      const model = index.get(id);
      const to = model ? findAlternative(model, index.ids).modelId : index.matcher.closest(id);
      if (!to) continue;
      const here = new vscode.CodeAction(vscode.l10n.t('Replace with {0}', to), vscode.CodeActionKind.QuickFix);
      here.edit = new vscode.WorkspaceEdit();
      here.edit.replace(doc.uri, d.range, to);
      here.diagnostics = [d];
      here.isPreferred = true;
      actions.push(here);
      if (model) {
        const everywhere = new vscode.CodeAction(vscode.l10n.t('Replace {0} with {1} in the workspace…', id, to), vscode.CodeActionKind.QuickFix);
        const args: ReplaceInWorkspaceArgs = { from: id, to };
        everywhere.command = { command: 'aiGateway.modelIds.replaceInWorkspace', title: everywhere.title, arguments: [args] };
        everywhere.diagnostics = [d];
        actions.push(everywhere);
      }
    }
    return actions;
  }

  dispose(): void {
    this.debounce.dispose();
    this.store.dispose();
  }
}

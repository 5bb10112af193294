/**
 * Diagnostics for images with missing or empty alt text in Markdown and HTML (setting
 * aiGateway.content.altTextDiagnostics, on by default), with the quick fixes "Generate alt text" and
 * "Generate alt text for all images in this file". Scanning is local and cheap; nothing is sent until
 * the user picks a fix.
 */
import * as vscode from 'vscode';
import { affects, settings } from '../platform/config';
import { DisposableStore, type IDisposable } from '../core/disposables';
import type { Logger } from '../core/log';
import type { ImageTarget } from './altTextCommands';
import { PerDocumentDebounce } from '../platform/documentDebounce';

export const ALT_DIAGNOSTIC_SOURCE = 'AI Gateway';
const LANGUAGES = ['markdown', 'html'];
const DEBOUNCE_MS = 300;

/** The image scanner, loaded on the first check (not needed to activate: about 8 KB of the activation entry). */
type Scanner = typeof import('../core/content/imageRefs');

export class AltTextDiagnostics implements vscode.CodeActionProvider, IDisposable {
  static readonly providedCodeActionKinds = [vscode.CodeActionKind.QuickFix];
  private readonly store = new DisposableStore();
  private readonly collection = vscode.languages.createDiagnosticCollection('aiGateway.altText');
  private readonly debounce = new PerDocumentDebounce<vscode.TextDocument>(DEBOUNCE_MS, (doc) => this.update(doc));
  private scanner: Scanner | undefined;
  private scannerLoading: Promise<Scanner> | undefined;
  private disposed = false;

  constructor(private readonly log: Logger) {
    this.store.add(this.collection);
    this.store.add(vscode.workspace.onDidOpenTextDocument((d) => this.update(d)));
    this.store.add(vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)));
    this.store.add(vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri)));
    this.store.add(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affects(e, settings.contentAltTextDiagnostics)) this.refreshAll();
      }),
    );
    this.store.add(vscode.languages.registerCodeActionsProvider(LANGUAGES.map((language) => ({ language })), this, { providedCodeActionKinds: AltTextDiagnostics.providedCodeActionKinds }));
    this.refreshAll();
  }

  private enabled(): boolean {
    return settings.contentAltTextDiagnostics.get();
  }

  private refreshAll(): void {
    if (!this.enabled()) {
      this.collection.clear();
      return;
    }
    for (const d of vscode.workspace.textDocuments) this.update(d);
  }

  private schedule(doc: vscode.TextDocument): void {
    if (!LANGUAGES.includes(doc.languageId)) return;
    this.debounce.schedule(doc);
  }

  private forget(uri: vscode.Uri): void {
    this.debounce.forget(uri);
    this.collection.delete(uri);
  }

  update(doc: vscode.TextDocument): void {
    if (!LANGUAGES.includes(doc.languageId) || !this.enabled() || doc.isClosed) {
      this.collection.delete(doc.uri);
      return;
    }
    const scanner = this.scanner;
    if (!scanner) {
      // The first check loads the scanner, then runs (on the document as it is then).
      this.scannerLoading ??= import('../core/content/imageRefs').then((m) => (this.scanner = m));
      this.scannerLoading.then(
        () => {
          if (!this.disposed) this.update(doc);
        },
        (e: unknown) => this.log.warn(`Alt-text check unavailable: ${e instanceof Error ? e.message : String(e)}`),
      );
      return;
    }
    const syntax = scanner.syntaxForLanguage(doc.languageId);
    if (!syntax) {
      this.collection.delete(doc.uri);
      return;
    }
    // Bounded: a generated page or a hostile file costs at most the scan limits, on every keystroke.
    const scan = scanner.scanImagesNeedingAlt(doc.getText(), syntax, scanner.DEFAULT_SCAN_LIMITS);
    // The log says a scan hit a limit once per document, not per keystroke.
    const t = scan.truncated;
    if (this.debounce.firstNote(doc.uri, t !== undefined) && t) {
      this.log.info(
        `Alt-text check of ${vscode.workspace.asRelativePath(doc.uri)} stopped ${t.reason === 'chars' ? `after the first ${t.limit} characters` : `after ${t.limit} images`} ` +
          `(offset ${t.scannedChars}); images after that are not checked.`,
      );
    }
    const diagnostics = scan.problems.map(({ ref, problem }) => {
      const d = new vscode.Diagnostic(
        new vscode.Range(doc.positionAt(ref.range.start), doc.positionAt(ref.range.end)),
        problem === 'missing' ? vscode.l10n.t('Image has no alt text.') : vscode.l10n.t('Image has empty alt text (right only for decorative images).'),
        vscode.DiagnosticSeverity.Warning,
      );
      d.source = ALT_DIAGNOSTIC_SOURCE;
      d.code = problem === 'missing' ? 'missing-alt' : 'empty-alt';
      return d;
    });
    this.collection.set(doc.uri, diagnostics);
  }

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const ours = context.diagnostics.filter((d) => d.source === ALT_DIAGNOSTIC_SOURCE);
    if (ours.length === 0) return [];
    const actions = ours.map((d) => {
      const a = new vscode.CodeAction(vscode.l10n.t('Generate alt text'), vscode.CodeActionKind.QuickFix);
      const target: ImageTarget = { uri: doc.uri, offset: doc.offsetAt(d.range.start) };
      a.command = { command: 'aiGateway.content.generateAltText', title: vscode.l10n.t('Generate alt text'), arguments: [target] };
      a.diagnostics = [d];
      a.isPreferred = true;
      return a;
    });
    const all = this.collection.get(doc.uri)?.length ?? 0;
    if (all > 1) {
      const a = new vscode.CodeAction(vscode.l10n.t('Generate alt text for all {0} images in this file', all), vscode.CodeActionKind.QuickFix);
      a.command = { command: 'aiGateway.content.fixAllAltText', title: vscode.l10n.t('Generate alt text for all images in this file'), arguments: [doc.uri] };
      a.diagnostics = [...(this.collection.get(doc.uri) ?? [])];
      actions.push(a);
    }
    return actions;
  }

  dispose(): void {
    this.disposed = true;
    this.debounce.dispose();
    this.store.dispose();
  }
}

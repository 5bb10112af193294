/**
 * Cache exclusions as an editable document: `ai-gateway-hosting:/installs/<install id>/cache-exclusions.jsonc`.
 * Reading GETs the list; saving parses the document and PUTs the full replacement (H-CE-1).
 *
 * Contract of a failed save (bad JSON, bad type, invalid regex, 409 while the install is transferable,
 * any HTTP error): writeFile throws, so VS Code keeps the document dirty with the user's text; the
 * reason is shown in our own error message (not only VS Code's "Failed to save"), and a problem with one
 * entry (an invalid pattern, found here or named by the server's errors[].field) is also marked on its
 * line as a diagnostic (#29.10), which edits re-check as you type. Validation failures send nothing, and
 * the server answers 409 without changing anything (H-CE-6). The cached server copy is only replaced
 * after a successful PUT.
 */
import * as vscode from 'vscode';
// The document format and error words are imported on the first read or write (`core()`).
import type { CacheExclusion } from '../core/account/hosting';
import type { AccountClients } from '../platform/accountClients';
import { withTokenSignal } from '../platform/cancellation';
import { confirmRisky } from '../platform/safeDialog';

import { HOSTING_SCHEME } from './lazyExclusionsFs';

export { HOSTING_SCHEME };

interface Entry {
  data: Uint8Array;
  server: CacheExclusion[];
  ctime: number;
  mtime: number;
}

export function exclusionsUri(installId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: HOSTING_SCHEME, path: `/installs/${installId.toLowerCase()}/cache-exclusions.jsonc` });
}

/** The exclusions document's logic, imported on the first read or write (not needed at activation). */
async function loadExclusionsCore() {
  const [document, hosting, read] = await Promise.all([import('../core/account/exclusionsDocument'), import('../core/account/hosting'), import('../core/account/exclusionsRead')]);
  return { ...document, isUuid: hosting.isUuid, prepareExclusionsForSend: hosting.prepareExclusions, removedExclusions: read.removedExclusions, isExclusionsReadUnrecognised: read.isExclusionsReadUnrecognised };
}
type ExclusionsCore = Awaited<ReturnType<typeof loadExclusionsCore>>;

/** The structural shape of core/account/exclusionsRead.ts ExclusionsReadUnrecognisedError (loaded late). */
export interface UnrecognisedAnswer {
  message: string;
  raw: string;
}

/** Read-only documents holding a raw hosting API answer that was not recognised. */
const RAW_SCHEME = 'ai-gateway-hosting-answer';

function installIdOf(core: ExclusionsCore, uri: vscode.Uri): string {
  const m = /^\/installs\/([^/]+)\/cache-exclusions\.jsonc$/.exec(uri.path);
  if (!m || !core.isUuid(m[1])) throw vscode.FileSystemError.FileNotFound(uri);
  return m[1];
}

export class CacheExclusionsFs implements vscode.FileSystemProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  private readonly entries = new Map<string, Entry>();
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();
  /** Problems of the exclusions documents, on the entry they are about. */
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('aiGateway.cacheExclusions');

  /** Raw answers not recognised, shown read-only under RAW_SCHEME (the latest few). */
  private readonly rawAnswers = new Map<string, string>();
  private rawCount = 0;
  private readonly rawProvider: vscode.Disposable;

  constructor(
    private readonly clients: AccountClients,
    private readonly log: vscode.LogOutputChannel,
    private readonly core: () => Promise<ExclusionsCore> = loadExclusionsCore,
  ) {
    this.rawProvider = vscode.workspace.registerTextDocumentContentProvider(RAW_SCHEME, { provideTextDocumentContent: (uri) => this.rawAnswers.get(uri.path) ?? '' });
  }

  /**
   * An exclusions answer the extension does not recognise (#39.6): an error with "Show Raw Answer",
   * which opens the answer (secrets already removed by the client) as a read-only JSON document that
   * belongs to no install: nothing in it can be saved to the server.
   */
  async showUnrecognised(e: UnrecognisedAnswer, retry?: () => Promise<void>): Promise<void> {
    const show = vscode.l10n.t('Show Raw Answer');
    const again = vscode.l10n.t('Retry');
    const choice = await vscode.window.showErrorMessage(e.message, show, ...(retry ? [again] : []));
    if (choice === show) {
      const path = `/cache-exclusions-answer-${++this.rawCount}.json`;
      this.rawAnswers.set(path, e.raw);
      if (this.rawAnswers.size > 5) this.rawAnswers.delete(this.rawAnswers.keys().next().value as string);
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: RAW_SCHEME, path }));
      await vscode.window.showTextDocument(doc, { preview: false });
    } else if (choice === again && retry) {
      await retry();
    }
  }

  /** GETs the list (with progress and Cancel) and caches it, so opening the document needs no second request. */
  async load(installId: string, token?: vscode.CancellationToken): Promise<void> {
    const core = await this.core();
    const list = await withTokenSignal(token, async (signal) => (await this.clients.hostingClient()).getCacheExclusions(installId, signal));
    this.set(core, exclusionsUri(installId), list);
  }

  /** Drops the cached copy so the next read goes to the server. */
  forget(uri: vscode.Uri): void {
    this.entries.delete(uri.toString());
  }

  /** Re-reads the server list and tells the editor, which reloads a document that has no unsaved edits. */
  async refresh(installId: string, token?: vscode.CancellationToken): Promise<void> {
    await this.load(installId, token);
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri: exclusionsUri(installId) }]);
  }

  private set(core: ExclusionsCore, uri: vscode.Uri, list: CacheExclusion[]): Entry {
    const now = Date.now();
    const old = this.entries.get(uri.toString());
    const entry: Entry = { data: this.encoder.encode(core.serializeExclusions(installIdOf(core, uri), list)), server: list, ctime: old?.ctime ?? now, mtime: Math.max(now, (old?.mtime ?? 0) + 1) };
    this.entries.set(uri.toString(), entry);
    return entry;
  }

  private async entry(uri: vscode.Uri): Promise<Entry> {
    const core = await this.core();
    const installId = installIdOf(core, uri);
    const cached = this.entries.get(uri.toString());
    if (cached) return cached;
    try {
      await this.load(installId);
    } catch (e) {
      throw new vscode.FileSystemError(await this.words(e, 'readExclusions'));
    }
    const loaded = this.entries.get(uri.toString());
    if (!loaded) throw vscode.FileSystemError.Unavailable(uri);
    return loaded;
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const e = await this.entry(uri);
    return { type: vscode.FileType.File, ctime: e.ctime, mtime: e.mtime, size: e.data.byteLength };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return (await this.entry(uri)).data;
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const core = await this.core();
    const installId = installIdOf(core, uri);
    const text = this.decoder.decode(content);
    let list: CacheExclusion[];
    try {
      list = core.parseExclusionsDocument(text);
    } catch (e) {
      if (e instanceof core.ExclusionsDocumentError) {
        const message = vscode.l10n.t('{0} Nothing was sent; your edits are kept in the editor.', e.message);
        this.mark(uri, text, e.range, e.message);
        void vscode.window.showErrorMessage(vscode.l10n.t('Cache exclusions not saved: {0}', message));
        throw new vscode.FileSystemError(message);
      }
      throw e;
    }
    // A full replacement is only sent against a list read and recognised (#39.6): with no such list
    // (the read failed or was not recognised), it is read now, and a failure refuses the save.
    let server = this.entries.get(uri.toString())?.server;
    if (!server) {
      try {
        await this.load(installId);
        server = this.entries.get(uri.toString())?.server;
      } catch (e) {
        const words = core.isExclusionsReadUnrecognised(e) ? e.message : await this.words(e, 'readExclusions');
        if (core.isExclusionsReadUnrecognised(e)) void this.showUnrecognised(e);
        throw new vscode.FileSystemError(vscode.l10n.t('Not saved: the current list could not be read, and a save replaces the whole list. Nothing was sent. {0}', words));
      }
    }
    const before = server ?? [];
    // A save that removes entries says which before anything is sent (#39.6).
    const removed = core.removedExclusions(before, list);
    if (removed.length > 0) {
      const shown = removed.slice(0, 20).map((e) => `  ${e.type}: ${e.value}`);
      if (removed.length > 20) shown.push(vscode.l10n.t('  … and {0} more', removed.length - 20));
      const ok = await confirmRisky({
        message:
          removed.length === 1
            ? vscode.l10n.t('This save removes 1 cache exclusion from install {0}.', installId)
            : vscode.l10n.t('This save removes {0} cache exclusions from install {1}.', removed.length, installId),
        detail: `${vscode.l10n.t('Removed from the server:')}\n${shown.join('\n')}`,
        safe: vscode.l10n.t("Don't Save"),
        action: vscode.l10n.t('Save and Remove'),
      });
      if (!ok) throw new vscode.FileSystemError(vscode.l10n.t('Not saved: nothing was sent; your edits are kept in the editor.'));
    }
    let saved: CacheExclusion[];
    try {
      saved = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Saving cache exclusions of install {0}…', installId), cancellable: true },
        (_p, token) => withTokenSignal(token, async (signal) => (await this.clients.hostingClient()).putCacheExclusions(installId, list, signal)),
      );
    } catch (e) {
      this.log.warn(`Cache exclusions of ${installId}: save failed: ${e instanceof Error ? e.message : String(e)}`);
      if (core.isExclusionsReadUnrecognised(e)) {
        // Applied, but the answer is not a list this extension knows: forget the copy, so nothing more
        // is saved before the list is read (and recognised) again.
        this.forget(uri);
        void this.showUnrecognised(e);
        throw new vscode.FileSystemError(e.message);
      }
      // The server may have applied it (or answered in a way that says nothing): read the list again
      // before the next save is compared or sent.
      if ((e as { mayHaveReachedServer?: unknown } | undefined)?.mayHaveReachedServer !== false) this.forget(uri);
      const words = await this.words(e, 'saveExclusions');
      // A 400 naming one entry (errors[].field "exclusions[i].value"): mark it in the document.
      const details = (e as { errors?: Array<{ field?: string; message?: string }> } | undefined)?.errors ?? [];
      const sent = core.prepareExclusionsForSend(list);
      for (const d of details) {
        const at = core.documentIndexOfSent(text, sent, d.field);
        if (at) {
          this.mark(uri, text, core.problemRange(text, at.index, at.field), vscode.l10n.t('Exclusion {0}: {1}', at.index + 1, d.message ?? words));
          break;
        }
      }
      throw new vscode.FileSystemError(words);
    }
    this.diagnostics.delete(uri);
    this.set(core, uri, saved);
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    const summary = core.summarizeReplacement(before, saved);
    this.log.info(`Cache exclusions of ${installId} saved: ${summary}`);
    void vscode.window.showInformationMessage(vscode.l10n.t('Cache exclusions of install {0} saved: {1}.', installId, summary));
  }

  /** Re-checks an edited exclusions document: marks its first problem, or clears the marks. */
  async validate(doc: vscode.TextDocument): Promise<void> {
    if (doc.uri.scheme !== HOSTING_SCHEME) return;
    const core = await this.core();
    const text = doc.getText();
    try {
      core.parseExclusionsDocument(text);
      this.diagnostics.delete(doc.uri);
    } catch (e) {
      if (e instanceof core.ExclusionsDocumentError) this.mark(doc.uri, text, e.range, e.message);
    }
  }

  /** One diagnostic on `range` of `text` (the whole first line when the problem has no place). */
  private mark(uri: vscode.Uri, text: string, range: { start: number; end: number } | undefined, message: string): void {
    const position = (offset: number): vscode.Position => {
      const before = text.slice(0, offset);
      const line = before.split('\n').length - 1;
      return new vscode.Position(line, offset - (before.lastIndexOf('\n') + 1));
    };
    const r = range ? new vscode.Range(position(range.start), position(range.end)) : new vscode.Range(0, 0, 0, Math.max(1, text.indexOf('\n')));
    const d = new vscode.Diagnostic(r, message, vscode.DiagnosticSeverity.Error);
    d.source = 'AI Gateway';
    this.diagnostics.set(uri, [d]);
  }

  private async words(e: unknown, op: 'readExclusions' | 'saveExclusions'): Promise<string> {
    const { describeError } = await import('../core/errorText');
    return describeError(e, { operation: op }).message;
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions('Cache exclusions have no folders.');
  }

  delete(): void {
    throw vscode.FileSystemError.NoPermissions('To remove every writable exclusion, save [] instead.');
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions('Cache exclusion documents cannot be renamed.');
  }

  dispose(): void {
    this.emitter.dispose();
    this.diagnostics.dispose();
    this.rawProvider.dispose();
    this.rawAnswers.clear();
    this.entries.clear();
  }
}

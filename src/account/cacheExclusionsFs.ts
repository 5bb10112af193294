/**
 * Cache exclusions as an editable document: `ai-gateway-hosting:/installs/<install id>/cache-exclusions.jsonc`.
 * Reading GETs the list; saving parses the document and PUTs the full replacement (H-CE-1).
 *
 * Contract of a failed save (bad JSON, bad type, invalid regex, 409 while the install is transferable,
 * any HTTP error): writeFile throws, so VS Code reports "Failed to save" with our sentence and keeps the
 * document dirty with the user's text; validation failures send nothing, and the server answers 409
 * without changing anything (H-CE-6). The cached server copy is only replaced after a successful PUT.
 */
import * as vscode from 'vscode';
// The document format and error words are imported on the first read or write (`core()`).
import type { CacheExclusion } from '../core/hosting/hosting';
import type { AccountClients } from '../platform/accountClients';
import { withTokenSignal } from '../platform/cancellation';

export const HOSTING_SCHEME = 'ai-gateway-hosting';

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
  const [document, hosting] = await Promise.all([import('../core/account/exclusionsDocument'), import('../core/hosting/hosting')]);
  return { ...document, isUuid: hosting.isUuid };
}
type ExclusionsCore = Awaited<ReturnType<typeof loadExclusionsCore>>;

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

  constructor(
    private readonly clients: AccountClients,
    private readonly log: vscode.LogOutputChannel,
    private readonly core: () => Promise<ExclusionsCore> = loadExclusionsCore,
  ) {}

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
    let list: CacheExclusion[];
    try {
      list = core.parseExclusionsDocument(this.decoder.decode(content));
    } catch (e) {
      if (e instanceof core.ExclusionsDocumentError) {
        throw new vscode.FileSystemError(`${e.message} Nothing was sent; your edits are kept in the editor.`);
      }
      throw e;
    }
    const before = this.entries.get(uri.toString())?.server ?? [];
    let saved: CacheExclusion[];
    try {
      saved = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Saving cache exclusions of install ${installId}…`, cancellable: true },
        (_p, token) => withTokenSignal(token, async (signal) => (await this.clients.hostingClient()).putCacheExclusions(installId, list, signal)),
      );
    } catch (e) {
      this.log.warn(`Cache exclusions of ${installId}: save failed: ${e instanceof Error ? e.message : String(e)}`);
      throw new vscode.FileSystemError(await this.words(e, 'saveExclusions'));
    }
    this.set(core, uri, saved);
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    const summary = core.summarizeReplacement(before, saved);
    this.log.info(`Cache exclusions of ${installId} saved: ${summary}`);
    void vscode.window.showInformationMessage(`Cache exclusions of install ${installId} saved: ${summary}.`);
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
    this.entries.clear();
  }
}

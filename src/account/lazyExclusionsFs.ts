/**
 * What activation registers for the cache exclusions documents: a file system provider whose methods
 * import the real one (cacheExclusionsFs.ts, with its document format and diagnostics) on first use, so
 * that none of it is loaded until an exclusions document is read, written or edited.
 */
import * as vscode from 'vscode';
import type { CacheExclusionsFs } from './cacheExclusionsFs';

export const HOSTING_SCHEME = 'ai-gateway-hosting';

export class LazyExclusionsFs implements vscode.FileSystemProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  private real: Promise<CacheExclusionsFs> | undefined;
  private disposed = false;

  constructor(private readonly create: () => Promise<CacheExclusionsFs>) {}

  /** The real provider, created once; its change events are passed on. */
  get(): Promise<CacheExclusionsFs> {
    this.real ??= this.create().then((fs) => {
      fs.onDidChangeFile((e) => this.emitter.fire(e));
      if (this.disposed) fs.dispose();
      return fs;
    });
    return this.real;
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    return (await this.get()).stat(uri);
  }
  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return (await this.get()).readFile(uri);
  }
  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    return (await this.get()).writeFile(uri, content);
  }
  async readDirectory(): Promise<[string, vscode.FileType][]> {
    return (await this.get()).readDirectory();
  }
  async createDirectory(): Promise<void> {
    (await this.get()).createDirectory();
  }
  async delete(): Promise<void> {
    (await this.get()).delete();
  }
  async rename(): Promise<void> {
    (await this.get()).rename();
  }

  dispose(): void {
    this.disposed = true;
    this.emitter.dispose();
    void this.real?.then((fs) => fs.dispose());
  }
}

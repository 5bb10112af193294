/**
 * The hosting account API (Basic credentials): Edit Cache Exclusions, Transfer Site…, Cancel Site
 * Transfer, and the commands that set and clear the credentials. At activation only the cache
 * exclusions' file system provider (a shell that imports the real one on first use) and the commands are registered; the commands' bodies
 * (hostingCommands.ts) and the hosting client are imported on first use. The credentials and the
 * client are the platform's (services.accountSecrets, services.accountClients).
 */
import * as vscode from 'vscode';
import { registerFeatureCommands } from '../platform/commands';
import { DisposableStore, toDisposable } from '../core/disposables';
import type { Services } from '../services';
import { HOSTING_SCHEME, LazyExclusionsFs } from './lazyExclusionsFs';

/** What the account feature uses of the services (src/services.ts composes them; only extension.ts passes the whole). */
export type AccountServices = Pick<Services, 'accountClients' | 'accountSecrets' | 'context' | 'log'>;

export function registerAccount(services: AccountServices): vscode.Disposable {
  const store = new DisposableStore();
  const { accountSecrets: secrets, accountClients: clients } = services;
  const fs = new LazyExclusionsFs(async () => new (await import('./cacheExclusionsFs')).CacheExclusionsFs(clients, services.log));
  store.add(toDisposable(() => fs.dispose()));
  store.add(vscode.workspace.registerFileSystemProvider(HOSTING_SCHEME, fs, { isCaseSensitive: false }));
  // An edited exclusions document is re-checked as you type: an invalid pattern is marked on its line.
  store.add(vscode.workspace.onDidChangeTextDocument((e) => e.document.uri.scheme === HOSTING_SCHEME && void fs.get().then((real) => real.validate(e.document))));
  store.add(vscode.workspace.onDidOpenTextDocument((doc) => doc.uri.scheme === HOSTING_SCHEME && void fs.get().then((real) => real.validate(doc))));
  store.add(registerFeatureCommands('account', async (register) => (await import('./hostingCommands')).registerHostingCommands(services, secrets, clients, fs, register)));
  return store;
}

/**
 * Account features: usage analytics (identity-provider JWT) and the hosting account API (Basic
 * credentials): Show Usage, Edit Cache Exclusions, Transfer Site…, Cancel Site Transfer, and the
 * commands that set and clear the two credentials. At activation only the two document providers and
 * the command stubs are registered; the commands' bodies (usageCommands.ts, hostingCommands.ts) are in
 * dist/editor.js and the clients in dist/core.js, both loaded on first use.
 */
import * as vscode from 'vscode';
import { registerLazyCommands } from '../commands';
import { DisposableStore, toDisposable } from '../core/lifecycle';
import type { Services } from '../services';
import { accountApi, accountCommands } from './accountApi';
import { AccountClients } from './accountChunk';
import { AccountSecrets } from './accountSecrets';
import { CacheExclusionsFs, HOSTING_SCHEME } from './cacheExclusionsFs';
import { USAGE_SCHEME, UsageReports } from './usageReports';

export function registerAccount(services: Services): vscode.Disposable {
  const store = new DisposableStore();
  const secrets = new AccountSecrets(services.context.secrets);
  const clients = store.add(new AccountClients(secrets, services));

  const reports = new UsageReports();
  store.add(toDisposable(() => reports.dispose()));
  store.add(vscode.workspace.registerTextDocumentContentProvider(USAGE_SCHEME, reports));
  store.add(
    registerLazyCommands(['aiGateway.usage.setIdentityToken', 'aiGateway.usage.clearIdentityToken', 'aiGateway.usage.show', 'aiGateway.usage.showReport'], (register) =>
      accountCommands().registerUsageCommands(services, secrets, clients, reports, register),
    ),
  );

  const fs = new CacheExclusionsFs(clients, services.log, accountApi);
  store.add(toDisposable(() => fs.dispose()));
  store.add(vscode.workspace.registerFileSystemProvider(HOSTING_SCHEME, fs, { isCaseSensitive: false }));
  store.add(
    registerLazyCommands(
      ['aiGateway.hosting.setCredentials', 'aiGateway.hosting.clearCredentials', 'aiGateway.hosting.editCacheExclusions', 'aiGateway.hosting.transferSite', 'aiGateway.hosting.cancelTransfer'],
      (register) => accountCommands().registerHostingCommands(services, secrets, clients, fs, register),
    ),
  );
  return store;
}

/**
 * The usage feature: "Show Usage" (the dashboard, src/usage/usagePanel.ts), the Markdown usage report
 * and the identity-token commands. The spend ledger and the budget guard it shows are the platform's
 * (services.spend, services.budget). At activation: the report documents' provider and the commands;
 * their bodies (usageCommands.ts) are imported on the first call.
 */
import * as vscode from 'vscode';
import { registerFeatureCommands } from '../platform/commands';
import { DisposableStore, toDisposable } from '../core/disposables';
import type { Services } from '../services';
import { USAGE_SCHEME, UsageReports } from './usageReports';

/** What the usage feature uses of the services (src/services.ts composes them; only extension.ts passes the whole). */
export type UsageServices = Pick<Services, 'accountClients' | 'accountSecrets' | 'budget' | 'catalog' | 'context' | 'log' | 'spend'>;

export function registerUsage(services: UsageServices): vscode.Disposable {
  const store = new DisposableStore();
  const reports = new UsageReports();
  store.add(toDisposable(() => reports.dispose()));
  store.add(vscode.workspace.registerTextDocumentContentProvider(USAGE_SCHEME, reports));
  store.add(
    registerFeatureCommands('usage', async (register) => (await import('./usageCommands')).registerUsageCommands(services, services.accountSecrets, services.accountClients, reports, register)),
  );
  return store;
}

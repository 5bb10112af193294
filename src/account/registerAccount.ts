/**
 * Account features: usage analytics (identity-provider JWT) and the hosting account API (Basic
 * credentials): Show Usage, Edit Cache Exclusions, Transfer Site…, Cancel Site Transfer, and the
 * commands that set and clear the two credentials. Clients load lazily from dist/core.js.
 */
import * as vscode from 'vscode';
import { DisposableStore } from '../core/lifecycle';
import type { Services } from '../services';
import { AccountClients } from './accountChunk';
import { AccountSecrets } from './accountSecrets';
import { registerHosting } from './hostingCommands';
import { registerUsage } from './usageCommands';

export function registerAccount(services: Services): vscode.Disposable {
  const store = new DisposableStore();
  const secrets = new AccountSecrets(services.context.secrets);
  const clients = store.add(new AccountClients(secrets, services));
  store.add(registerUsage(services, secrets, clients));
  store.add(registerHosting(services, secrets, clients));
  return store;
}

/**
 * Activation part of the key manager: the status bar item, the key commands (their bodies are in
 * src/keys/keyCommands.ts, imported on the first call) and the watch for a secret the keyring lost.
 */
import * as vscode from 'vscode';
import { registerFeatureCommands } from '../platform/commands';
import { DisposableStore } from '../core/disposables';
import type { Services } from '../services';
import { KeyStatusBar } from './keyStatusBar';

/** What the keys feature uses of the services (src/services.ts composes them; only extension.ts passes the whole). */
export type KeysServices = Pick<Services, 'createClient' | 'keys' | 'log'>;

export function registerKeys(services: KeysServices): vscode.Disposable {
  const store = new DisposableStore();
  const keys = services.keys;
  store.add(new KeyStatusBar(keys));

  store.add(
    registerFeatureCommands('keys', async (register) => (await import('./keyCommands')).registerKeyCommands(services, register), {
      'aiGateway.showLog': () => services.log.show(),
    }),
  );

  // A keyring that loses a secret returns undefined: say so once per key and session, offer re-entry.
  const warned = new Set<string>();
  store.add(
    keys.onDidChange((change) => {
      if (change.reason === 'missing-secret' && change.key && !warned.has(change.key.id)) {
        warned.add(change.key.id);
        services.log.warn(`Secret of API key "${change.key.name}" (…${change.key.suffix}) is missing from SecretStorage.`);
        void import('./keyCommands').then((m) => m.promptMissingSecret(keys, change.key!));
      }
      if (change.reason === 'restored' && change.key) warned.delete(change.key.id);
    }),
  );
  // Detect a lost secret at start-up rather than on the first failed request.
  void keys.getActiveSecret().catch(() => undefined);
  return store;
}

/**
 * Activation part of the key manager: the status bar item, the key commands (as stubs: their bodies
 * are in src/keys/keyCommands.ts, part of dist/editor.js, loaded on the first call) and the watch for a
 * secret the keyring lost.
 */
import * as vscode from 'vscode';
import { registerCommand, registerLazyCommands } from '../commands';
import { DisposableStore } from '../core/lifecycle';
import type { Services } from '../services';
import { keyCommands } from './keysApi';
import { KeyStatusBar } from './keyStatusBar';

export function registerKeys(services: Services): vscode.Disposable {
  const store = new DisposableStore();
  const keys = services.keys;
  store.add(new KeyStatusBar(keys));

  store.add(
    registerLazyCommands(['aiGateway.addApiKey', 'aiGateway.switchApiKey', 'aiGateway.removeApiKey', 'aiGateway.checkApiKey', 'aiGateway.rotateApiKey'], (register) =>
      keyCommands().registerKeyCommands(services, register),
    ),
  );
  store.add(registerCommand('aiGateway.showLog', () => services.log.show()));

  // A keyring that loses a secret returns undefined: say so once per key and session, offer re-entry.
  const warned = new Set<string>();
  store.add(
    keys.onDidChange((change) => {
      if (change.reason === 'missing-secret' && change.key && !warned.has(change.key.id)) {
        warned.add(change.key.id);
        services.log.warn(`Secret of API key "${change.key.name}" (…${change.key.suffix}) is missing from SecretStorage.`);
        void keyCommands().promptMissingSecret(keys, change.key);
      }
      if (change.reason === 'restored' && change.key) warned.delete(change.key.id);
    }),
  );
  // Detect a lost secret at start-up rather than on the first failed request.
  void keys.getActiveSecret().catch(() => undefined);
  return store;
}

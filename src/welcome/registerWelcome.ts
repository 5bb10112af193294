/**
 * The guided start: the "Get Started with AI Gateway" walkthrough (package.json contributes.walkthroughs,
 * its pages in media/walkthrough/). Its steps complete themselves: the manifest names a command or a
 * context key per step, and this module keeps the context keys true to what the user has done:
 * - `aiGateway.hasKey`: an API key is active;
 * - `aiGateway.used.<operation>`: a reply of that kind was priced in this window (`chatPanel` for the
 *   chat, `vscodeChat` for VS Code's own chat), from the spend service's record event.
 * It opens once per profile, on the first activation, unless the user turned off VS Code's own
 * `workbench.welcomePage.walkthroughs.openOnInstall`.
 */
import * as vscode from 'vscode';
import { registerFeatureCommands } from '../platform/commands';
import { settings } from '../platform/config';
import { DisposableStore } from '../core/disposables';
import type { Services } from '../services';

export const WALKTHROUGH_ID = 'aiGateway.getStarted';
const SHOWN_KEY = 'aiGateway.welcome.walkthroughShown';

/** `chat-panel` -> `chatPanel`: context key segments stay plain identifiers. */
export function usedContextKey(operation: string): string {
  const words = operation.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return `aiGateway.used.${words.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('')}`;
}

function openWalkthrough(context: vscode.ExtensionContext): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#${WALKTHROUGH_ID}`, false);
}

/** What the welcome feature uses of the services (src/services.ts composes them; only extension.ts passes the whole). */
export type WelcomeServices = Pick<Services, 'context' | 'keys' | 'log' | 'spend'>;

export function registerWelcome(services: WelcomeServices): vscode.Disposable {
  const store = new DisposableStore();
  const { context, keys } = services;
  // The commands run at once: there is no command module to load.
  store.add(
    registerFeatureCommands('welcome', () => Promise.resolve(new vscode.Disposable(() => undefined)), {
      'aiGateway.welcome.getStarted': () => openWalkthrough(context),
      // The walkthrough's "Gateway address" link: a machine-scoped setting lives in the Remote settings
      // of a remote window (code-server included), where VS Code's own openSettings would not find it.
      // Loaded on use: not needed at activation.
      'aiGateway.welcome.gatewayAddress': async () => (await import('../platform/errorNotifications')).openSettingWhereItLives(settings.baseUrl.key),
    }),
  );

  const setHasKey = (): void => void vscode.commands.executeCommand('setContext', 'aiGateway.hasKey', keys.active !== undefined);
  setHasKey();
  store.add(keys.onDidChange(setHasKey));
  store.add(services.spend.onDidRecord((operation) => void vscode.commands.executeCommand('setContext', usedContextKey(operation), true)));

  if (!context.globalState.get<boolean>(SHOWN_KEY) && vscode.workspace.getConfiguration('workbench.welcomePage').get<boolean>('walkthroughs.openOnInstall', true)) {
    void context.globalState.update(SHOWN_KEY, true);
    services.log.info('First activation in this profile: opening the Get Started walkthrough (once).');
    void openWalkthrough(context).then(undefined, (e: unknown) => services.log.warn(`Could not open the walkthrough: ${e instanceof Error ? e.message : String(e)}`));
  }
  return store;
}

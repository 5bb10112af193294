/**
 * Activation: build the shared services, register every feature, hand one root disposable to VS Code.
 *
 * Activation events: since VS Code 1.74 every contributed command and view implies its own
 * onCommand/onView activation event, so the extension activates when one of its own commands or views
 * is used (never `*`, never on start-up). The only ones listed are onLanguage:markdown and
 * onLanguage:html, because the content feature's missing-alt diagnostics are on by default.
 *
 * To add a feature: write `register<Feature>(services: Services): vscode.Disposable` in
 * src/<feature>/ and add one line to FEATURES below. Declare commands in package.json and register them
 * with `registerCommand` from src/platform/commands.ts: it takes a `CommandId`, the union generated from the
 * manifest (npm run build regenerates src/commandIds.ts), so an undeclared id does not type-check.
 */
import * as vscode from 'vscode';
import { registerAccount } from './account/registerAccount';
import { registerCatalog } from './catalog/registerCatalog';
import { registerChat } from './chat/registerChat';
import { registerContent } from './content/registerContent';
import { DisposableStore } from './core/disposables';
import { configure as configureL10n } from './core/l10n';
import { registerKeys } from './keys/registerKeys';
import { registerKnowledge } from './knowledge/registerKnowledge';
import { registerLm } from './lm/registerLm';
import { registerUsage } from './usage/registerUsage';
import { registerMcp } from './mcp/registerMcp';
import { registerMedia } from './media/registerMedia';
import { registerModelIds } from './modelIds/registerModelIds';
import { registerCompare } from './compare/registerCompare';
import { registerCompat } from './compat/registerCompat';
import { registerParticipant } from './participant/registerParticipant';
import { Services } from './services';
import { registerWelcome } from './welcome/registerWelcome';

type Feature = (services: Services) => vscode.Disposable;

const FEATURES: readonly [name: string, register: Feature][] = [
  ['keys', registerKeys],
  ['catalog', registerCatalog],
  ['chat', registerChat],
  ['content', registerContent],
  ['mcp', registerMcp],
  ['account', registerAccount],
  ['lm', registerLm],
  ['usage', registerUsage],
  ['media', registerMedia],
  ['knowledge', registerKnowledge],
  ['welcome', registerWelcome],
  ['modelIds', registerModelIds],
  ['compare', registerCompare],
  ['participant', registerParticipant],
  ['compat', registerCompat],
];

export function activate(context: vscode.ExtensionContext): void {
  // vscode-free code (src/core) translates with the same bundle as vscode.l10n.t.
  configureL10n({ bundle: vscode.l10n.bundle, locale: vscode.env.language });
  const root = new DisposableStore();
  context.subscriptions.push(root);
  const services = root.add(new Services(context));
  for (const [name, register] of FEATURES) {
    // One broken feature must not take the others (or the key manager) down with it.
    try {
      root.add(register(services));
    } catch (e) {
      services.log.error(`Feature "${name}" failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      void import('./platform/errorNotifications').then((m) => m.showErrorNotification(e, { context: vscode.l10n.t('AI Gateway: {0} failed to start', name) }));
    }
  }
}

export function deactivate(): void {}

/**
 * Activation: build the shared services, register every feature, hand one root disposable to VS Code.
 *
 * Activation events: since VS Code 1.74 every contributed command and view implies its own
 * onCommand/onView activation event, so the extension activates when one of its own commands or views
 * is used (never `*`, never on start-up). The only ones listed are onLanguage:markdown and
 * onLanguage:html, because the content feature's missing-alt diagnostics are on by default.
 *
 * To add a feature: write `register<Feature>(services: Services): vscode.Disposable` in
 * src/<feature>/ and add one entry to the feature manifest, src/features.ts (name, command groups,
 * registrar). Declare commands in package.json and register them through registerFeatureCommands
 * (src/platform/commands.ts): ids are `CommandId`s, the union generated from package.json and the
 * manifest (npm run build regenerates src/commandIds.ts), so an undeclared id does not type-check.
 */
import * as vscode from 'vscode';
import { DisposableStore, setUnexpectedErrorHandler, toDisposable } from './core/disposables';
import { configure as configureL10n } from './core/l10n';
import { FEATURES } from './features';
import { Services } from './services';

export function activate(context: vscode.ExtensionContext): void {
  // vscode-free code (src/core) translates with the same bundle as vscode.l10n.t.
  configureL10n({ bundle: vscode.l10n.bundle, locale: vscode.env.language });
  const root = new DisposableStore();
  context.subscriptions.push(root);
  const services = root.add(new Services(context));
  // A listener that throws in an Emitter (src/core/disposables.ts) is reported in the redacting log;
  // the other listeners still run.
  setUnexpectedErrorHandler((e) => services.log.error(`A listener threw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`));
  root.add(toDisposable(() => setUnexpectedErrorHandler(undefined)));
  for (const { name, register } of FEATURES) {
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

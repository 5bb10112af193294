/**
 * VS Code's own Chat view with the gateway's models, without a GitHub account (issue 29, item 3).
 *
 * What was found in code-server 4.139.1 (VS Code 1.139), reading the workbench and by experiment: in a
 * fresh profile VS Code's built-in chat extension (GitHub.copilot-chat, which serves the Chat view's
 * requests, signed in or not) is installed but not enabled. Until it is, the Chat view's stand-in
 * agent answers the first message with "Sign in to use GitHub Copilot", even with our models in the
 * picker. **Chat: Manage Language Models** turns that extension on before it opens (the workbench's
 * `workbench.action.chat.manage`); once it runs, it serves the Chat view signed out with any
 * vendor's models. The API offers no way for an extension to turn another on, so the extension asks
 * once, where it matters: when the gateway's models are first offered to VS Code's chat with a key
 * set, a notification names the one step and runs it ("Turn On" opens Manage Language Models, which
 * lists the gateway's models).
 */
import * as vscode from 'vscode';

/** VS Code's built-in chat extension (product.json defaultChatAgent.chatExtensionId). */
export const BUILT_IN_CHAT_EXTENSION = 'GitHub.copilot-chat';
const MANAGE_MODELS_COMMAND = 'workbench.action.chat.manage';
const DONT_ASK_KEY = 'aiGateway.nativeChat.dontOfferTurnOn';

/** True when VS Code's chat would show the sign-in wall for our models: AI features on, its chat extension not running. */
export function nativeChatNeedsTurnOn(): boolean {
  if (vscode.workspace.getConfiguration('chat').get<boolean>('disableAIFeatures') === true) return false;
  return vscode.extensions.getExtension(BUILT_IN_CHAT_EXTENSION) === undefined;
}

let offered = false;

/** Offers the one step once per window (never again after "Don't Ask Again"). */
export async function offerNativeChatTurnOn(state: vscode.Memento): Promise<void> {
  if (offered || state.get<boolean>(DONT_ASK_KEY) || !nativeChatNeedsTurnOn()) return;
  offered = true;
  const TURN_ON = vscode.l10n.t('Turn On');
  const NEVER = vscode.l10n.t("Don't Ask Again");
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t("To use AI Gateway models in VS Code's Chat view without a GitHub account, turn on VS Code's built-in chat. \"{0}\" does it and lists the gateway's models (Chat: Manage Language Models).", TURN_ON),
    TURN_ON,
    NEVER,
  );
  if (choice === TURN_ON) await vscode.commands.executeCommand(MANAGE_MODELS_COMMAND);
  else if (choice === NEVER) await state.update(DONT_ASK_KEY, true);
}

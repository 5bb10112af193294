/**
 * Modal questions whose answer does something the user cannot take back (send a billed request over
 * the budget, delete, run on a live site, repeat a write, send a credential over http, ...): the
 * default button is always the safe one (issue 27, item 5).
 *
 * How VS Code picks a modal's default (read in the workbench code-server 4.139.1 ships, VS Code 1.139:
 * `MainThreadMessageService._showModalMessage`, the dialog service's `getButtons`, and `Dialog.show` in
 * vs/base/browser/ui/dialog; the desktop's native dialog uses the same index as `defaultId`):
 *  - every item WITH `isCloseAffordance: true` becomes the Cancel button (the last such item; VS Code
 *    adds its own "Cancel" when there is none); Escape and the dialog's close button choose it;
 *  - every other item becomes a button in the order given, and the FIRST of them (button index 0) is
 *    drawn as the primary button AND gets the keyboard when the dialog opens, so Enter or Space
 *    chooses it;
 *  - so marking a Cancel item as close affordance does NOT make it the default: with items
 *    `('Delete')` or `('Delete', { title: 'Cancel', isCloseAffordance: true })` the default is Delete.
 * The only way to make the safe answer the default is to pass a safe, non-close item first. That is
 * what `askRisky` does: `[safe, ...risky]`, and VS Code's Cancel after them.
 *
 * Wording (#41.9): the one action button says what it does ("Stop the Transfer", "Send", "Run
 * Ability"), never "Continue" or "Cancel …" (which VS Code's own Cancel beside it would contradict);
 * the safe default says what it keeps or leaves undone ("Keep the Transfer", "Don't Send"). A dialog
 * with only the action and VS Code's Cancel is not possible without making the action the default
 * (see above), so the safe button stays, as the default, and Cancel does the same thing as it.
 */
import * as vscode from 'vscode';

export interface RiskyQuestion {
  message: string;
  detail?: string;
  /** The first button, the default (Enter): it does nothing risky (it may open settings, keep, leave out). */
  safe: string;
  /** The risky answers, after it. */
  risky: readonly string[];
  severity?: 'warning' | 'info' | 'error';
}

/** The button chosen (safe or risky label), or undefined for Cancel/Escape. */
export async function askRisky(q: RiskyQuestion): Promise<string | undefined> {
  const show = q.severity === 'info' ? vscode.window.showInformationMessage : q.severity === 'error' ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
  const options: vscode.MessageOptions = { modal: true, ...(q.detail ? { detail: q.detail } : {}) };
  const items: vscode.MessageItem[] = [{ title: q.safe }, ...q.risky.map((title) => ({ title }))];
  return (await show(q.message, options, ...items))?.title;
}

/** One risky action: true only when the user chose it (not the default safe button, not Cancel). */
export async function confirmRisky(q: Omit<RiskyQuestion, 'risky'> & { action: string }): Promise<boolean> {
  return (await askRisky({ ...q, risky: [q.action] })) === q.action;
}

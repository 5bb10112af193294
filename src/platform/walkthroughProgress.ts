/**
 * The walkthrough's progress (package.json contributes.walkthroughs): a feature calls `markStepDone`
 * when the user has done what a step asks, however it was done (palette, quick fix, a view's button,
 * `@gateway`), and the step's `onContext:aiGateway.done.<step>` completion event ticks it.
 *
 * Why not `onCommand:`: VS Code counts a command only when the workbench runs it; a command an
 * extension runs (`vscode.commands.executeCommand` in the extension host, as the chat's `/alt` does),
 * a chat participant's command and a webview's button never reach it. VS Code keeps a ticked step
 * ticked, in every window of the profile.
 */
import * as vscode from 'vscode';

/** The steps a feature ticks (ids of contributes.walkthroughs[aiGateway.getStarted].steps). */
export type WalkthroughStep = 'altText' | 'runTool' | 'vscodeChat';

/** The context key of a step's completion event. */
export function stepDoneContextKey(step: WalkthroughStep): string {
  return `aiGateway.done.${step}`;
}

/** Ticks the step: sets its context key (VS Code keeps a ticked step ticked). Never throws. */
export function markStepDone(step: WalkthroughStep): void {
  void Promise.resolve(vscode.commands.executeCommand('setContext', stepDoneContextKey(step), true)).catch(() => undefined);
}

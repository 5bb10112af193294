/**
 * The only way the extension registers or runs its own commands: both take a `CommandId`, the union
 * generated from package.json (src/commandIds.ts), so an id that is not declared in the manifest does
 * not type-check. test/unit/config.test.ts checks that no other file calls
 * `vscode.commands.registerCommand` and that every declared id is used somewhere.
 */
import * as vscode from 'vscode';
import type { CommandId } from './commandIds';

export type { CommandId } from './commandIds';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the same handler type vscode.commands uses
export function registerCommand(id: CommandId, handler: (...args: any[]) => unknown): vscode.Disposable {
  return vscode.commands.registerCommand(id, handler);
}

export function executeCommand<T = unknown>(id: CommandId, ...args: unknown[]): Thenable<T> {
  return vscode.commands.executeCommand<T>(id, ...args);
}

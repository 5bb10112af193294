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
export type CommandHandler = (...args: any[]) => unknown;

/** registerCommand's shape; command-time modules of dist/editor.js receive one instead of importing it. */
export type CommandRegistrar = (id: CommandId, handler: CommandHandler) => vscode.Disposable;

export function registerCommand(id: CommandId, handler: CommandHandler): vscode.Disposable {
  return vscode.commands.registerCommand(id, handler);
}

/**
 * Registers `ids` at activation with stubs and keeps their handlers out of the activation bundle: the
 * first call of any of them runs `setup` (a façade function that loads dist/editor.js and registers
 * the real handlers through the registrar it is given), then every call goes to the real handler.
 * Everything the handlers need at activation (views, providers, events) stays outside `setup`.
 */
export function registerLazyCommands(ids: readonly CommandId[], setup: (register: CommandRegistrar) => vscode.Disposable): vscode.Disposable {
  const handlers = new Map<CommandId, CommandHandler>();
  let loaded: vscode.Disposable | undefined;
  const collect: CommandRegistrar = (id, handler) => {
    handlers.set(id, handler);
    return new vscode.Disposable(() => handlers.delete(id));
  };
  const stubs = ids.map((id) =>
    registerCommand(id, (...args: unknown[]) => {
      loaded ??= setup(collect);
      const handler = handlers.get(id);
      if (!handler) throw new Error(`Command ${id} has no handler in dist/editor.js`);
      return handler(...args);
    }),
  );
  return new vscode.Disposable(() => {
    for (const s of stubs) s.dispose();
    loaded?.dispose();
  });
}

export function executeCommand<T = unknown>(id: CommandId, ...args: unknown[]): Thenable<T> {
  return vscode.commands.executeCommand<T>(id, ...args);
}

/**
 * The only way the extension registers or runs its own commands: both take a `CommandId`, the union
 * generated from package.json (src/commandIds.ts), so an id that is not declared in the manifest does
 * not type-check. test/unit/config.test.ts checks that no other file calls
 * `vscode.commands.registerCommand` and that every declared id is used somewhere.
 */
import * as vscode from 'vscode';
import { featureCommands, type CommandId, type Feature } from '../commandIds';

export { allCommands, featureCommands, type CommandId, type Feature } from '../commandIds';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the same handler type vscode.commands uses
export type CommandHandler = (...args: any[]) => unknown;

/** registerCommand's shape; a feature's command module receives one (see registerFeatureCommands). */
export type CommandRegistrar = (id: CommandId, handler: CommandHandler) => vscode.Disposable;

export function registerCommand(id: CommandId, handler: CommandHandler): vscode.Disposable {
  return vscode.commands.registerCommand(id, handler);
}

/**
 * Registers every command of `feature` that package.json declares (the one list, src/commandIds.ts,
 * generated from the manifest): the handlers in `now` at once, every other one as a stub. The first
 * call of a stub runs `load` once, which imports the feature's command module (an `import()`, so
 * esbuild puts it in a chunk of its own) and registers the real handlers through the registrar it is
 * given; then the call goes to its handler. Views, providers and events stay outside `load`.
 */
export function registerFeatureCommands(feature: Feature, load: (register: CommandRegistrar) => Promise<vscode.Disposable>, now: Partial<Record<CommandId, CommandHandler>> = {}): vscode.Disposable {
  const handlers = new Map<CommandId, CommandHandler>();
  let loaded: Promise<vscode.Disposable> | undefined;
  let disposed = false;
  const collect: CommandRegistrar = (id, handler) => {
    handlers.set(id, handler);
    return new vscode.Disposable(() => handlers.delete(id));
  };
  const registrations = featureCommands(feature).map((id) => {
    const immediate = now[id];
    if (immediate) return registerCommand(id, immediate);
    return registerCommand(id, async (...args: unknown[]) => {
      loaded ??= load(collect).then((d) => {
        if (disposed) d.dispose();
        return d;
      });
      // A failed import is tried again on the next call.
      loaded.catch(() => (loaded = undefined));
      await loaded;
      const handler = handlers.get(id);
      if (!handler) throw new Error(`Command ${id} has no handler in the ${feature} feature's command module`);
      return handler(...args);
    });
  });
  return new vscode.Disposable(() => {
    disposed = true;
    for (const r of registrations) r.dispose();
    void loaded?.then((d) => d.dispose(), () => undefined);
  });
}

export function executeCommand<T = unknown>(id: CommandId, ...args: unknown[]): Thenable<T> {
  return vscode.commands.executeCommand<T>(id, ...args);
}

/**
 * Check Gateway Compatibility (issue 39, item 15). At activation only the commands are registered;
 * the probes, the report and their words are imported on the first call (./compatCommand.ts).
 */
import type * as vscode from 'vscode';
import { registerFeatureCommands } from '../platform/commands';
import type { Services } from '../services';

export function registerCompat(services: Services): vscode.Disposable {
  return registerFeatureCommands('compat', async (registerCommand) => {
    const { registerCompatCommands } = await import('./compatCommand');
    return registerCompatCommands(services, registerCommand);
  });
}

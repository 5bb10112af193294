/**
 * Check Gateway Compatibility (issue 39, item 15). At activation only the commands are registered;
 * the probes, the report and their words are imported on the first call (./compatCommand.ts).
 */
import type * as vscode from 'vscode';
import { registerFeatureCommands } from '../platform/commands';
import type { Services } from '../services';

/** What the compat feature uses of the services (src/services.ts composes them; only extension.ts passes the whole). */
export type CompatServices = Pick<Services, 'accountSecrets' | 'budget' | 'context' | 'keys' | 'network' | 'spend' | 'userAgent'>;

export function registerCompat(services: CompatServices): vscode.Disposable {
  return registerFeatureCommands('compat', async (registerCommand) => {
    const { registerCompatCommands } = await import('./compatCommand');
    return registerCompatCommands(services, registerCommand);
  });
}

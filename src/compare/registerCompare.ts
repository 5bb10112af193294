/**
 * Compare Models (issue 31): one prompt to two to four models, side by side in one editor tab. At
 * activation only the command is registered; the panel, its controller (src/core/compare) and the
 * client are imported on the first call (./comparePanel.ts).
 */
import type * as vscode from 'vscode';
import { registerFeatureCommands } from '../platform/commands';
import type { Services } from '../services';

/** What the compare feature uses of the services (src/services.ts composes them; only extension.ts passes the whole). */
export type CompareServices = Pick<Services, 'budget' | 'catalog' | 'context' | 'getClient' | 'keys' | 'log' | 'own' | 'spend'>;

export function registerCompare(services: CompareServices): vscode.Disposable {
  return registerFeatureCommands('compare', async (registerCommand) => {
    const { ComparePanel } = await import('./comparePanel');
    return registerCommand('aiGateway.compare.open', (arg?: unknown) => ComparePanel.show(services, arg));
  });
}

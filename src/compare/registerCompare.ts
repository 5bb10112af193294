/**
 * Compare Models (issue 31): one prompt to two to four models, side by side in one editor tab. At
 * activation only the command is registered; the panel, its controller (src/core/compare) and the
 * client are imported on the first call (./comparePanel.ts).
 */
import type * as vscode from 'vscode';
import { registerFeatureCommands } from '../platform/commands';
import type { Services } from '../services';

export function registerCompare(services: Services): vscode.Disposable {
  return registerFeatureCommands('compare', async (registerCommand) => {
    const { ComparePanel } = await import('./comparePanel');
    return registerCommand('aiGateway.compare.open', (arg?: unknown) => ComparePanel.show(services, arg));
  });
}

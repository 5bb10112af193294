/**
 * The usage feature: the spend ledger and budget services (src/usage/usageServices.ts) with the
 * budget status bar item, and the Usage dashboard (src/usage/usagePanel.ts).
 */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { usageServices } from './usageServices';

export function registerUsage(services: Services): vscode.Disposable {
  usageServices(services);
  return { dispose: () => undefined };
}

/**
 * The question before a tool that may be destructive runs (#42.4, toolRunner.ts confirmDestructive; marked so, or not marked read-only or harmless):
 * a modal naming the tool, the server and the arguments, with Don't Run as the default. Loaded on the
 * first such run, not at activation.
 */
import * as vscode from 'vscode';
import { confirmRisky } from './safeDialog';

export function confirmDestructiveTool(c: { tool: string; serverLabel: string; args: Record<string, unknown>; marked: boolean }): Promise<boolean> {
  const why = c.marked
    ? vscode.l10n.t('The server marks this tool destructive: it may delete or overwrite data, and it cannot be undone from here.')
    : vscode.l10n.t('The server does not mark this tool read-only or harmless, so MCP counts it destructive: it may delete or overwrite data, and it cannot be undone from here.');
  return confirmRisky({
    message: vscode.l10n.t('Run {0} on {1}?', c.tool.slice(0, 120), c.serverLabel),
    detail: `${why}\n\n${vscode.l10n.t('Arguments: {0}', JSON.stringify(c.args, null, 2).slice(0, 2000))}`,
    safe: vscode.l10n.t("Don't Run"),
    action: vscode.l10n.t('Run Tool'),
  });
}

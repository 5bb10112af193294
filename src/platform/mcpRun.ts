/**
 * One tool call's editor glue (src/core/mcp/toolRunner.ts does the work): validate, confirm
 * run_site_ability and destructive tools (modals whose default is Don't Run), call under a cancellable
 * progress notification, classify, store. Never retries by itself. Loaded with the first run
 * (McpService.run), so activation does not carry it.
 */
import * as vscode from 'vscode';
import { confirmRisky } from './safeDialog';
import { settings } from './config';
import { withTokenSignal } from './cancellation';
import type { RunOutcome } from '../core/mcp/toolRunner';
import type { CallHistory } from '../core/mcp/history';
import type { CredentialKind, McpTool } from '../core/mcp/types';
import type { McpConnection } from '../core/mcp/mcpClient';
import type { ServerEntry } from './mcpServers';

export interface McpRunDeps {
  readonly credential: CredentialKind;
  readonly connection: () => Promise<McpConnection>;
  readonly history: CallHistory;
  readonly log: vscode.LogOutputChannel;
}

export async function runMcpTool(deps: McpRunDeps, server: ServerEntry, tool: McpTool, args: Record<string, unknown>, signal?: AbortSignal): Promise<RunOutcome> {
  const [{ validateAgainstSchema }, { runToolCall }, { describeError }] = await Promise.all([import('../core/mcp/validation'), import('../core/mcp/toolRunner'), import('../core/errorText')]);
  const out = await runToolCall(
    {
      serverId: server.id,
      serverLabel: server.label,
      isGateway: server.kind === 'gateway',
      credential: deps.credential,
      connection: deps.connection,
      validate: (schema, value) => validateAgainstSchema(schema, value),
      describeError: (e) => describeError(e),
      confirmReadOnlyAbilities: settings.mcpConfirmReadOnlyAbilities.get(),
      confirmAbility: async (c) => {
        return confirmRisky({ message: c.message, detail: c.detail, safe: vscode.l10n.t("Don't Run"), action: vscode.l10n.t('Run Ability') });
      },
      // A tool that may be destructive (#42.4; the spec's default unless read-only or marked harmless): a modal,
      // Don't Run the default (mcpConfirmTool.ts, loaded then).
      confirmDestructive: async (c) => (await import('./mcpConfirmTool')).confirmDestructiveTool(c),
      progress: async (title, fn) =>
        await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_p, token) => withTokenSignal(token, fn)),
      history: deps.history,
      log: deps.log,
    },
    tool,
    args,
    signal,
  );
  if (out.kind === 'done' && out.entry.toolError?.code === 'ambiguous_outcome') {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('{0}: the write may or may not have happened. Check the site before running it again; it will not be retried automatically.', tool.name),
    );
  }
  return out;
}

/**
 * The MCP tool runner's commands: tool panels, servers, JWT mode, history and batch re-runs. Part of
 * its own chunk (imported on the first command; the "Tools" view is registered at activation by
 * registerMcp.ts). The SDK and ajv are imported on the first connection (src/platform/mcpService.ts).
 */
import { inputStep, pickStep } from '../platform/stepInput';
import { countOf } from '../core/words';
import * as vscode from 'vscode';
import { askRisky, confirmRisky } from '../safeDialog';
import type { CommandId, CommandRegistrar } from '../commands';
import { settings } from '../config';
import { DisposableStore } from '../core/disposables';
import { RUN_ABILITY_TOOL } from '../core/mcp/abilities';
import { MAX_BATCH } from '../core/mcp/batch';
import { ambiguousPrompt, isAmbiguousOutcome, planBatch, type AmbiguousDecision } from '../core/mcp/batchPlan';
import { HEADER_NAME, isAlwaysSecretHeader } from '../core/mcp/requestExport';
import type { HistoryEntry } from '../core/mcp/history';
import type { Services } from '../services';
import { assertWithinBatchLimit, sendToolCallBatch } from '../core/mcp/batch';
import { runBatchCalls } from '../core/mcp/batchRun';
import { proxyFetch } from '../platform/network';
import type { McpService } from '../platform/mcpService';
import { JWT_SECRET_KEY } from '../secretKeys';
import { customServerId, headerSecretKey, legacyCustomServerId, userCustomServers, type ServerEntry } from '../platform/mcpServers';
import { ToolPanel } from './toolPanel';
import type { ToolsNode } from './toolsTree';
import { withTokenSignal } from '../platform/cancellation';
import { openSettingWhereItLives } from '../errorNotifications';

/** The MCP commands' handlers, registered through the registrar of src/commands.ts registerFeatureCommands. */
export function registerMcpCommands(services: Services, service: McpService, registerCommand: CommandRegistrar): vscode.Disposable {
  const store = new DisposableStore();
  store.add({ dispose: () => ToolPanel.disposeAll() });
  const extensionUri = services.context.extensionUri;
  const command = (id: CommandId, fn: (...args: never[]) => unknown) => store.add(registerCommand(id, fn));

  command('aiGateway.mcp.pingServer', async (node?: ToolsNode) => {
    const server = node?.kind === 'server' ? node.server : (await vscode.window.showQuickPick(service.servers().map((s) => ({ label: s.label, description: s.url, server: s })), { title: 'Ping MCP Server' }))?.server;
    if (!server) return;
    try {
      const conn = await service.connection(server);
      const started = Date.now();
      await conn.ping();
      void vscode.window.showInformationMessage(
        `${server.label}: ${conn.server.name} ${conn.server.version} answered ping in ${Date.now() - started} ms (MCP ${conn.server.protocolVersion}).`,
      );
    } catch (e) {
      void vscode.window.showErrorMessage(`${server.label}: ${e instanceof Error ? e.message : String(e)}`);
    }
  });

  command('aiGateway.mcp.openTool', async (node?: ToolsNode) => {
    if (node?.kind === 'tool') {
      ToolPanel.show(extensionUri, service, node.server, node.tool);
      return;
    }
    const picked = await pickTool(service);
    if (picked) ToolPanel.show(extensionUri, service, picked.server, picked.tool);
  });

  command('aiGateway.mcp.addServer', async () => {
    const url = await inputStep({
      title: 'Add MCP Server (Streamable HTTP): address',
      step: 1,
      totalSteps: 3,
      prompt: 'Server URL',
      placeHolder: 'https://example.com/mcp',
      validateInput: (v) => (/^https?:\/\/\S+$/i.test(v.trim()) ? undefined : 'Enter an http(s) URL'),
    });
    if (!url) return;
    const name = (await inputStep({ title: 'Add MCP Server: display name', step: 2, totalSteps: 3, prompt: 'Display name', value: new URL(url.trim()).host })) ?? '';
    const id = customServerId(url.trim());
    const headers: Record<string, string> = {};
    const secretHeaders: string[] = [];
    for (;;) {
      const more = await pickStep([{ label: 'Done' }, { label: 'Add a header…' }], { title: 'Add MCP Server: headers (optional)', step: 3, totalSteps: 3 });
      if (more?.label !== 'Add a header…') break;
      const header = await vscode.window.showInputBox({ title: 'Header name', placeHolder: 'Authorization', validateInput: (v) => (HEADER_NAME.test(v) ? undefined : 'Letters, digits and dashes only'), ignoreFocusOut: true });
      if (!header) continue;
      // Credentials (Authorization, Cookie, X-Api-Key, Proxy-Authorization) are always keychain-only: settings are plain files that sync and get shared.
      const secret = isAlwaysSecretHeader(header)
        ? true
        : (await vscode.window.showQuickPick(['Secret (stored in the OS keychain)', 'Not secret (stored in settings)'], { title: `Is ${header} secret?`, ignoreFocusOut: true }))?.startsWith('Secret');
      if (secret === undefined) continue;
      const value = await vscode.window.showInputBox({ title: `Value of ${header}`, password: secret, ignoreFocusOut: true });
      if (value === undefined) continue;
      if (secret) {
        await services.context.secrets.store(headerSecretKey(id, header), value);
        secretHeaders.push(header);
      } else {
        headers[header] = value;
      }
    }
    // Only the user's own list is rewritten (workspace values are never read or copied into it).
    const list = userServerSettings().filter((s) => customServerId(s.url) !== id);
    list.push({ name: name.trim() || url.trim(), url: url.trim(), headers, secretHeaders });
    await vscode.workspace.getConfiguration().update(settings.mcpServers.key, list, vscode.ConfigurationTarget.Global);
  });

  command('aiGateway.mcp.removeServer', async (node?: ToolsNode) => {
    let server: ServerEntry | undefined = node?.kind === 'server' ? node.server : undefined;
    if (!server) {
      const custom = service.servers().filter((s) => s.kind === 'custom');
      if (custom.length === 0) {
        void vscode.window.showInformationMessage('There are no added MCP servers. The gateway entry cannot be removed.');
        return;
      }
      server = (await vscode.window.showQuickPick(custom.map((s) => ({ label: s.label, description: s.url, server: s })), { title: 'Remove MCP Server' }))?.server;
    }
    if (!server || server.kind !== 'custom') return;
    // The pick's first row is a server: Enter alone must not remove it (and its keychain secrets).
    const detail = server.secretHeaders.length ? `Its secret headers (${server.secretHeaders.join(', ')}) are deleted from the OS keychain.` : server.url;
    if (!(await confirmRisky({ message: `Remove the MCP server ${server.label}?`, detail, safe: 'Keep Server', action: 'Remove' }))) return;
    for (const h of server.secretHeaders) {
      await services.context.secrets.delete(headerSecretKey(server.id, h));
      await services.context.secrets.delete(headerSecretKey(legacyCustomServerId(server.url), h));
    }
    const list = userServerSettings().filter((s) => customServerId(s.url) !== server.id);
    await vscode.workspace.getConfiguration().update(settings.mcpServers.key, list, vscode.ConfigurationTarget.Global);
  });

  command('aiGateway.mcp.setJwt', async () => {
    const jwt = await vscode.window.showInputBox({
      title: 'Identity token (JWT) for the gateway tools',
      prompt: 'Stored in the OS keychain. Used with the Service-Account and Service-Project headers.',
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (/^[\w-]+\.[\w-]+\.[\w-]*$/.test(v.trim()) ? undefined : 'This does not look like a JWT (three dot-separated parts).'),
    });
    if (!jwt) return;
    const config = vscode.workspace.getConfiguration();
    const account = await vscode.window.showInputBox({ title: 'Service-Account', value: settings.mcpServiceAccount.get(), ignoreFocusOut: true, prompt: "Must match the token's account" });
    if (account === undefined) return;
    const project = await vscode.window.showInputBox({ title: 'Service-Project', value: settings.mcpServiceProject.get(), ignoreFocusOut: true });
    if (project === undefined) return;
    await services.context.secrets.store(JWT_SECRET_KEY, jwt.trim());
    await config.update(settings.mcpServiceAccount.key, account.trim(), vscode.ConfigurationTarget.Global);
    await config.update(settings.mcpServiceProject.key, project.trim(), vscode.ConfigurationTarget.Global);
    await config.update(settings.mcpAuthentication.key, 'jwt', vscode.ConfigurationTarget.Global);
  });

  command('aiGateway.mcp.clearJwt', async () => {
    await services.context.secrets.delete(JWT_SECRET_KEY);
    await vscode.workspace.getConfiguration().update(settings.mcpAuthentication.key, 'apiKey', vscode.ConfigurationTarget.Global);
  });

  // aiGateway.mcp.servers and .authentication are machine-scoped: in a remote window (code-server too)
  // they live in the Remote settings, where the tool runner's other window-scoped settings show as well.
  command('aiGateway.mcp.openSettings', () => openSettingWhereItLives(settings.mcpServers.key, 'aiGateway.mcp'));

  command('aiGateway.mcp.showHistory', async () => {
    const entries = service.history.list();
    if (entries.length === 0) {
      void vscode.window.showInformationMessage('No tool calls yet.');
      return;
    }
    const pick = await vscode.window.showQuickPick(entries.map(historyItem), { title: 'Tool Call History', matchOnDescription: true, matchOnDetail: true });
    if (!pick) return;
    const server = service.server(pick.entry.serverId);
    if (!server) return;
    const tool = service.cachedTool(server.id, pick.entry.tool) ?? (await service.tools(server).then((t) => t.find((x) => x.name === pick.entry.tool)));
    if (tool) ToolPanel.show(extensionUri, service, server, tool, pick.entry.id);
  });

  command('aiGateway.mcp.clearHistory', async () => {
    await service.history.clear();
    service.refresh();
    void vscode.window.showInformationMessage('Tool call history cleared.');
  });

  command('aiGateway.mcp.runBatch', () => runBatch(service, services));

  return store;
}

/** The user's own aiGateway.mcp.servers entries (never workspace values), as stored. */
function userServerSettings(): Array<{ name: string; url: string; headers?: Record<string, string>; secretHeaders?: string[] }> {
  return userCustomServers(vscode.workspace.getConfiguration()).filter(
    (s): s is { name: string; url: string } => typeof s === 'object' && s !== null && typeof (s as { url?: unknown }).url === 'string',
  );
}

function historyItem(entry: HistoryEntry): vscode.QuickPickItem & { entry: HistoryEntry } {
  const status = entry.failure?.outcomeUnknown
    ? '$(warning) outcome unknown: the change may still have happened'
    : entry.failure
    ? '$(error) failed'
    : isAmbiguousOutcome(entry)
      ? '$(warning) outcome unknown: the write may have happened'
      : entry.toolError
        ? `$(warning) ${entry.toolError.code}`
        : '$(check) ok';
  return {
    label: `${entry.tool}`,
    description: `${entry.serverLabel} · ${status} · ${entry.durationMs} ms · ${new Date(entry.startedAt).toLocaleString()}`,
    detail: JSON.stringify(entry.args).slice(0, 200),
    entry,
  };
}

async function pickTool(service: McpService): Promise<{ server: ServerEntry; tool: import('../core/mcp/types').McpTool } | undefined> {
  const items: Array<vscode.QuickPickItem & { server?: ServerEntry; tool?: import('../core/mcp/types').McpTool }> = [];
  for (const server of service.servers()) {
    try {
      for (const tool of await service.tools(server)) items.push({ label: tool.name, description: server.label, detail: tool.description, server, tool });
    } catch (e) {
      items.push({ label: `$(error) ${server.label}`, description: e instanceof Error ? e.message : String(e) });
    }
  }
  const pick = await vscode.window.showQuickPick(items, { title: 'Open Tool', matchOnDetail: true });
  return pick?.server && pick.tool ? { server: pick.server, tool: pick.tool } : undefined;
}

/**
 * Re-runs several past calls of one server as JSON-RPC batches of at most MAX_BATCH. More than
 * MAX_BATCH selected is refused before anything is sent (the gateway's limit, G-MCP-3). A call whose
 * earlier outcome was ambiguous_outcome is sent only after its own confirmation (G-MCP-13, batchPlan.ts).
 */
async function runBatch(service: McpService, services: Services): Promise<void> {
  const entries = service.history.list();
  if (entries.length === 0) {
    void vscode.window.showInformationMessage('Run some tools first: batches re-run calls from the history.');
    return;
  }
  const selected = await vscode.window.showQuickPick(
    entries.map((e) => ({ ...historyItem(e), picked: false })),
    { title: `Run Several Calls (at most ${MAX_BATCH}, one server)`, canPickMany: true },
  );
  if (!selected || selected.length === 0) return;
  try {
    assertWithinBatchLimit(selected.length);
  } catch (e) {
    void vscode.window.showErrorMessage(e instanceof Error ? e.message : String(e));
    return;
  }
  const serverIds = new Set(selected.map((p) => p.entry.serverId));
  const server = serverIds.size === 1 ? service.server([...serverIds][0]) : undefined;
  if (!server) {
    void vscode.window.showErrorMessage('A batch goes to one server: pick calls of the same server.');
    return;
  }
  // G-MCP-13: a call whose outcome was ambiguous is never re-run just because it was ticked.
  const plan = await planBatch(
    selected.map((p) => p.entry),
    async (entry): Promise<AmbiguousDecision> => {
      const { message, detail } = ambiguousPrompt(entry);
      const again = 'Run It Again';
      const skip = 'Leave It Out';
      // Leave It Out first: the default never repeats a write whose outcome is unknown.
      const answer = await askRisky({ message, detail, safe: skip, risky: [again] });
      return answer === again ? 'run' : answer === skip ? 'skip' : 'cancel';
    },
  );
  if (!plan) return;
  if (plan.skipped.length > 0) {
    void vscode.window.showInformationMessage(`Left out ${plan.skipped.length} call(s) whose earlier outcome is unknown: ${plan.skipped.map((e) => e.tool).join(', ')}.`);
  }
  if (plan.run.length === 0) return;
  const picks = plan.run.map((entry) => ({ entry }));
  const abilityCalls = picks.filter((p) => p.entry.tool === RUN_ABILITY_TOOL);
  if (server.kind === 'gateway' && abilityCalls.length > 0) {
    const detail = abilityCalls.map((p) => JSON.stringify(p.entry.args)).join('\n');
    if (!(await confirmRisky({ message: `The batch runs ${abilityCalls.length} site abilities on live sites.`, detail, safe: "Don't Run", action: 'Run Batch' }))) return;
  }
  const calls = picks.map((p) => ({ name: p.entry.tool, arguments: p.entry.args }));
  const credential = service.credential(server);
  try {
    const conn = await service.connection(server);
    const headers = await service.headers(server);
    const out = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Running ${countOf(calls.length, 'call')} on ${server.label}…`, cancellable: true },
      (_progress, token) =>
        withTokenSignal(token, (signal) =>
          runBatchCalls(calls, {
            serverId: server.id,
            serverLabel: server.label,
            credential,
            send: (c) => sendToolCallBatch(c, { url: server.url, fetch: proxyFetch(), headers, protocolVersion: conn.server.protocolVersion, signal }),
            record: (entry) => service.record(entry),
          }),
        ),
    );
    if (out.error) {
      services.log.error(`MCP batch failed: ${out.error.message}`);
      const unknown = out.error.outcomeUnknown
        ? ` The change may still have happened: ${calls.length === 1 ? 'the call is' : `all ${countOf(calls.length, 'call')} are`} in Tool Call History as "outcome unknown". Check the site before running them again.`
        : '';
      void vscode.window.showErrorMessage(`Batch failed: ${out.error.message}${unknown}`);
      return;
    }
    const unknown = out.entries.filter((e) => e.failure?.outcomeUnknown).length;
    void vscode.window.showInformationMessage(
      `Batch of ${calls.length} done: ${calls.length - out.failures} ok, ${out.failures} failed${unknown ? ` (${unknown} with outcome unknown: the change may still have happened)` : ''}. See Tool Call History.`,
    );
  } catch (e) {
    services.log.error(`MCP batch failed: ${e instanceof Error ? e.message : String(e)}`);
    void vscode.window.showErrorMessage(`Batch failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * The MCP tool runner's commands: tool panels, servers, JWT mode, history and batch re-runs. Part of
 * its own chunk (imported on the first command; the "Tools" view is registered at activation by
 * registerMcp.ts). The SDK and ajv are imported on the first connection (src/platform/mcpService.ts).
 */
import { inputStep, pickStep } from '../platform/stepInput';
import * as vscode from 'vscode';
import { askRisky, confirmRisky } from '../platform/safeDialog';
import type { CommandId, CommandRegistrar } from '../platform/commands';
import { settings } from '../platform/config';
import { DisposableStore } from '../core/disposables';
import { RUN_ABILITY_TOOL } from '../core/mcp/abilities';
import { MAX_BATCH } from '../core/mcp/batch';
import { ambiguousPrompt, isAmbiguousOutcome, planBatch, type AmbiguousDecision } from '../core/mcp/batchPlan';
import { HEADER_NAME, isAlwaysSecretHeader } from '../core/mcp/requestExport';
import type { HistoryEntry } from '../core/mcp/history';
import type { Services } from '../services';
import type { McpServices } from './registerMcp';
import { assertWithinBatchLimit, sendToolCallBatch } from '../core/mcp/batch';
import { runBatchCalls } from '../core/mcp/batchRun';
import { proxyFetch } from '../platform/network';
import type { McpService } from '../platform/mcpService';
import { customServerId, userCustomServers, type ServerEntry } from '../platform/mcpServers';
import { ToolPanel } from './toolPanel';
import type { ToolsNode } from './toolsTree';
import { hintWords } from './toolsTreeText';
import { serverInstructions, toolHints } from '../core/mcp/toolHints';
import { withTokenSignal } from '../platform/cancellation';
import { openSettingWhereItLives } from '../platform/errorNotifications';

/** What the MCP command bodies need: the runner's service, the identity token's store, the extension's folder (tool panels) and the log. */
export interface McpCommandContext {
  service: McpService;
  jwt: Pick<Services['accountSecrets'], 'setJwt' | 'clearJwt'>;
  extensionUri: vscode.Uri;
  log: Pick<Services['log'], 'error'>;
}

/** The MCP commands' handlers, registered through the registrar of src/platform/commands.ts registerFeatureCommands. */
export function registerMcpCommands(services: McpServices, service: McpService, registerCommand: CommandRegistrar): vscode.Disposable {
  const store = new DisposableStore();
  store.add({ dispose: () => ToolPanel.disposeAll() });
  const ctx: McpCommandContext = { service, jwt: services.accountSecrets, extensionUri: services.context.extensionUri, log: services.log };
  const command = (id: CommandId, fn: (...args: never[]) => unknown) => store.add(registerCommand(id, fn));

  command('aiGateway.mcp.pingServer', (node?: ToolsNode) => pingServer(ctx, node));
  command('aiGateway.mcp.openTool', (node?: ToolsNode) => openTool(ctx, node));
  command('aiGateway.mcp.addServer', () => addServer(ctx));
  command('aiGateway.mcp.removeServer', (node?: ToolsNode) => removeServer(ctx, node));
  command('aiGateway.mcp.signOut', (node?: ToolsNode) => signOutServer(ctx, node));
  command('aiGateway.mcp.setJwt', () => setJwt(ctx));
  command('aiGateway.mcp.clearJwt', () => clearJwt(ctx));
  // aiGateway.mcp.servers and .authentication are machine-scoped: in a remote window (code-server too)
  // they live in the Remote settings, where the tool runner's other window-scoped settings show as well.
  command('aiGateway.mcp.openSettings', () => openSettingWhereItLives(settings.mcpServers.key, 'aiGateway.mcp'));
  command('aiGateway.mcp.showHistory', () => showHistory(ctx));
  command('aiGateway.mcp.clearHistory', () => clearHistory(ctx));
  command('aiGateway.mcp.runBatch', () => runBatch(ctx));

  return store;
}

/** Ping MCP Server: the server of the tree node, else picked; the answer (or the failure) as a notification. */
export async function pingServer({ service }: McpCommandContext, node?: ToolsNode): Promise<void> {
  const server = node?.kind === 'server' ? node.server : (await vscode.window.showQuickPick(service.servers().map((s) => ({ label: s.label, description: s.url, server: s })), { title: vscode.l10n.t('Ping MCP Server') }))?.server;
  if (!server) return;
  try {
    const conn = await service.connection(server);
    const started = Date.now();
    await conn.ping();
    void vscode.window.showInformationMessage(
      vscode.l10n.t('{0}: {1} {2} answered ping in {3} ms (MCP {4}).', server.label, conn.server.name, conn.server.version, (Date.now() - started).toLocaleString(vscode.env.language), conn.server.protocolVersion),
    );
  } catch (e) {
    void vscode.window.showErrorMessage(`${server.label}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Open Tool: the tool of the tree node, else picked from every server's tools, in its panel. */
export async function openTool({ service, extensionUri }: McpCommandContext, node?: ToolsNode): Promise<void> {
  if (node?.kind === 'tool') {
    ToolPanel.show(extensionUri, service, node.server, node.tool);
    return;
  }
  const picked = await pickTool(service);
  if (picked) ToolPanel.show(extensionUri, service, picked.server, picked.tool);
}

/** Add MCP Server: address, name, then headers (credentials to the keychain); written to the user's settings. */
export async function addServer({ service }: McpCommandContext): Promise<void> {
  const url = await inputStep({
    title: vscode.l10n.t('Add MCP Server (Streamable HTTP): address'),
    step: 1,
    totalSteps: 3,
    prompt: vscode.l10n.t('Server URL'),
    placeHolder: /* not translated: an example URL */ 'https://example.com/mcp',
    validateInput: (v) => (/^https?:\/\/\S+$/i.test(v.trim()) ? undefined : vscode.l10n.t('Enter an http(s) URL')),
  });
  if (!url) return;
  const name = (await inputStep({ title: vscode.l10n.t('Add MCP Server: display name'), step: 2, totalSteps: 3, prompt: vscode.l10n.t('Display name'), value: new URL(url.trim()).host })) ?? '';
  const id = customServerId(url.trim());
  const headers: Record<string, string> = {};
  const secretHeaders: string[] = [];
  for (;;) {
    const ADD_HEADER = vscode.l10n.t('Add a header…');
    const more = await pickStep([{ label: vscode.l10n.t('Done') }, { label: ADD_HEADER }], { title: vscode.l10n.t('Add MCP Server: headers (optional)'), step: 3, totalSteps: 3 });
    if (more?.label !== ADD_HEADER) break;
    const header = await vscode.window.showInputBox({ title: vscode.l10n.t('Header name'), placeHolder: /* not translated: an HTTP header name */ 'Authorization', validateInput: (v) => (HEADER_NAME.test(v) ? undefined : vscode.l10n.t('Letters, digits and dashes only')), ignoreFocusOut: true });
    if (!header) continue;
    // Credentials (Authorization, Cookie, X-Api-Key, Proxy-Authorization) are always keychain-only: settings are plain files that sync and get shared.
    const secret = isAlwaysSecretHeader(header)
      ? true
      : await (async () => {
          const SECRET = vscode.l10n.t('Secret (stored in the OS keychain)');
          const pick = await vscode.window.showQuickPick([SECRET, vscode.l10n.t('Not secret (stored in settings)')], { title: vscode.l10n.t('Is {0} secret?', header), ignoreFocusOut: true });
          return pick === undefined ? undefined : pick === SECRET;
        })();
    if (secret === undefined) continue;
    const value = await vscode.window.showInputBox({ title: vscode.l10n.t('Value of {0}', header), password: secret, ignoreFocusOut: true });
    if (value === undefined) continue;
    if (secret) {
      await service.storeSecretHeader(id, header, value);
      secretHeaders.push(header);
    } else {
      headers[header] = value;
    }
  }
  // Only the user's own list is rewritten (workspace values are never read or copied into it).
  const list = userServerSettings().filter((s) => customServerId(s.url) !== id);
  list.push({ name: name.trim() || url.trim(), url: url.trim(), headers, secretHeaders });
  await vscode.workspace.getConfiguration().update(settings.mcpServers.key, list, vscode.ConfigurationTarget.Global);
}

/** Remove MCP Server (an added one only), after a confirmation whose default keeps it; its keychain secrets go too. */
/**
 * Sign Out of MCP Server (#42.1): forgets the OAuth tokens and client registration of a server the user
 * added (the server of the tree node, else picked among those signed in). The gateway's own server has
 * no sign-in (its API key or JWT stays).
 */
export async function signOutServer({ service }: McpCommandContext, node?: ToolsNode): Promise<void> {
  const glue = await service.signIn();
  let server: ServerEntry | undefined = node?.kind === 'server' ? node.server : undefined;
  if (!server) {
    const custom = service.servers().filter((s) => s.kind === 'custom');
    const signedIn: ServerEntry[] = [];
    for (const s of custom) if (await glue.isSignedIn(s.id)) signedIn.push(s);
    if (signedIn.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No MCP server is signed in.'));
      return;
    }
    server = (await vscode.window.showQuickPick(signedIn.map((s) => ({ label: s.label, description: s.url, server: s })), { title: vscode.l10n.t('Sign Out of MCP Server') }))?.server;
  }
  if (!server || server.kind !== 'custom') return;
  await service.signOut(server);
  void vscode.window.showInformationMessage(vscode.l10n.t('Signed out of {0}.', server.label));
}

export async function removeServer({ service }: McpCommandContext, node?: ToolsNode): Promise<void> {
  let server: ServerEntry | undefined = node?.kind === 'server' ? node.server : undefined;
  if (!server) {
    const custom = service.servers().filter((s) => s.kind === 'custom');
    if (custom.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('There are no added MCP servers. The gateway entry cannot be removed.'));
      return;
    }
    server = (await vscode.window.showQuickPick(custom.map((s) => ({ label: s.label, description: s.url, server: s })), { title: vscode.l10n.t('Remove MCP Server') }))?.server;
  }
  if (!server || server.kind !== 'custom') return;
  // The pick's first row is a server: Enter alone must not remove it (and its keychain secrets).
  const detail = server.secretHeaders.length ? vscode.l10n.t('Its secret headers ({0}) are deleted from the OS keychain.', server.secretHeaders.join(', ')) : server.url;
  if (!(await confirmRisky({ message: vscode.l10n.t('Remove the MCP server {0}?', server.label), detail, safe: vscode.l10n.t('Keep Server'), action: vscode.l10n.t('Remove') }))) return;
  await service.deleteSecretHeaders(server);
  await service.signOut(server);
  const list = userServerSettings().filter((s) => customServerId(s.url) !== server.id);
  await vscode.workspace.getConfiguration().update(settings.mcpServers.key, list, vscode.ConfigurationTarget.Global);
}

/** Set Identity Token: the JWT to the keychain, the Service-Account/Project headers and JWT mode to the user's settings. */
export async function setJwt({ jwt: store }: McpCommandContext): Promise<void> {
  const jwt = await vscode.window.showInputBox({
    title: vscode.l10n.t('Identity token (JWT) for the gateway tools'),
    prompt: vscode.l10n.t('Stored in the OS keychain. Used with the Service-Account and Service-Project headers.'),
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (/^[\w-]+\.[\w-]+\.[\w-]*$/.test(v.trim()) ? undefined : vscode.l10n.t('This does not look like a JWT (three dot-separated parts).')),
  });
  if (!jwt) return;
  const config = vscode.workspace.getConfiguration();
  const account = await vscode.window.showInputBox({ title: /* not translated: the HTTP header it sets */ 'Service-Account', value: settings.mcpServiceAccount.get(), ignoreFocusOut: true, prompt: vscode.l10n.t("Must match the token's account") });
  if (account === undefined) return;
  const project = await vscode.window.showInputBox({ title: /* not translated: the HTTP header it sets */ 'Service-Project', value: settings.mcpServiceProject.get(), ignoreFocusOut: true });
  if (project === undefined) return;
  await store.setJwt(jwt.trim());
  await config.update(settings.mcpServiceAccount.key, account.trim(), vscode.ConfigurationTarget.Global);
  await config.update(settings.mcpServiceProject.key, project.trim(), vscode.ConfigurationTarget.Global);
  await config.update(settings.mcpAuthentication.key, 'jwt', vscode.ConfigurationTarget.Global);
}

/** Clear Identity Token: forgets the JWT and goes back to API key mode. */
export async function clearJwt({ jwt }: McpCommandContext): Promise<void> {
  await jwt.clearJwt();
  await vscode.workspace.getConfiguration().update(settings.mcpAuthentication.key, 'apiKey', vscode.ConfigurationTarget.Global);
}

/** Tool Call History: a past call picked opens its tool's panel on that entry. */
export async function showHistory({ service, extensionUri }: McpCommandContext): Promise<void> {
  const entries = service.history.list();
  if (entries.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No tool calls yet.'));
    return;
  }
  const pick = await vscode.window.showQuickPick(entries.map(historyItem), { title: vscode.l10n.t('Tool Call History'), matchOnDescription: true, matchOnDetail: true });
  if (!pick) return;
  const server = service.server(pick.entry.serverId);
  if (!server) return;
  const tool = service.cachedTool(server.id, pick.entry.tool) ?? (await service.tools(server).then((t) => t.find((x) => x.name === pick.entry.tool)));
  if (tool) ToolPanel.show(extensionUri, service, server, tool, pick.entry.id);
}

export async function clearHistory({ service }: McpCommandContext): Promise<void> {
  await service.history.clear();
  service.refresh();
  void vscode.window.showInformationMessage(vscode.l10n.t('Tool call history cleared.'));
}

/** The user's own aiGateway.mcp.servers entries (never workspace values), as stored. */
function userServerSettings(): Array<{ name: string; url: string; headers?: Record<string, string>; secretHeaders?: string[] }> {
  return userCustomServers(vscode.workspace.getConfiguration()).filter(
    (s): s is { name: string; url: string } => typeof s === 'object' && s !== null && typeof (s as { url?: unknown }).url === 'string',
  );
}

function historyItem(entry: HistoryEntry): vscode.QuickPickItem & { entry: HistoryEntry } {
  const status = entry.failure?.outcomeUnknown
    ? `$(warning) ${vscode.l10n.t('outcome unknown: the change may still have happened')}`
    : entry.failure
    ? `$(error) ${vscode.l10n.t('failed')}`
    : isAmbiguousOutcome(entry)
      ? `$(warning) ${vscode.l10n.t('outcome unknown: the write may have happened')}`
      : entry.toolError
        ? `$(warning) ${entry.toolError.code}`
        : `$(check) ${vscode.l10n.t('ok')}`;
  return {
    label: `${entry.tool}`,
    description: `${entry.serverLabel} · ${status} · ${vscode.l10n.t('{0} ms', entry.durationMs.toLocaleString(vscode.env.language))} · ${new Date(entry.startedAt).toLocaleString(vscode.env.language)}`,
    detail: JSON.stringify(entry.args).slice(0, 200),
    entry,
  };
}

async function pickTool(service: McpService): Promise<{ server: ServerEntry; tool: import('../core/mcp/types').McpTool } | undefined> {
  type Item = vscode.QuickPickItem & { server?: ServerEntry; tool?: import('../core/mcp/types').McpTool; instructions?: string };
  const items: Item[] = [];
  for (const server of service.servers()) {
    try {
      const tools = await service.tools(server);
      items.push({ label: server.label, kind: vscode.QuickPickItemKind.Separator });
      // The server's instructions from initialize (#42.4): plain text, one bounded line here, the whole (bounded) text when chosen.
      const instructions = serverInstructions(await service.instructions(server.id));
      if (instructions) items.push({ label: `$(info) ${vscode.l10n.t('Instructions of {0}', server.label)}`, detail: serverInstructions(instructions, 200)?.replace(/\s+/g, ' '), instructions, server });
      for (const tool of tools) {
        const words = hintWords(toolHints(tool, server.kind === 'gateway'));
        items.push({ label: tool.name, description: [server.label, ...words].join(' · '), detail: tool.description, server, tool });
      }
    } catch (e) {
      items.push({ label: `$(error) ${server.label}`, description: e instanceof Error ? e.message : String(e) });
    }
  }
  for (;;) {
    const pick = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Open Tool'), matchOnDetail: true });
    if (pick?.instructions && pick.server) {
      // Shown, then back to the list: reading a server's instructions is part of picking its tools.
      await vscode.window.showInformationMessage(vscode.l10n.t('Instructions of {0}', pick.server.label), { modal: true, detail: pick.instructions });
      continue;
    }
    return pick?.server && pick.tool ? { server: pick.server, tool: pick.tool } : undefined;
  }
}

/**
 * Re-runs several past calls of one server as JSON-RPC batches of at most MAX_BATCH. More than
 * MAX_BATCH selected is refused before anything is sent (the gateway's limit, G-MCP-3). A call whose
 * earlier outcome was ambiguous_outcome is sent only after its own confirmation (G-MCP-13, batchPlan.ts).
 */
export async function runBatch({ service, log }: McpCommandContext): Promise<void> {
  const entries = service.history.list();
  if (entries.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Run some tools first: batches re-run calls from the history.'));
    return;
  }
  const selected = await vscode.window.showQuickPick(
    entries.map((e) => ({ ...historyItem(e), picked: false })),
    { title: vscode.l10n.t('Run Several Calls (at most {0}, one server)', MAX_BATCH), canPickMany: true },
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
    void vscode.window.showErrorMessage(vscode.l10n.t('A batch goes to one server: pick calls of the same server.'));
    return;
  }
  // G-MCP-13: a call whose outcome was ambiguous is never re-run just because it was ticked.
  const plan = await planBatch(
    selected.map((p) => p.entry),
    async (entry): Promise<AmbiguousDecision> => {
      const { message, detail } = ambiguousPrompt(entry);
      const again = vscode.l10n.t('Run It Again');
      const skip = vscode.l10n.t('Leave It Out');
      // Leave It Out first: the default never repeats a write whose outcome is unknown.
      const answer = await askRisky({ message, detail, safe: skip, risky: [again] });
      return answer === again ? 'run' : answer === skip ? 'skip' : 'cancel';
    },
  );
  if (!plan) return;
  if (plan.skipped.length > 0) {
    void vscode.window.showInformationMessage(
      plan.skipped.length === 1
        ? vscode.l10n.t('Left out 1 call whose earlier outcome is unknown: {0}.', plan.skipped[0].tool)
        : vscode.l10n.t('Left out {0} calls whose earlier outcome is unknown: {1}.', plan.skipped.length, plan.skipped.map((e) => e.tool).join(', ')),
    );
  }
  if (plan.run.length === 0) return;
  const picks = plan.run.map((entry) => ({ entry }));
  const abilityCalls = picks.filter((p) => p.entry.tool === RUN_ABILITY_TOOL);
  if (server.kind === 'gateway' && abilityCalls.length > 0) {
    const detail = abilityCalls.map((p) => JSON.stringify(p.entry.args)).join('\n');
    if (!(await confirmRisky({ message: abilityCalls.length === 1 ? vscode.l10n.t('The batch runs 1 site ability on live sites.') : vscode.l10n.t('The batch runs {0} site abilities on live sites.', abilityCalls.length), detail, safe: vscode.l10n.t("Don't Run"), action: vscode.l10n.t('Run Batch') }))) return;
  }
  // #42.4: a tool that may be destructive (marked so, or not marked read-only or harmless: the spec's
  // default) is never re-run just because it was ticked: one modal names them, Don't Run the default. The
  // server's tool list says which; a tool it no longer lists is asked about too (its marks are unknown),
  // and a list that cannot be read sends nothing.
  let listed: Awaited<ReturnType<McpService['tools']>>;
  try {
    listed = await service.tools(server);
  } catch (e) {
    log.error(`MCP batch: the tool list of ${server.label} could not be read: ${e instanceof Error ? e.message : String(e)}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('Batch failed: {0}', e instanceof Error ? e.message : String(e)));
    return;
  }
  const destructive = picks.filter((p) => p.entry.tool !== RUN_ABILITY_TOOL).filter((p) => {
    const tool = listed.find((t) => t.name === p.entry.tool);
    return tool === undefined || toolHints(tool, server.kind === 'gateway').destructive;
  });
  if (destructive.length > 0) {
    const names = [...new Set(destructive.map((p) => p.entry.tool.slice(0, 120)))];
    const detail = destructive.map((p) => `${p.entry.tool.slice(0, 120)} ${JSON.stringify(p.entry.args).slice(0, 500)}`).join('\n').slice(0, 2000);
    const message =
      destructive.length === 1
        ? vscode.l10n.t('The batch runs {0}, which {1} does not mark read-only or harmless, or no longer lists.', names[0], server.label)
        : vscode.l10n.t('The batch runs {0} calls that {1} does not mark read-only or harmless, or no longer lists: {2}.', destructive.length, server.label, names.join(', '));
    if (!(await confirmRisky({ message, detail, safe: vscode.l10n.t("Don't Run"), action: vscode.l10n.t('Run Batch') }))) return;
  }
  const calls = picks.map((p) => ({ name: p.entry.tool, arguments: p.entry.args }));
  const credential = service.credential(server);
  try {
    const conn = await service.connection(server);
    const headers = await service.headers(server);
    const out = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: calls.length === 1 ? vscode.l10n.t('Running 1 call on {0}…', server.label) : vscode.l10n.t('Running {0} calls on {1}…', calls.length, server.label), cancellable: true },
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
      log.error(`MCP batch failed: ${out.error.message}`);
      const unknown = out.error.outcomeUnknown
        ? calls.length === 1
          ? vscode.l10n.t('The change may still have happened: the call is in Tool Call History as "outcome unknown". Check the site before running them again.')
          : vscode.l10n.t('The change may still have happened: all {0} calls are in Tool Call History as "outcome unknown". Check the site before running them again.', calls.length)
        : '';
      void vscode.window.showErrorMessage(unknown ? vscode.l10n.t('Batch failed: {0} {1}', out.error.message, unknown) : vscode.l10n.t('Batch failed: {0}', out.error.message));
      return;
    }
    const unknown = out.entries.filter((e) => e.failure?.outcomeUnknown).length;
    void vscode.window.showInformationMessage(
      unknown
        ? vscode.l10n.t('Batch of {0} done: {1} ok, {2} failed ({3} with outcome unknown: the change may still have happened). See Tool Call History.', calls.length, calls.length - out.failures, out.failures, unknown)
        : vscode.l10n.t('Batch of {0} done: {1} ok, {2} failed. See Tool Call History.', calls.length, calls.length - out.failures, out.failures),
    );
  } catch (e) {
    log.error(`MCP batch failed: ${e instanceof Error ? e.message : String(e)}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('Batch failed: {0}', e instanceof Error ? e.message : String(e)));
  }
}

/**
 * [#40.5] The agent chat's tools (src/chat/agentHost.ts) and the MCP service under them
 * (src/platform/mcpService.ts), against the vscode double and the local gateway's /v1/mcp: the real
 * Services, the real key store, the real network layer.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startGateway, type RunningGateway } from '../../../localGateway/server';
import { LOCAL_KEYS } from '../../../localGateway/keys';
import { Services } from '../../../../src/services';
import { ChatAgentTools } from '../../../../src/chat/agentHost';
import { McpService, SetupNeededError } from '../../../../src/platform/mcpService';

let gw: RunningGateway;
let services: Services;
let agent: ChatAgentTools;

before(async () => {
  gw = await startGateway();
});
after(() => gw.close());
beforeEach(() => {
  gw.reset();
  double.reset();
  double.setConfig('aiGateway.baseUrl', gw.url, 'global');
  services = new Services(double.extensionContext() as unknown as vscode.ExtensionContext);
  agent = new ChatAgentTools(services);
});
afterEach(() => {
  agent.dispose();
  services.dispose();
});

/** Adds and activates a key, and waits for the key store's own echo of the secret write (it resets MCP connections). */
async function withKey(secret: string): Promise<void> {
  const echoed = new Promise<void>((resolve) => {
    const sub = services.keys.onDidChange((e) => {
      if (e.reason !== 'external') return;
      sub.dispose();
      resolve();
    });
  });
  await services.keys.add('local', secret, { activate: true });
  await echoed;
}
const calls = (method: string) => gw.events.list('mcp-dispatch').filter((e) => e.method === method);

describe('[#40.5] agent chat tools over MCP (agentHost.ts, mcpService.ts)', () => {
  test('[#40.5] the toolbox lists the gateway\'s tools with their read-only marks, for a User key', async () => {
    await withKey(LOCAL_KEYS.userFull);
    const box = await agent.toolbox([]);
    assert.equal(box.credential, 'user');
    const ping = box.tools.find((t) => t.name === 'ping');
    assert.equal(ping?.readOnly, true);
    assert.equal(box.tools.find((t) => t.name === 'run_site_ability')?.readOnly, false);
    assert.ok(box.tools.every((t) => t.serverId === 'gateway' && t.serverLabel === 'AI Gateway'));
    assert.ok(calls('tools/list').length >= 1);
  });

  test('[#40.5] with no API key: a setup error whose action is Add API Key, and nothing is sent', async () => {
    await assert.rejects(agent.toolbox([]), (e: unknown) => e instanceof SetupNeededError && e.message === 'Add an API key to use the gateway tools.' && e.action?.command === 'aiGateway.addApiKey');
    assert.equal(gw.events.list('mcp-dispatch').length, 0);
  });

  test('[#40.5] a tool call runs at the gateway with the active key', async () => {
    await withKey(LOCAL_KEYS.userFull);
    const box = await agent.toolbox([]);
    const out = await agent.callTool(box.tools.find((t) => t.name === 'ping')!, {}, new AbortController().signal);
    assert.notEqual(out.result.isError, true);
    assert.equal(calls('tools/call').filter((e) => e.tool === 'ping').length, 1);
  });

  test('[#40.5] a tool of a server removed from the settings: a clear error, nothing sent', async () => {
    await withKey(LOCAL_KEYS.userFull);
    const tool = { name: 'x', serverToolName: 'x', readOnly: true, serverId: 'custom-gone', serverLabel: 'Old Server' } as Parameters<ChatAgentTools['callTool']>[0];
    await assert.rejects(agent.callTool(tool, {}, new AbortController().signal), /^Error: The MCP server Old Server is no longer configured\.$/);
    assert.equal(calls('tools/call').length, 0);
  });

  test('[#40.5] a custom server that cannot be reached is left out with a log line; the gateway tools stay', async () => {
    await withKey(LOCAL_KEYS.userFull);
    double.setConfig('aiGateway.mcp.servers', [{ name: 'Broken', url: 'http://127.0.0.1:9/mcp' }], 'global');
    const broken = new McpService(services).servers().find((s) => s.kind === 'custom')!;
    const box = await agent.toolbox([broken.id]);
    assert.ok(box.tools.some((t) => t.name === 'ping'));
    assert.ok(box.tools.every((t) => t.serverId === 'gateway'));
    const log = double.outputChannels.find((c) => c.name === 'AI Gateway')!.lines.join('\n');
    assert.match(log, /Agent chat: the tools of Broken could not be listed \(.*\); left out\./);
  });

  test('[#40.5] JWT mode with no identity token: a setup error offering Set Identity Token', async () => {
    double.setConfig('aiGateway.mcp.authentication', 'jwt', 'global');
    const svc = new McpService(services);
    const gateway = svc.servers()[0];
    assert.equal(svc.credential(gateway), 'jwt');
    await assert.rejects(svc.headers(gateway), (e: unknown) => e instanceof SetupNeededError && e.action?.command === 'aiGateway.mcp.setJwt');
    svc.dispose();
  });
});

describe('[#40.5] the agent chat\'s choices', () => {
  test('[#40.5] Agent Chat Tools: Escape keeps the choice (undefined); picking only Knowledge-base search turns it on and no server', async () => {
    double.setConfig('aiGateway.mcp.servers', [{ name: 'Docs', url: 'https://docs.example/mcp' }], 'global');
    assert.equal(await agent.pickServers([], false), undefined);
    const qp = double.quickPicks[0];
    assert.equal(qp.options.canPickMany, true);
    assert.ok(qp.labels.includes('Docs'));
    double.answer(['Knowledge-base search']);
    assert.deepEqual(await agent.pickServers([], false), { servers: [], kbSearch: true });
    double.answer(['Docs']);
    const docs = await agent.pickServers([], true);
    assert.equal(docs?.kbSearch, false);
    assert.equal(docs?.servers.length, 1);
    assert.match(docs!.servers[0], /^custom-[0-9a-f]{64}$/);
  });

  test('[#40.5] the round limit is kept between 1 and 50', () => {
    assert.equal(agent.maxRounds(), 10);
    double.setConfig('aiGateway.chat.agent.maxRounds', 500, 'global');
    assert.equal(agent.maxRounds(), 50);
    double.setConfig('aiGateway.chat.agent.maxRounds', 0, 'global');
    assert.equal(agent.maxRounds(), 1);
    assert.equal(agent.confirmReadOnlyAbilities(), true);
  });
});

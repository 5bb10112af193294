/**
 * [#40.5] The usage feature's glue against the vscode double (and the local gateway's /v1/analytics):
 * activation (src/usage/registerUsage.ts), the identity-token commands and the Markdown report
 * (usageCommands.ts, usageReports.ts), and the dashboard panel (usagePanel.ts) through its webview.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startGateway, type RunningGateway } from '../../../localGateway/server';
import { LOCAL_PROJECT, mintLocalJwt } from '../../../localGateway/mcpJwt';
import { GatewayError } from '../../../../src/core/http/errors';
import { fetchAnalytics } from '../../../../src/core/usage/analyticsClient';
import type { AnalyticsQuery } from '../../../../src/core/usage/analytics';
import { AccountSecrets } from '../../../../src/platform/accountSecrets';
import { bindSettingsSource } from '../../../../src/platform/config';
import { registerUsage } from '../../../../src/usage/registerUsage';
import { USAGE_SCHEME, UsageReports } from '../../../../src/usage/usageReports';
import { UsagePanel } from '../../../../src/usage/usagePanel';
import { setIdentityTokenCommand } from '../../../../src/usage/usageCommands';

let gw: RunningGateway;
let unbind: () => void;
let dir: string;
before(async () => {
  gw = await startGateway();
  unbind = bindSettingsSource(vscode.workspace); // as activation does
  dir = mkdtempSync(join(tmpdir(), 'glue-usage-'));
});
after(async () => {
  unbind();
  await gw.close();
  rmSync(dir, { recursive: true, force: true });
});

const JWT_LIKE = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';

/** The Services slice the usage feature uses, on the double: secrets, analytics (recorded), budget, spend ledger, log. */
function services(analytics?: (q: AnalyticsQuery, signal: AbortSignal) => Promise<unknown>) {
  const context = double.extensionContext();
  const secrets = new AccountSecrets(context.secrets as never);
  const queries: AnalyticsQuery[] = [];
  const budget = { changed: 0, gatewayChanged: () => void budget.changed++, useGateway: () => new vscode.Disposable(() => undefined) };
  const entries = [{ time: new Date().toISOString(), model: 'openai/gpt-4o-mini', operation: 'chat', usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }, cost_nano: '1500' }];
  const recorded = new vscode.EventEmitter<void>();
  const s = {
    context,
    accountSecrets: secrets,
    accountClients: {
      analytics: async (q: AnalyticsQuery, signal: AbortSignal) => {
        queries.push(q);
        if (!analytics) throw new Error('no analytics in this test');
        return analytics(q, signal);
      },
    },
    budget,
    spend: { ledger: { read: async () => ({ entries, summaries: [], skipped: 0 }) }, onDidRecord: recorded.event },
    catalog: { models: [] },
    log: vscode.window.createOutputChannel('AI Gateway', { log: true }),
  };
  return { s, secrets, queries, budget, recorded };
}

const run = (id: string, ...args: unknown[]) => vscode.commands.executeCommand(id, ...args);
/** Waits (on a condition, never on time) until the page got a message of `type`. */
async function posted(panel: { webview: { posted: unknown[] } }, type: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 10_000; i++) {
    const m = panel.webview.posted.find((x) => (x as { type: string }).type === type);
    if (m) return m as Record<string, unknown>;
    await new Promise((r) => setImmediate(r));
  }
  assert.fail(`the page never got a "${type}" message: ${JSON.stringify(panel.webview.posted)}`);
}

beforeEach(() => double.reset());

describe('[#40.5] usage commands and dashboard (src/usage)', () => {
  test('[#40.5] Set Identity Token: a password box; the token goes to SecretStorage only and the budget rereads the gateway', async () => {
    const { s, secrets, budget } = services();
    const d = registerUsage(s as never);
    double.answer(JWT_LIKE);
    await run('aiGateway.usage.setIdentityToken');
    assert.equal(double.inputBoxes[0].options.password, true);
    assert.equal(await secrets.getJwt(), JWT_LIKE);
    assert.equal(budget.changed, 1);
    assert.ok(!double.messages.some((m) => m.message.includes(JWT_LIKE)));
    d.dispose();
  });

  test('[#40.2] Set Identity Token through its narrow context: Escape, or text that is not a JWT, stores nothing and leaves the budget alone', async () => {
    const { secrets, budget } = services();
    await setIdentityTokenCommand({ secrets, budget });
    double.answer('my-api-key');
    await setIdentityTokenCommand({ secrets, budget });
    assert.ok(double.inputBoxes[1].validation, 'the box says why');
    assert.equal(await secrets.getJwt(), undefined);
    assert.equal(budget.changed, 0);
  });

  test('[#40.5] Clear Identity Token: a modal whose default keeps the token; Remove removes it; with none stored it says so', async () => {
    const { s, secrets } = services();
    const d = registerUsage(s as never);
    await run('aiGateway.usage.clearIdentityToken');
    assert.equal(double.messages[0].message, 'No identity token is stored.');
    await secrets.setJwt(JWT_LIKE);
    await run('aiGateway.usage.clearIdentityToken');
    assert.equal(double.messages[1].options.modal, true);
    assert.equal(double.messages[1].defaultTitle, 'Keep Token');
    assert.equal(await secrets.getJwt(), JWT_LIKE);
    double.answer('Remove');
    await run('aiGateway.usage.clearIdentityToken');
    assert.equal(await secrets.getJwt(), undefined);
    d.dispose();
  });

  test('[G-AN-1] Show Usage Report without an identity token: refused before any request, with Set Identity Token', async () => {
    const { s, queries } = services();
    const d = registerUsage(s as never);
    double.answer('Set Identity Token');
    await run('aiGateway.usage.showReport');
    assert.equal(double.messages[0].severity, 'warning');
    assert.deepEqual(double.messages[0].titles, ['Set Identity Token']);
    assert.equal(queries.length, 0);
    assert.ok(double.executed.some((e) => e.command === 'aiGateway.usage.setIdentityToken'));
    d.dispose();
  });

  test('[G-AN-1] Show Usage Report: asks the project (saved in settings), window and grouping, queries the gateway and opens the report in the Markdown preview', async () => {
    const jwt = mintLocalJwt();
    const { s, secrets, queries } = services((q, signal) => fetchAnalytics({ baseUrl: () => gw.url, getJwt: async () => jwt, fetch: (url, init) => fetch(url, init), userAgent: 'glue-test' }, q, signal));
    const d = registerUsage(s as never);
    await secrets.setJwt(jwt);
    double.answer(LOCAL_PROJECT, 'Last 7 days', ['Model']);
    await run('aiGateway.usage.showReport');
    assert.deepEqual(double.configUpdates.map((u) => [u.key, u.value]), [['aiGateway.analytics.projectId', LOCAL_PROJECT]]);
    assert.equal(queries.length, 1);
    assert.equal(queries[0].projectId, LOCAL_PROJECT);
    assert.equal(queries[0].bucketWidth, '1h');
    assert.deepEqual(queries[0].groupBy, ['model']);
    const preview = double.executed.find((e) => e.command === 'markdown.showPreview');
    assert.ok(preview);
    const uri = preview.args[0] as vscode.Uri;
    assert.equal(uri.scheme, USAGE_SCHEME);
    const doc = double.documents.find((x) => x.uri.toString() === uri.toString())!;
    assert.match(doc.getText(), /^# Usage of project proj/m);
    assert.ok(!doc.getText().includes(jwt), 'the token is not in the report');
    d.dispose();
  });

  test('[#40.5] a refused identity token (401) names the token, not the API key, and offers Set Identity Token', async () => {
    const { s, secrets } = services(async () => {
      throw new GatewayError({ reason: 'authentication', message: 'expired', status: 401 } as never);
    });
    const d = registerUsage(s as never);
    await secrets.setJwt(JWT_LIKE);
    double.setConfig('aiGateway.analytics.projectId', LOCAL_PROJECT);
    double.answer('Last 24 hours', ['Model']);
    await run('aiGateway.usage.showReport');
    const shown = double.messages.at(-1)!;
    assert.equal(shown.severity, 'error');
    assert.match(shown.message, /^Loading usage: The gateway refused the identity token \(401\)/);
    assert.deepEqual(shown.titles, ['Set Identity Token']);
    d.dispose();
  });

  test('[#40.5] the dashboard without a token: the local ledger only, with the credential action; a page message outside the protocol is ignored; Export asks where and writes nothing when cancelled', async () => {
    const { s, queries } = services();
    const d = registerUsage(s as never);
    await run('aiGateway.usage.show');
    const panel = double.webviewPanels[0];
    assert.equal(panel.viewType, 'aiGateway.usage');
    assert.match(panel.webview.html, /Content-Security-Policy/);
    panel.webview.send({ type: 'drop tables' });
    panel.webview.send({ type: 'query', request: { preset: 'day' }, rid: 5 });
    const data = await posted(panel, 'data');
    assert.equal(data.rid, 5, 'the answer carries the query\'s id [#40.10]');
    assert.equal((data.gatewayNote as { credentialAction?: boolean }).credentialAction, true);
    assert.equal(data.gateway, undefined);
    assert.equal(queries.length, 0, 'no gateway request without a token');
    assert.ok(!panel.webview.posted.some((m) => (m as { type: string }).type === 'error'));

    // Export: the save dialog cancelled writes nothing; a chosen file gets the CSV.
    panel.webview.send({ type: 'export', what: 'entries' });
    for (let i = 0; i < 10_000 && double.saveDialogs.length === 0; i++) await new Promise((r) => setImmediate(r));
    assert.equal(double.saveDialogs.length, 1);
    await new Promise((r) => setImmediate(r));
    assert.ok(!panel.webview.posted.some((m) => (m as { type: string }).type === 'status'), 'nothing exported');
    const target = vscode.Uri.file(join(dir, 'entries.csv'));
    double.answerSaveDialog(target);
    panel.webview.send({ type: 'export', what: 'entries' });
    const status = await posted(panel, 'status');
    assert.match(String(status.message), /^Exported the local ledger’s entries/);
    assert.match(double.readFile(target) ?? '', /openai\/gpt-4o-mini/);
    // A second Show Usage reveals the same tab.
    await run('aiGateway.usage.show');
    assert.equal(double.webviewPanels.length, 1);
    assert.equal(panel.reveals.length, 1);
    panel.dispose();
    d.dispose();
  });

  test('[#41.7] without a token the ledger view is grouped as asked among its own dimensions, and the page is told which controls apply and why', async () => {
    const { s } = services();
    UsagePanel.show(s as never, {});
    const panel = double.webviewPanels[0];
    panel.webview.send({ type: 'query', request: { preset: 'day', authMethod: 'api_key', groupBy: ['operation', 'site_id'] } });
    const data = await posted(panel, 'data');
    const controls = data.controls as { groupBy: string[]; filters: boolean; reason: string };
    assert.deepEqual(controls.groupBy, ['model', 'operation']);
    assert.equal(controls.filters, false);
    assert.match(controls.reason, /records only the model and the operation/);
    const ledger = data.ledger as { dims: string[]; rows: Array<{ dims: string[]; requests: number }> };
    assert.deepEqual(ledger.dims, ['operation']);
    assert.deepEqual(ledger.rows.map((r) => [r.dims, r.requests]), [[['chat'], 1]]);
    panel.dispose();
  });

  test('[#40.5] UsagePanel with a token and a project: the gateway’s figures and the reconciliation come with the ledger', async () => {
    const jwt = mintLocalJwt();
    const { s, queries } = services((q, signal) => fetchAnalytics({ baseUrl: () => gw.url, getJwt: async () => jwt, fetch: (url, init) => fetch(url, init), userAgent: 'glue-test' }, q, signal));
    double.setConfig('aiGateway.analytics.projectId', LOCAL_PROJECT);
    UsagePanel.show(s as never, { analytics: (q, signal) => s.accountClients.analytics(q, signal) as never, getJwt: async () => jwt });
    const panel = double.webviewPanels[0];
    panel.webview.send({ type: 'query', request: { preset: 'week' } });
    const data = await posted(panel, 'data');
    assert.ok(data.gateway, 'the gateway’s view');
    assert.equal(data.gatewayNote, undefined);
    assert.equal(data.controls, undefined, 'every control applies [#41.7]');
    assert.ok(queries.some((q) => q.authMethod === 'api_key' && q.bucketWidth === '1d'), 'the reconciliation query');
    panel.dispose();
  });

  test('usageReports: a report is kept by its own address; a forgotten one says how to get it back; titles cannot make paths', () => {
    const reports = new UsageReports();
    const a = reports.add('Usage a/b: c', '# A');
    assert.equal(a.scheme, USAGE_SCHEME);
    assert.equal(a.path, '/Usage a-b- c.md');
    assert.equal(reports.provideTextDocumentContent(a), '# A');
    const b = reports.add('Usage a/b: c', '# B');
    assert.notEqual(b.toString(), a.toString());
    assert.match(reports.provideTextDocumentContent(vscode.Uri.from({ scheme: USAGE_SCHEME, path: '/gone.md' })), /no longer available/);
    reports.dispose();
    assert.match(reports.provideTextDocumentContent(a), /no longer available/);
  });
});

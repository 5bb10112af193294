/**
 * [#40.2] [#40.5] The hosting account glue against the vscode double and the local gateway's hosting API:
 * activation (src/account/registerAccount.ts), the lazy and real cache exclusions file systems
 * (lazyExclusionsFs.ts, cacheExclusionsFs.ts), the id pick list (idPicker.ts) and the commands' bodies
 * (hostingCommands.ts), driven as a user drives them.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startGateway, type RunningGateway } from '../../../localGateway/server';
import { HOSTING_IDS, HOSTING_NAMES, HOSTING_USERS } from '../../../localGateway/hosting';
import { HostingClient } from '../../../../src/core/account/hostingClient';
import { AccountSecrets } from '../../../../src/platform/accountSecrets';
import { hostingBaseUrl } from '../../../../src/platform/accountClients';
import { bindSettingsSource } from '../../../../src/platform/config';
import { registerAccount } from '../../../../src/account/registerAccount';
import { HOSTING_SCHEME, LazyExclusionsFs } from '../../../../src/account/lazyExclusionsFs';
import { CacheExclusionsFs, exclusionsUri } from '../../../../src/account/cacheExclusionsFs';
import { pickHostingId, RecentHostingIds } from '../../../../src/account/idPicker';
import { cancelTransferCommand, clearCredentialsCommand, setCredentialsCommand, transferSiteCommand, type HostingContext } from '../../../../src/account/hostingCommands';

let gw: RunningGateway;
let unbind: () => void;
before(async () => {
  gw = await startGateway();
  unbind = bindSettingsSource(vscode.workspace); // as activation does
});
after(async () => {
  unbind();
  await gw.close();
});

const OWNER = { username: 'owner', password: HOSTING_USERS.owner.password };

/** The account pieces the extension builds (src/services.ts), on the double's SecretStorage and the local gateway. */
function account() {
  const context = double.extensionContext();
  const secrets = new AccountSecrets(context.secrets as never);
  const clients = { hostingClient: async () => new HostingClient({ baseUrl: () => hostingBaseUrl().url, getCredentials: () => secrets.getHostingCredentials(), fetch: (url, init) => fetch(url, init), userAgent: 'glue-test' }) };
  const log = vscode.window.createOutputChannel('AI Gateway', { log: true }) as unknown as vscode.LogOutputChannel;
  return { context, secrets, clients, log };
}

function activate() {
  const a = account();
  const d = registerAccount({ accountSecrets: a.secrets, accountClients: a.clients, log: a.log, context: a.context } as never);
  return { ...a, dispose: () => d.dispose() };
}

function hostingContext(a: ReturnType<typeof account>): HostingContext {
  const lazyFs = new LazyExclusionsFs(async () => new CacheExclusionsFs(a.clients as never, a.log));
  return { log: a.log, secrets: a.secrets, clients: a.clients, lazyFs, recent: new RecentHostingIds(a.context.globalState as never) };
}

const run = (id: string, ...args: unknown[]) => vscode.commands.executeCommand(id, ...args);
const serverList = async (installId: string) => {
  const c = new HostingClient({ baseUrl: () => `${gw.url}/hosting`, getCredentials: async () => OWNER, fetch: (url, init) => fetch(url, init), userAgent: 'glue-test' });
  return c.getCacheExclusions(installId);
};
/** A scripted answer for an id pick list: types (pastes) `id`, then picks the row it makes. */
const paste = (id: string) => (s: { kind: string; input?: unknown }) => {
  (s as { input: { value: string } }).input.value = id;
  return id;
};

beforeEach(() => {
  double.reset();
  double.setConfig('aiGateway.hosting.baseUrl', `${gw.url}/hosting`);
});

describe('[#40.5] hosting account commands (src/account)', () => {
  test('[#29.2] Set Hosting Credentials on the placeholder address: an error with Open Settings, and no username or password is asked for', async () => {
    double.setConfig('aiGateway.hosting.baseUrl', undefined);
    const a = account();
    await setCredentialsCommand(hostingContext(a));
    assert.equal(double.inputBoxes.length, 0);
    assert.equal(double.messages[0].severity, 'error');
    assert.match(double.messages[0].message, /No password was asked for\.$/);
    assert.deepEqual(double.messages[0].titles, ['Open Settings']);
    assert.equal(await a.secrets.getHostingCredentials(), undefined);
  });

  test('[#40.2] Set Hosting Credentials: username then a password box; the password goes to SecretStorage only, never into a message', async () => {
    const a = account();
    double.answer('owner', OWNER.password);
    await setCredentialsCommand(hostingContext(a));
    assert.deepEqual(double.inputBoxes.map((b) => [b.options.step, b.options.password]), [
      [1, false],
      [2, true],
    ]);
    assert.deepEqual(await a.secrets.getHostingCredentials(), OWNER);
    assert.ok(!double.messages.some((m) => m.message.includes(OWNER.password)));
    assert.ok(!JSON.stringify(double.configUpdates).includes(OWNER.password), 'not in settings');
    assert.match(double.messages.at(-1)!.message, /^Hosting API credentials saved for owner/);
    await clearCredentialsCommand(hostingContext(a));
    assert.equal(await a.secrets.getHostingCredentials(), undefined);
  });

  test('[#40.5] Escape at the password step stores nothing', async () => {
    const a = account();
    double.answer('owner');
    await setCredentialsCommand(hostingContext(a));
    assert.equal(await a.secrets.getHostingCredentials(), undefined);
  });

  test('[#40.5] activation registers the exclusions file system; Edit Cache Exclusions without credentials offers Set Hosting Credentials and reads nothing when dismissed', async () => {
    const { dispose } = activate();
    assert.ok(double.fileSystemProvider(HOSTING_SCHEME) instanceof LazyExclusionsFs);
    await run('aiGateway.hosting.editCacheExclusions', HOSTING_IDS.installNormal);
    assert.equal(double.messages[0].severity, 'warning');
    assert.deepEqual(double.messages[0].titles, ['Set Hosting Credentials']);
    assert.equal(double.shownDocuments.length, 0);
    assert.equal(double.progress.length, 0, 'nothing was read');
    dispose();
  });

  test('[H-CE-1] [#39.6] Edit Cache Exclusions opens the server list; a save that removes an entry asks first (default Don’t Save) and sends nothing until Save and Remove', async () => {
    const { secrets, dispose } = activate();
    await secrets.setHostingCredentials(OWNER);
    const install = HOSTING_IDS.installNormal;
    const before = await serverList(install);
    await run('aiGateway.hosting.editCacheExclusions', install);
    const opened = double.shownDocuments.at(-1)!;
    assert.equal(opened.uri.toString(), exclusionsUri(install).toString());
    const doc = double.documents.find((d) => d.uri.toString() === opened.uri.toString())!;
    assert.match(doc.getText(), /\^\/cart/);
    assert.match(doc.getText(), /\^utm_/);

    // Save a document without ^utm_: a modal names what goes.
    const fs = double.fileSystemProvider(HOSTING_SCHEME) as LazyExclusionsFs;
    const edited = doc.getText().replace(/.*\^utm_.*\n/, '');
    assert.notEqual(edited, doc.getText());
    await assert.rejects(fs.writeFile(opened.uri, new TextEncoder().encode(edited)), /Not saved: nothing was sent/);
    const asked = double.messages.at(-1)!;
    assert.equal(asked.options.modal, true);
    assert.equal(asked.defaultTitle, "Don't Save");
    assert.match(String(asked.options.detail), /query arg: \^utm_/);
    assert.deepEqual(await serverList(install), before, 'nothing sent');

    double.answer('Save and Remove');
    await fs.writeFile(opened.uri, new TextEncoder().encode(edited));
    const after = await serverList(install);
    assert.ok(!after.some((e) => e.value === '^utm_'));
    assert.ok(after.some((e) => e.value === '^/cart'));
    assert.match(double.messages.at(-1)!.message, /^Cache exclusions of install .* saved: /);
    // Put back what was there for the other tests.
    await new HostingClient({ baseUrl: () => `${gw.url}/hosting`, getCredentials: async () => OWNER, fetch: (url, init) => fetch(url, init), userAgent: 'glue-test' }).putCacheExclusions(install, before);
    dispose();
  });

  test('[#29.10] a save with an invalid pattern is refused with the reason, marked on its line, and sends nothing', async () => {
    const { secrets, dispose } = activate();
    await secrets.setHostingCredentials(OWNER);
    const install = HOSTING_IDS.installNormal;
    const before = await serverList(install);
    await run('aiGateway.hosting.editCacheExclusions', install);
    const fs = double.fileSystemProvider(HOSTING_SCHEME) as LazyExclusionsFs;
    const doc = double.documents.find((d) => d.uri.scheme === HOSTING_SCHEME)!;
    const broken = doc.getText().replace('^/cart', '^/cart(');
    await assert.rejects(fs.writeFile(doc.uri, new TextEncoder().encode(broken)), /Nothing was sent/);
    assert.match(double.messages.at(-1)!.message, /^Cache exclusions not saved: /);
    const marks = double.diagnostics('aiGateway.cacheExclusions')?.get(doc.uri.toString());
    assert.equal(marks?.length, 1);
    assert.equal(marks![0].range.start.line, broken.split('\n').findIndex((l) => l.includes('^/cart(')));
    assert.deepEqual(await serverList(install), before);
    dispose();
  });

  test('[H-TR-4] [#41.9] Transfer Site…: four steps, a modal whose default is Don’t Transfer (nothing sent), then Transfer Site sends it; Copy Transfer ID copies the id', async () => {
    const a = account();
    await a.secrets.setHostingCredentials(OWNER);
    const ctx = hostingContext(a);
    const created = () => gw.events.list('hosting-transfer-created').length;
    const n0 = created();
    double.answer(paste(HOSTING_IDS.siteNormal), paste(HOSTING_IDS.accountDestination), 'Immediately', 'No maintenance mode');
    await transferSiteCommand(ctx);
    assert.deepEqual(double.quickPicks.map((p) => [p.options.step, p.options.totalSteps]), [
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
    const asked = double.messages.at(-1)!;
    assert.equal(asked.options.modal, true);
    assert.equal(asked.defaultTitle, "Don't Transfer");
    assert.equal(created(), n0, 'nothing sent without Transfer Site');

    double.answer(paste(HOSTING_IDS.siteNormal), paste(HOSTING_IDS.accountDestination), 'Immediately', 'No maintenance mode', 'Transfer Site', 'Copy Transfer ID');
    await transferSiteCommand(ctx);
    assert.equal(created(), n0 + 1);
    await new Promise((r) => setImmediate(r)); // the result notification is not awaited by the command
    const id = ctx.lastTransfer?.transferId;
    assert.ok(id);
    assert.equal(double.clipboard, id);
    assert.match(double.messages.at(-1)!.message, /^Copied transfer ID /);

    // Cancel Site Transfer: both steps start on the last transfer; the modal's default keeps it.
    const activeFirst = (s: { kind: string; input?: unknown }) => ((s as { input: { activeItems: Array<{ label: string }> } }).input.activeItems[0]?.label);
    const cancelled = () => gw.events.list('request').filter((e) => (e as { method?: string }).method === 'DELETE' && /site_transfers/.test(String((e as { path?: string }).path))).length;
    const c0 = cancelled();
    double.answer(activeFirst, activeFirst);
    await cancelTransferCommand(ctx);
    const asked2 = double.messages.at(-1)!;
    assert.equal(asked2.message, 'Stop this site transfer?');
    assert.equal(asked2.options.detail?.split('\n').slice(0, 4).join('\n'), `Site: ${HOSTING_NAMES.siteNormal}\nID: ${HOSTING_IDS.siteNormal}\nTransfer: transfer of ${HOSTING_NAMES.siteNormal}\nID: ${id}`);
    // [#41.9] one action, worded by what it does (never "Cancel …", which VS Code's own Cancel would contradict); the safe choice is the default.
    assert.deepEqual([asked2.titles, asked2.defaultTitle], [['Keep the Transfer', 'Stop the Transfer'], 'Keep the Transfer']);
    assert.equal(cancelled(), c0, "VS Code's Cancel (Escape) changes nothing");
    double.answer(activeFirst, activeFirst, 'Keep the Transfer');
    await cancelTransferCommand(ctx);
    assert.equal(cancelled(), c0, 'Keep the Transfer changes nothing');
    double.answer(activeFirst, activeFirst, 'Stop the Transfer');
    await cancelTransferCommand(ctx);
    assert.equal(cancelled(), c0 + 1);
    // [#41.10] the site by the name the API gave it, with its id.
    assert.match(double.messages.at(-1)!.message, new RegExp(`transfer ${id} of site ${HOSTING_NAMES.siteNormal} \\(${HOSTING_IDS.siteNormal}\\)\\.$`));
  });

  test('[#41.10] the Transfer Site dialog: the site and the account by name once the API named them, each id alone on its own line (never wrapped mid-id)', async () => {
    const a = account();
    await a.secrets.setHostingCredentials(OWNER);
    const ctx = hostingContext(a);
    const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
    // A line that holds an id holds nothing else but "ID: ": 40 characters, inside a modal's width in any language.
    const idLinesAlone = (detail: string) => {
      for (const line of detail.split('\n').filter((l) => UUID.test(l))) assert.match(line, new RegExp(`^ID: ${UUID.source}$`, 'i'), line);
    };
    // The first transfer: the API has named nothing yet, so the dialog says so rather than showing an id as the name.
    double.answer(paste(HOSTING_IDS.siteNormal), paste(HOSTING_IDS.accountDestination), 'Immediately', 'No maintenance mode', 'Transfer Site');
    await transferSiteCommand(ctx);
    const first = String(double.messages.find((m) => m.message === 'Transfer this site to another account?')!.options.detail);
    assert.equal(first.split('\n').slice(0, 4).join('\n'), `Site: name not known yet\nID: ${HOSTING_IDS.siteNormal}\nDestination account: name not known yet\nID: ${HOSTING_IDS.accountDestination}`);
    idLinesAlone(first);
    // The answer named the site and both accounts: the next dialog shows the names, the ids below them.
    double.reset();
    double.setConfig('aiGateway.hosting.baseUrl', `${gw.url}/hosting`);
    // The pick lists now offer them by name.
    double.answer(HOSTING_NAMES.siteNormal, HOSTING_NAMES.accountDestination, 'Immediately', 'No maintenance mode');
    await transferSiteCommand(ctx);
    const second = String(double.messages.at(-1)!.options.detail);
    assert.equal(second.split('\n').slice(0, 4).join('\n'), `Site: ${HOSTING_NAMES.siteNormal}\nID: ${HOSTING_IDS.siteNormal}\nDestination account: ${HOSTING_NAMES.accountDestination}\nID: ${HOSTING_IDS.accountDestination}`);
    idLinesAlone(second);
    // The site's transfer is stopped again for the tests after this one.
    const c = new HostingClient({ baseUrl: () => `${gw.url}/hosting`, getCredentials: async () => OWNER, fetch: (url, init) => fetch(url, init), userAgent: 'glue-test' });
    await c.cancelTransfer(HOSTING_IDS.siteNormal, ctx.lastTransfer!.transferId);
  });

  test('[#29.2] the id pick list: a pasted UUID is offered; text that is no id says so and cannot be accepted', async () => {
    const a = account();
    const recent = new RecentHostingIds(a.context.globalState as never);
    double.answer((s) => {
      (s as unknown as { input: { value: string } }).input.value = HOSTING_IDS.installNormal.toUpperCase();
      const items = (s as { items: Array<{ label: string; description?: string }> }).items;
      assert.deepEqual(items.map((i) => [i.label, i.description]), [
        [HOSTING_IDS.installNormal, 'the id you pasted or typed'],
        ['$(clippy) Use the id in the clipboard', 'read when you choose this'],
      ]);
      return HOSTING_IDS.installNormal;
    });
    assert.equal(await pickHostingId(recent, { kind: 'install', title: 'Edit', what: 'the install' }), HOSTING_IDS.installNormal);
    double.answer((s) => {
      (s as unknown as { input: { value: string } }).input.value = 'blog';
      return '$(error) "blog" is not an id';
    });
    assert.equal(await pickHostingId(recent, { kind: 'site', title: 'Transfer', what: 'the site' }), undefined);
  });

  /** A clipboard whose reads the test counts and answers (a string, or a rejection for a refused read). */
  function spyClipboard(answer: () => Promise<string>): { reads: () => number; restore: () => void } {
    const clipboard = vscode.env.clipboard as { readText: () => Thenable<string> };
    const original = clipboard.readText;
    let n = 0;
    clipboard.readText = () => {
      n++;
      return answer();
    };
    return { reads: () => n, restore: () => void (clipboard.readText = original) };
  }
  const settle = () => new Promise((r) => setImmediate(r));

  test('[#41.4] the id pick list shows at once, without reading the clipboard; the clipboard is one of its items', async () => {
    const a = account();
    double.driveQuickPicks();
    const spy = spyClipboard(() => new Promise<string>(() => {})); // a read that never answers (the browser's permission wait)
    try {
      const picked = pickHostingId(new RecentHostingIds(a.context.globalState as never), { kind: 'site', title: 'Transfer', what: 'the site' });
      const qp = double.createdQuickPicks.at(-1)!;
      assert.equal(qp.visible, true, 'shown before any clipboard read answered');
      assert.equal(spy.reads(), 0, 'the clipboard is not read to show the list');
      assert.deepEqual(qp.items.map((i) => i.label), ['No site ids used yet', '$(clippy) Use the id in the clipboard']);
      qp.type(HOSTING_IDS.siteNormal);
      qp.accept(HOSTING_IDS.siteNormal);
      assert.equal(await picked, HOSTING_IDS.siteNormal);
      assert.equal(spy.reads(), 0, 'picking a typed id never reads the clipboard');
    } finally {
      spy.restore();
    }
  });

  test('[#41.4] the clipboard item reads the clipboard only when picked and takes the UUID it holds', async () => {
    const a = account();
    double.driveQuickPicks();
    const spy = spyClipboard(async () => ` ${HOSTING_IDS.siteNormal.toUpperCase()}\n`);
    try {
      const picked = pickHostingId(new RecentHostingIds(a.context.globalState as never), { kind: 'site', title: 'Transfer', what: 'the site' });
      const qp = double.createdQuickPicks.at(-1)!;
      assert.equal(spy.reads(), 0);
      qp.accept('$(clippy) Use the id in the clipboard');
      assert.equal(await picked, HOSTING_IDS.siteNormal);
      assert.equal(spy.reads(), 1);
    } finally {
      spy.restore();
    }
  });

  for (const [what, answer, error] of [
    ['text that is no id', async () => 'hunter2 is my password', /^\$\(error\) The clipboard holds no id\. Copy the site \(a UUID\) first, or paste it into the box above\.$/],
    ['an empty clipboard', async () => '', /^\$\(error\) The clipboard is empty\./],
    ['a refused read', () => Promise.reject(new Error('Unable to read from the browser')), /^\$\(error\) The clipboard could not be read\. Paste the site into the box above instead\.$/],
  ] as const) {
    test(`[#41.4] the clipboard item with ${what}: a clear error in the list, nothing picked, the list stays as it was`, async () => {
      const a = account();
      const recent = new RecentHostingIds(a.context.globalState as never);
      await recent.remember([{ kind: 'site', id: HOSTING_IDS.siteNormal, name: 'blog' }]);
      double.driveQuickPicks();
      const spy = spyClipboard(answer);
      try {
        let result: string | undefined | 'pending' = 'pending';
        const picked = pickHostingId(recent, { kind: 'site', title: 'Transfer', what: 'the site' }).then((v) => (result = v));
        const qp = double.createdQuickPicks.at(-1)!;
        qp.type('blo');
        qp.accept('$(clippy) Use the id in the clipboard');
        await settle();
        assert.equal(spy.reads(), 1);
        assert.equal(result, 'pending', 'nothing was picked');
        assert.equal(qp.visible, true, 'the list stays open');
        assert.equal(qp.value, 'blo', 'what was typed is kept');
        const clipItem = qp.items.find((i) => i.label === '$(clippy) Use the id in the clipboard')!;
        assert.match(String(clipItem.detail), error);
        assert.doesNotMatch(JSON.stringify(qp.items), /hunter2/, 'the clipboard text is not shown');
        assert.deepEqual(new RecentHostingIds(a.context.globalState as never).list().map((r) => r.id), [HOSTING_IDS.siteNormal], 'nothing remembered');
        qp.accept('blog');
        assert.equal(await picked, HOSTING_IDS.siteNormal, 'the list still works after the error');
      } finally {
        spy.restore();
      }
    });
  }
});

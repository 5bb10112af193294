import { double } from '../vscodeDouble'; // first
// The editor's side of MCP sign-in (src/platform/mcpOAuth.ts): the question before the browser opens,
// the redirect through the URI handler (asExternalUri), tokens in SecretStorage only, Sign Out.
import { test, describe, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { McpSignIn, oauthSecretKey } from '../../../src/platform/mcpOAuth';
import { McpConnection } from '../../../src/core/mcp/mcpClient';
import { startOAuthServer, type OAuthTestServer } from './oauthServer';

const EXT = 'publisher.ai-gateway';
let srv: OAuthTestServer | undefined;
let glue: McpSignIn | undefined;
beforeEach(() => double.reset());
afterEach(async () => {
  glue?.dispose();
  await srv?.close();
  srv = undefined;
});

/** Waits (on a condition, not a time) until the browser was asked to open something. */
async function opened(n: number): Promise<vscode.Uri> {
  for (let i = 0; i < 10_000 && double.openedExternal.length < n; i++) await new Promise((r) => setImmediate(r));
  assert.ok(double.openedExternal.length >= n, 'the browser was opened');
  return double.openedExternal[n - 1];
}

const SERVER = { id: 'custom-1', label: 'Tickets', url: 'https://tickets.example.com/mcp' };

describe('MCP sign-in in the editor', () => {
  test('[#42.1] the redirect URI is the extension URI mapped by asExternalUri (works when the host is remote)', async () => {
    const ctx = double.extensionContext();
    glue = new McpSignIn(ctx.secrets as unknown as vscode.SecretStorage, EXT);
    assert.equal(await glue.redirectUrl(), `vscode://${EXT}/mcp-oauth`);
  });

  test('[#42.1] the browser opens only after the user confirms the host; the safe answer is the default', async () => {
    const ctx = double.extensionContext();
    glue = new McpSignIn(ctx.secrets as unknown as vscode.SecretStorage, EXT);
    double.answer('Not Now');
    await assert.rejects(glue.authorize(SERVER, new URL('https://login.example.org/authorize?state=s1')), /declined/);
    assert.equal(double.openedExternal.length, 0);
    assert.match(double.messages[0].message, /login\.example\.org/);
    assert.equal(double.messages[0].defaultTitle, 'Not Now');
  });

  test('[#42.1] the authorization URL reaches the browser unchanged: a redirect URI with its own query (code-server\'s /callback?vscode-reqid=…) survives', async () => {
    const ctx = double.extensionContext();
    glue = new McpSignIn(ctx.secrets as unknown as vscode.SecretStorage, EXT);
    double.answer('Sign In');
    const page = new URL('https://login.example.org/authorize?response_type=code&state=s9');
    page.searchParams.set('redirect_uri', 'https://editor.example/stable-1/callback?vscode-reqid=1&vscode-scheme=code-oss&vscode-authority=publisher.ai-gateway&vscode-path=%2Fmcp-oauth');
    const pending = glue.authorize(SERVER, page);
    await opened(1);
    // A vscode.Uri would be decoded and encoded again on its way (the redirect URI's `?` and `&` then end its value early).
    assert.equal(double.openedExternalText[0], page.href);
    double.openUri(vscode.Uri.parse(`vscode://${EXT}/mcp-oauth?code=c&state=s9`));
    await pending;
  });

  test('[#42.4] a sign-in page on this computer (a local server the user added) is named in a warning before it opens, Not Now the default; a public one carries no such warning', async () => {
    const ctx = double.extensionContext();
    glue = new McpSignIn(ctx.secrets as unknown as vscode.SecretStorage, EXT);
    const local = { id: 'custom-2', label: 'Local', url: 'http://127.0.0.1:7001/mcp' };
    double.answer('Not Now');
    await assert.rejects(glue.authorize(local, new URL('http://127.0.0.1:7002/authorize?state=s2')), /declined/);
    const asked = double.messages.at(-1)!;
    assert.equal(asked.message, 'Local asks you to sign in at 127.0.0.1:7002.');
    assert.equal(asked.options.modal, true);
    assert.equal(asked.defaultTitle, 'Not Now');
    assert.match(asked.options.detail ?? '', /^This link points at this computer or a private network \(.+\), not a public site\. This link uses plain http/);
    assert.equal(double.openedExternal.length, 0, 'nothing opens unless Sign In is chosen');
    double.answer('Not Now');
    await assert.rejects(glue.authorize(SERVER, new URL('https://login.example.org/authorize?state=s3')), /declined/);
    assert.match(double.messages.at(-1)!.options.detail ?? '', /^Your browser opens the sign-in page of login\.example\.org\./);
  });

  test('[#42.4] a sign-in page with a user name or password in its address is not opened and not asked about', async () => {
    const ctx = double.extensionContext();
    glue = new McpSignIn(ctx.secrets as unknown as vscode.SecretStorage, EXT);
    await assert.rejects(glue.authorize(SERVER, new URL('https://user:pw@login.example.org/authorize?state=s4')), /was not opened: the link carries a user name or password/);
    assert.equal(double.messages.length, 0);
    assert.equal(double.openedExternal.length, 0);
  });

  test('[#42.1] an authorization page over plain http (not loopback) is refused without asking', async () => {
    const ctx = double.extensionContext();
    glue = new McpSignIn(ctx.secrets as unknown as vscode.SecretStorage, EXT);
    await assert.rejects(glue.authorize(SERVER, new URL('http://login.example.org/authorize?state=s1')), /not on https/);
    assert.equal(double.messages.length, 0);
    assert.equal(double.openedExternal.length, 0);
  });

  test('[#42.1] the wait ends on the redirect back with this sign-in\'s state; another state is ignored', async () => {
    const ctx = double.extensionContext();
    glue = new McpSignIn(ctx.secrets as unknown as vscode.SecretStorage, EXT);
    double.answer('Sign In');
    const pending = glue.authorize(SERVER, new URL('https://login.example.org/authorize?state=mine'));
    const u = await opened(1);
    assert.equal(u.authority, 'login.example.org');
    double.openUri(vscode.Uri.parse(`vscode://${EXT}/mcp-oauth?code=evil&state=other`));
    double.openUri(vscode.Uri.parse(`vscode://${EXT}/mcp-oauth?code=good&state=mine`));
    const back = await pending;
    assert.equal(back.searchParams.get('code'), 'good');
  });

  test('[#42.1] a whole sign-in against a local OAuth server: tokens only in SecretStorage (never settings), Sign Out deletes them', async () => {
    srv = await startOAuthServer();
    const ctx = double.extensionContext();
    glue = new McpSignIn(ctx.secrets as unknown as vscode.SecretStorage, EXT, () => (u, i) => fetch(u, i));
    const server = { id: 'custom-2', label: 'Local', url: srv.mcpUrl };
    const oauth = await glue.oauthFor(server);
    double.answer('Sign In');
    // "The browser": when the page is opened, the server redirects at once; the editor gets the redirect.
    void opened(1).then(async (page) => {
      const res = await fetch(page.toString(true), { redirect: 'manual' });
      await res.body?.cancel();
      double.openUri(vscode.Uri.parse(res.headers.get('location') ?? ''));
    });
    const conn = await McpConnection.connect({ url: srv.mcpUrl, fetch: (u, i) => fetch(u, i), getHeaders: async () => ({}), oauth });
    await conn.close();
    const stored = await ctx.secrets.get(oauthSecretKey('custom-2'));
    assert.match(stored ?? '', /"access_token":"at-/);
    assert.equal(double.configUpdates.length, 0);
    assert.equal(await glue.isSignedIn('custom-2'), true);
    await glue.signOut('custom-2');
    assert.equal(await ctx.secrets.get(oauthSecretKey('custom-2')), undefined);
  });
});

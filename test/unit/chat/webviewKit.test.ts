/**
 * The webview kit's host side: one shell and CSP for every webview, one panel registry.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newNonce, webviewCsp, webviewHtml } from '../../../src/webviewKit/html';
import { PanelRegistry } from '../../../src/webviewKit/panels';
import { toolsHtml } from '../../../src/mcp/toolsHtml';

test('the CSP loads nothing but our nonce script, our styles and fonts, and data: images (local ones only when asked)', () => {
  assert.equal(webviewCsp('vscode-src:', 'N'), "default-src 'none'; script-src 'nonce-N'; style-src vscode-src: 'nonce-N'; img-src data:; font-src vscode-src:");
  assert.match(webviewCsp('vscode-src:', 'N', { localImages: true }), /; img-src vscode-src: data:; /);
});

test('the shell escapes every URI and the title, and gives each script the nonce', () => {
  const html = webviewHtml({ cspSource: 'src:', nonce: 'abc', scriptUri: 'https://x/a.js?"><script>', styleUris: ['s1.css', 's2.css'], title: '<b>T</b>' });
  assert.ok(!html.includes('"><script>'), 'an URI cannot close its attribute');
  assert.ok(html.includes('<title>&#60;b&#62;T&#60;/b&#62;</title>'));
  assert.equal(html.match(/<link rel="stylesheet" href="s\d\.css" nonce="abc">/g)?.length, 2);
  for (const tag of html.match(/<script[^>]*>/g) ?? []) assert.match(tag, /nonce="abc"/);
  assert.match(html, /<main id="app"><\/main>/);
  // The tools page is the same shell.
  const tools = toolsHtml({ cspSource: 'src:', nonce: 'abc', scriptUri: 'tools.js', styleUri: 'tools.css', title: 'Tool: x' });
  assert.match(tools, /content="default-src 'none'; script-src 'nonce-abc'; style-src src: 'nonce-abc'; img-src data:; font-src src:"/);
  assert.notEqual(newNonce(), newNonce());
  assert.match(newNonce(), /^[A-Za-z0-9_-]{24}$/);
});

test('the shell preloads the fonts it is given beside the stylesheets, escaped, and nothing when given none', () => {
  const html = webviewHtml({ cspSource: 'src:', nonce: 'abc', scriptUri: 'a.js', styleUris: ['s.css'], title: 'T', preloadFonts: ['https://x/codicon.ttf?"><script>'] });
  const preloads = html.match(/<link rel="preload"[^>]*>/g) ?? [];
  assert.equal(preloads.length, 1);
  assert.match(preloads[0], /^<link rel="preload" href="https:\/\/x\/codicon\.ttf\?&#34;&#62;&#60;script&#62;" as="font" type="font\/ttf" crossorigin>$/);
  // In <head>, before the stylesheet that uses it, so its fetch starts first.
  assert.ok(html.indexOf('rel="preload"') < html.indexOf('rel="stylesheet"') && html.indexOf('rel="preload"') < html.indexOf('</head>'));
  assert.ok(!webviewHtml({ cspSource: 'src:', nonce: 'abc', scriptUri: 'a.js', styleUris: [], title: 'T' }).includes('preload'));
});

test('the panel registry keeps one panel per key, forgets a disposed one, and closes all', () => {
  const reg = new PanelRegistry<string, { name: string; dispose(): void }>();
  const disposed: string[] = [];
  const mk = (name: string) => ({ name, dispose: () => void disposed.push(name) });
  const a = mk('a');
  const forgetA = reg.add('k1', a);
  reg.add('k2', mk('b'));
  assert.equal(reg.get('k1'), a);
  forgetA();
  assert.equal(reg.get('k1'), undefined);
  const a2 = mk('a2');
  reg.add('k1', a2);
  forgetA(); // a stale forget does not remove the newer panel
  assert.equal(reg.get('k1'), a2);
  reg.disposeAll();
  assert.deepEqual(disposed.sort(), ['a2', 'b']);
  assert.equal(reg.size, 0);
});

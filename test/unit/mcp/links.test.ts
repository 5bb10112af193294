/**
 * Links in the tools webview go through the webview kit's one interceptor (src/webview/kit/links.ts),
 * installed once on the document in the capture phase. VS Code's webview wrapper is a bubble-phase
 * listener on the window that opens any clicked <a href> itself; a link with no listener of its own
 * (a tool's description once had none) must still never reach it. Only http(s) URIs are ever rendered
 * as links in results.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { installLinkInterceptor, isWebLink } from '../../../src/webview/kit/links';
import { FakeDocument } from '../chat/fakeLinkDom';

test('a link in a tool description, with no listener of its own, opens only through the host', () => {
  const doc = new FakeDocument();
  const opened: string[] = [];
  installLinkInterceptor(doc, (h) => opened.push(h));
  const description = doc.body.child('header').child('div', { class: 'description' }).child('p');
  const link = description.child('a', { href: 'javascript:alert(1)' });
  const click = doc.dispatch('click', link);
  assert.equal(click.wrapperSaw, false, "VS Code's window listener must not see the click");
  assert.equal(click.defaultPrevented, true);
  const middle = doc.dispatch('auxclick', description.child('a', { href: 'https://docs.example.test/a' }).child('strong'));
  assert.equal(middle.wrapperSaw, false);
  assert.deepEqual(opened, ['javascript:alert(1)', 'https://docs.example.test/a'], 'the host judges every link, whatever its scheme');
  // A right click opens nothing, and still never reaches the wrapper.
  assert.equal(doc.dispatch('auxclick', link, 2).wrapperSaw, false);
  assert.equal(opened.length, 2);
});

test('a listener on the link itself runs too late: the document interceptor has already stopped the click', () => {
  const doc = new FakeDocument();
  installLinkInterceptor(doc, () => undefined);
  const link = doc.body.child('a', { href: 'https://a.test' });
  let ownListenerRan = false;
  link.addEventListener('click', () => void (ownListenerRan = true));
  doc.dispatch('click', link);
  assert.equal(ownListenerRan, false);
});

test('every webview entry installs the one link interceptor, and no webview listens for link clicks itself', () => {
  const root = join(__dirname, '..', '..', '..', 'src', 'webview');
  const entries = readdirSync(root).filter((d) => existsSync(join(root, d, 'main.ts')));
  assert.ok(entries.includes('chat') && entries.includes('tools'), `entries: ${entries.join(', ')}`);
  for (const d of entries) {
    const src = readFileSync(join(root, d, 'main.ts'), 'utf8');
    assert.match(src, /installLinkInterceptor\(document,/, `src/webview/${d}/main.ts must install the kit's link interceptor`);
  }
  const files = (function walk(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
  })(root).filter((f) => !f.endsWith(join('kit', 'links.ts')));
  for (const f of files) assert.doesNotMatch(readFileSync(f, 'utf8'), /addEventListener\('auxclick'/, `${f} must leave link clicks to the kit's interceptor`);
});

test('only http(s) URIs count as web links', () => {
  for (const uri of ['https://a.test/x', 'http://a.test', 'HTTPS://A.TEST/']) assert.equal(isWebLink(uri), true, uri);
  for (const uri of ['vscode://ms-python.python/x', 'javascript:alert(1)', 'kb://col_docs/doc_intro', 'file:///etc/passwd', 'command:workbench.action.quit', 'not a uri', '']) {
    assert.equal(isWebLink(uri), false, uri);
  }
});

/**
 * The webview subset of the translations (#30.2): a page carries in its `data-l10n` only the messages its
 * own scripts use (the build lists them per page in dist/webview/l10n-keys.json: esbuild.mjs, from the
 * source files esbuild put in each script, core modules included; src/webviewKit/l10nKeys.ts on the host),
 * not the whole bundle of the extension. Without the list a page gets the whole bundle, never less.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { getL10nPseudoLocalized } from '@vscode/l10n-dev';
import { webviewHtml } from '../../../src/webviewKit/html';
import { L10N_KEYS_FILE } from '../../../src/webviewKit/l10nKeys';
import { unexpectedFiles } from '../../../scripts/publish';

const ROOT = resolve(__dirname, '../../..');
type Bundle = Record<string, string>;
const bundleOf = (lang: string): Bundle => JSON.parse(readFileSync(join(ROOT, 'l10n', `bundle.l10n.${lang}.json`), 'utf8')) as Bundle;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

/** What the page's kit reads back from `data-l10n` (src/webview/kit/l10n.ts), or undefined without it. */
function pageBundle(html: string): Bundle | undefined {
  const attr = /<body data-locale="[^"]*"(?: data-l10n="([^"]*)")?>/.exec(html);
  assert.ok(attr, 'the body carries the page\'s language');
  return attr[1] === undefined ? undefined : (JSON.parse(attr[1].replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))) as Bundle);
}

const page = (bundle: Bundle, locale: string, l10nPage?: { dir: string; name: string }): string =>
  webviewHtml({ cspSource: 'src:', nonce: 'n', scriptUri: 'chat.js', styleUris: [], title: 'T', l10n: { bundle, locale }, l10nPage });

/** Host-only messages: shown by the extension host, never by a page. */
const HOST_ONLY = ['AI Gateway: {0} failed to start', 'Copied as JSON-RPC request.', 'AI Gateway Chat'];

describe('the webviews carry only their own messages', () => {
  let keys: Record<string, string[]>;
  let dir: string;
  before(async () => {
    const { webviewL10nKeys } = await import('../../../esbuild.mjs');
    keys = await webviewL10nKeys();
    dir = mkdtempSync(join(tmpdir(), 'aigw-l10n-keys-'));
    writeFileSync(join(dir, L10N_KEYS_FILE), JSON.stringify(keys));
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('[#30.2] every message of src/webview and of the core and protocol modules the pages import is in its page\'s subset', async () => {
    const { extractMessages } = await import('../../../scripts/l10n.mjs');
    const all = new Set(Object.values(keys).flat());
    const missing = Object.keys(await extractMessages(tsFiles(join(ROOT, 'src', 'webview')))).filter((k) => !all.has(k));
    assert.deepEqual(missing, [], 'messages of src/webview no page carries');
    // Per page, across module boundaries: the chat page includes its renderer (chat-renderer.js, a build of
    // its own) and the kit's Markdown; tools and usage include their protocol modules (src/protocol);
    // a message with a comment is keyed `message/comment` as in the bundles.
    for (const [name, k] of [
      ['chat', 'Send (Enter)'],
      ['chat', 'Image not loaded: {0} (open externally)'],
      ['tools', '{0} is required'],
      ['usage', 'Model/a usage dimension'],
    ]) assert.ok(keys[name]?.includes(k), `${name}: ${k}`);
    for (const name of ['chat', 'tools', 'usage', 'compare', 'mediaImage', 'mediaAudio']) assert.ok(keys[name]?.length, `a subset for ${name}`);
    for (const k of HOST_ONLY) assert.ok(!all.has(k), `host-only: ${k}`);
  });

  test('[#30.2] the subsets are much smaller than the whole bundle: all pages together under half of it, the chat page under a quarter', () => {
    // Measured 2026-11-27: 1,258 messages in the bundle; the chat page 167, all six pages together 338.
    const whole = Object.keys(bundleOf('es')).length;
    const all = new Set(Object.values(keys).flat()).size;
    assert.ok(all < whole / 2, `${all} of ${whole}`);
    assert.ok(keys.chat.length < whole / 4, `chat: ${keys.chat.length} of ${whole}`);
  });

  test('[#30.2] a Spanish (or pseudo-locale) page carries its own messages\' translations and no host-only one; without the build\'s list, the whole bundle', () => {
    const es = bundleOf('es');
    const chat = pageBundle(page(es, 'es', { dir, name: 'chat' }));
    assert.ok(chat);
    assert.equal(chat['Send (Enter)'], es['Send (Enter)']);
    assert.equal(chat['Image not loaded: {0} (open externally)'], es['Image not loaded: {0} (open externally)']);
    for (const k of HOST_ONLY) assert.ok(k in es && !(k in chat), `host-only: ${k}`);
    assert.deepEqual(Object.keys(chat).sort(), keys.chat.filter((k) => k in es).sort());
    const usage = pageBundle(page(es, 'es', { dir, name: 'usage' }));
    assert.equal(usage?.['Model/a usage dimension'], es['Model/a usage dimension']);
    assert.ok(!usage || !('Send (Enter)' in usage), 'the chat\'s words stay out of the usage page');
    // The pseudo-locale (qps-ploc, generated from the English bundle at packaging): same keys, same subset.
    const pseudo = getL10nPseudoLocalized(JSON.parse(readFileSync(join(ROOT, 'l10n', 'bundle.l10n.json'), 'utf8')) as Bundle) as Bundle;
    const pseudoChat = pageBundle(page(pseudo, 'qps-ploc', { dir, name: 'chat' }));
    assert.ok(pseudoChat && pseudoChat['Send (Enter)'] === pseudo['Send (Enter)'] && pseudoChat['Send (Enter)'] !== 'Send (Enter)');
    assert.ok(!('AI Gateway: {0} failed to start' in pseudoChat));
    // No list (plain-Node test, no build), an unknown page, no page named: the whole bundle.
    const empty = mkdtempSync(join(tmpdir(), 'aigw-l10n-none-'));
    try {
      assert.deepEqual(pageBundle(page(es, 'es', { dir: empty, name: 'chat' })), es);
      assert.deepEqual(pageBundle(page(es, 'es', { dir, name: 'somePageTheBuildDoesNotKnow' })), es);
      assert.deepEqual(pageBundle(page(es, 'es')), es);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  test('[#30.2] the build writes the subsets to dist/webview/l10n-keys.json, and the VSIX ships that file', () => {
    const out = mkdtempSync(join(tmpdir(), 'aigw-l10n-build-'));
    try {
      execFileSync(process.execPath, ['esbuild.mjs', `--outdir=${out}`], { cwd: ROOT, stdio: 'ignore' });
      assert.deepEqual(JSON.parse(readFileSync(join(out, 'webview', L10N_KEYS_FILE), 'utf8')), keys);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
    assert.deepEqual(unexpectedFiles(['dist/webview/l10n-keys.json']), []);
    assert.match(readFileSync(join(ROOT, '.vscodeignore'), 'utf8'), /^!dist\/webview\/l10n-keys\.json$/m);
  });
});

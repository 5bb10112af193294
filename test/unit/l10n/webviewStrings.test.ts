/**
 * The webviews' words (#30.2): every `l10n.t` of src/webview, src/protocol and src/webviewKit is found by
 * the extractor (scripts/l10n.mjs hands it src/core/l10n.ts imports as `@vscode/l10n`, the only module
 * besides `vscode` that @vscode/l10n-dev looks at), has a Spanish and a German translation with the same
 * placeholders, and reaches the page: the host writes the bundle and the display language into the
 * body's data attributes (no inline script), the page's kit configures src/core/l10n.ts from them.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { getL10nJson } from '@vscode/l10n-dev';
import * as l10n from '../../../src/core/l10n';
import { loadingBody, webviewHtml } from '../../../src/webviewKit/html';
import { parseBundle } from '../../../src/webview/kit/l10n';
import { creditsOfNano, formatCredits, formatCreditsText, formatDecimal } from '../../../src/webview/kit/format';

const ROOT = resolve(__dirname, '../../..');
const DIRS = ['src/webview', 'src/protocol', 'src/webviewKit'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

const placeholders = (s: string): string[] => [...s.matchAll(/\{[^{}\s]+\}/g)].map((m) => m[0]).sort();

/** One extraction per mode for the whole file (each parses every webview, protocol and core file; #40.7). */
const extracted = new Map<boolean, Promise<Readonly<Record<string, string | { message: string }>>>>();
function extract(rewrite: boolean): Promise<Readonly<Record<string, string | { message: string }>>> {
  let run = extracted.get(rewrite);
  if (!run) {
    run = (async () => {
      const { asExtractorSource } = await import('../../../scripts/l10n.mjs');
      const files = DIRS.flatMap((d) => tsFiles(join(ROOT, d)));
      return Object.freeze(await getL10nJson(files.map((f) => ({ extension: '.ts', contents: rewrite ? asExtractorSource(f, readFileSync(f, 'utf8')) : readFileSync(f, 'utf8') }))));
    })();
    extracted.set(rewrite, run);
  }
  return run;
}

describe('the webviews\' words', () => {
  afterEach(() => l10n.configure({}));

  test('[#30.2] the extractor finds the webviews\' messages only through the src/core/l10n.ts import it is handed', async () => {
    const seen = await extract(true);
    for (const m of ['Send (Enter)', 'Tool call {0}: {1}', 'AI Gateway Usage', 'Loading…', '{0} is required', 'Signed in with']) assert.ok(m in seen, m);
    // Left to itself, @vscode/l10n-dev sees no message of ours: that is why scripts/l10n.mjs exists.
    assert.deepEqual(Object.keys(await extract(false)), []);
  });

  test('[#30.2] every webview message has a Spanish and a German translation with the same placeholders', async () => {
    const seen = await extract(true);
    for (const lang of ['es', 'de']) {
      const tr = JSON.parse(readFileSync(join(ROOT, 'l10n', `bundle.l10n.${lang}.json`), 'utf8')) as Record<string, string>;
      const problems: string[] = [];
      for (const [key, v] of Object.entries(seen)) {
        const english = typeof v === 'string' ? v : v.message;
        if (typeof tr[key] !== 'string' || !tr[key].trim()) problems.push(`missing: ${key}`);
        else if (placeholders(tr[key]).join() !== placeholders(english).join()) problems.push(`placeholders differ: ${key} -> ${tr[key]}`);
      }
      assert.deepEqual(problems, [], `l10n/bundle.l10n.${lang}.json`);
    }
  });

  test('[#30.2] the page carries its bundle and display language in body data attributes, escaped, and no script of its own', () => {
    l10n.configure({ bundle: { 'Loading…': 'Wird "geladen"…</body><script>' }, locale: 'de' });
    const html = webviewHtml({ cspSource: 'src:', nonce: 'n', scriptUri: 'a.js', styleUris: [], title: 'T', body: loadingBody() });
    assert.match(html, /<html lang="de">/);
    const attr = /<body data-locale="de" data-l10n="([^"]*)">/.exec(html);
    assert.ok(attr, 'data attributes on <body>');
    assert.ok(!attr[1].includes('<') && !attr[1].includes('"'), 'escaped');
    assert.equal(html.match(/<script/g)?.length, 1, 'only the page\'s own script');
    assert.match(html, /<p>Wird &#34;geladen&#34;…&#60;\/body&#62;&#60;script&#62;<\/p>/);
    // What the page's kit reads back is the bundle it was given.
    const decoded = attr[1].replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
    assert.deepEqual(parseBundle(decoded), { 'Loading…': 'Wird "geladen"…</body><script>' });
    // English: no bundle in the page at all.
    l10n.configure({ locale: 'en' });
    assert.match(webviewHtml({ cspSource: 'src:', nonce: 'n', scriptUri: 'a.js', styleUris: [], title: 'T' }), /<body data-locale="en">/);
  });

  test('[#30.2] the page\'s kit takes only a flat object of strings from the attribute', () => {
    assert.equal(parseBundle(undefined), undefined);
    assert.equal(parseBundle('not json'), undefined);
    assert.equal(parseBundle('[1,2]'), undefined);
    assert.deepEqual(parseBundle('{"a":"b","c":1,"d":{"message":"e"},"f":null}'), { a: 'b', d: 'e' });
  });

  test('[#30.2] credits and counts in a webview are formatted for the display language, every digit kept', () => {
    assert.equal(creditsOfNano('123456'), '0.000123456');
    assert.equal(creditsOfNano('-1500000000'), '-1.5');
    assert.equal(creditsOfNano('1000000000'), '1');
    assert.equal(formatCredits('0.000123456'), '0.000123456 credits');
    assert.equal(formatCredits('1'), '1 credit');
    assert.equal(formatCreditsText('12345.000000001 credits'), '12,345.000000001 credits');
    l10n.configure({ bundle: { '{0} credits': '{0} Credits' }, locale: 'de' });
    assert.equal(formatDecimal('12345.000000001'), '12.345,000000001');
    assert.equal(formatCreditsText('12345.000000001 credits'), '12.345,000000001 Credits');
    assert.equal(formatCreditsText('not a number'), 'not a number');
  });
});

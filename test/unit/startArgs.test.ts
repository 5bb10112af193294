/**
 * [#41.14] `npm start`'s language: `--locale es|de|en` (or `--locale=de`) and the variable
 * AI_GATEWAY_SANDBOX_LOCALE pick the sandbox's display language; anything else stops with the usage.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseStartArgs, StartArgsError } from '../../scripts/startArgs';

const ROOT = join(__dirname, '..', '..');

describe('[#41.14] npm start -- --locale', () => {
  test('[#41.14] no argument, no variable: the sandbox keeps its own language', () => {
    assert.deepEqual(parseStartArgs([], {}), {});
  });
  test('[#41.14] --locale es, --locale=de, upper case, and en', () => {
    assert.deepEqual(parseStartArgs(['--locale', 'es'], {}), { locale: 'es' });
    assert.deepEqual(parseStartArgs(['--locale=de'], {}), { locale: 'de' });
    assert.deepEqual(parseStartArgs(['--locale', 'DE'], {}), { locale: 'de' });
    assert.deepEqual(parseStartArgs(['--locale', 'en'], {}), { locale: 'en' });
  });
  test('[#41.14] AI_GATEWAY_SANDBOX_LOCALE, and the argument wins over it', () => {
    assert.deepEqual(parseStartArgs([], { AI_GATEWAY_SANDBOX_LOCALE: 'es' }), { locale: 'es' });
    assert.deepEqual(parseStartArgs(['--locale', 'de'], { AI_GATEWAY_SANDBOX_LOCALE: 'es' }), { locale: 'de' });
    assert.deepEqual(parseStartArgs([], { AI_GATEWAY_SANDBOX_LOCALE: ' ' }), {});
  });
  test('[#41.14] a language without translations, a missing value or an unknown argument stops with the usage', () => {
    for (const argv of [['--locale', 'fr'], ['--locale'], ['--locale='], ['--lang', 'es'], ['es']]) {
      assert.throws(() => parseStartArgs(argv, {}), (e: unknown) => e instanceof StartArgsError && /Usage: npm start \[-- --locale en\|es\|de\]/.test(e.message), argv.join(' '));
    }
    assert.throws(() => parseStartArgs([], { AI_GATEWAY_SANDBOX_LOCALE: 'fr' }), /AI_GATEWAY_SANDBOX_LOCALE: "fr"/);
  });
  test('[#41.14] every language offered has the extension\'s translations, and README documents the argument and the variable', () => {
    for (const l of ['es', 'de']) {
      assert.ok(readFileSync(join(ROOT, 'l10n', `bundle.l10n.${l}.json`), 'utf8').length > 0);
      assert.ok(readFileSync(join(ROOT, `package.nls.${l}.json`), 'utf8').length > 0);
    }
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    assert.match(readme, /npm start -- --locale es/);
    assert.match(readme, /AI_GATEWAY_SANDBOX_LOCALE/);
  });
});

/**
 * [#30.2] The translation bundles: l10n/bundle.l10n.json is what the extractor finds in src today
 * (`npm run l10n:export`, @vscode/l10n-dev's extractor over src, src/core/l10n.ts calls included), and
 * the Spanish and German bundles translate every message, keep its placeholders, and hold no key
 * that src no longer has.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const LANGUAGES = ['es', 'de'] as const;

type Bundle = Record<string, string | { message: string; comment: string[] }>;

function read(file: string): Bundle {
  return JSON.parse(readFileSync(join(ROOT, 'l10n', file), 'utf8')) as Bundle;
}

function messageOf(entry: Bundle[string]): string {
  return typeof entry === 'string' ? entry : entry.message;
}

/** `{0}`, `{name}`: the placeholders of a message, sorted (a translation may reorder them). */
export function placeholders(message: string): string[] {
  return (message.match(/\{(\d+|[A-Za-z_][A-Za-z0-9_]*)\}/g) ?? []).sort();
}

test('[#30.2] l10n/bundle.l10n.json equals a fresh export of src (run npm run l10n:export after changing a message)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'l10n-export-'));
  try {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts/l10n.mjs'), 'export', '--out', dir], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const fresh = JSON.parse(readFileSync(join(dir, 'bundle.l10n.json'), 'utf8')) as Bundle;
    const committed = read('bundle.l10n.json');
    assert.deepEqual(
      { notInBundle: Object.keys(fresh).filter((k) => !(k in committed)), noLongerInSrc: Object.keys(committed).filter((k) => !(k in fresh)) },
      { notInBundle: [], noLongerInSrc: [] },
    );
    assert.deepEqual(committed, fresh);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

for (const lang of LANGUAGES) {
  test(`[#30.2] bundle.l10n.${lang}.json translates every message with the same placeholders, and has no stale key`, () => {
    const english = read('bundle.l10n.json');
    const translated = read(`bundle.l10n.${lang}.json`);
    const missing = Object.keys(english).filter((k) => typeof translated[k] !== 'string' || (translated[k] as string).trim() === '');
    assert.deepEqual(missing, [], `messages without a ${lang} translation`);
    const stale = Object.keys(translated).filter((k) => !(k in english));
    assert.deepEqual(stale, [], `${lang} keys that src no longer has`);
    const mismatched = Object.keys(english).filter((k) => JSON.stringify(placeholders(messageOf(english[k]!))) !== JSON.stringify(placeholders(translated[k] as string)));
    assert.deepEqual(mismatched, [], `${lang} translations whose placeholders differ from the English`);
  });
}

test('[#30.2] the placeholder check sees a dropped or renamed placeholder', () => {
  assert.deepEqual(placeholders('Deleted {0} of {1}'), ['{0}', '{1}']);
  assert.deepEqual(placeholders('{1} de {0} eliminados'), ['{0}', '{1}']);
  assert.notDeepEqual(placeholders('Hola {nombre}'), placeholders('Hello {name}'));
  assert.notDeepEqual(placeholders('Borrado'), placeholders('Deleted {0}'));
});

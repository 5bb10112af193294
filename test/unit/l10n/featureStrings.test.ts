/**
 * The feature folders' host strings (chat host side, content, knowledge, language models, tools, media,
 * usage, compare, model ids) go through the translator, and Spanish and German translate each of them.
 *
 * The messages are extracted the way `npm run l10n:export` does (@vscode/l10n-dev), with one addition:
 * the extractor only recognises `vscode` and `@vscode/l10n` imports, so the vscode-free modules' calls of
 * src/core/l10n.ts are read as if imported from `@vscode/l10n` (same call shape, same keys).
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { getL10nJson } from '@vscode/l10n-dev';
import * as l10n from '../../../src/core/l10n';
import { addKeyNode } from '../../../src/knowledge/knowledgeList';
import { deleteCollectionQuestion, indexSummary } from '../../../src/knowledge/knowledgeText';
import { judgeLink } from '../../../src/chat/chatSecurity';
import { checkSaveTarget } from '../../../src/media/mediaFiles';

const FOLDERS = ['chat', 'content', 'knowledge', 'lm', 'mcp', 'media', 'usage', 'compare', 'modelIds'];
const ROOT = path.resolve(__dirname, '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : name.endsWith('.ts') ? [p] : [];
  });
}

async function featureMessages(): Promise<Record<string, string>> {
  const files = FOLDERS.flatMap((f) => sources(path.join(ROOT, 'src', f))).map((p) => ({
    contents: readFileSync(p, 'utf8').replace(/from '(\.\.\/)+core\/l10n'/g, "from '@vscode/l10n'"),
    extension: '.ts',
  }));
  const json = await getL10nJson(files);
  return Object.fromEntries(Object.entries(json).map(([key, v]) => [key, typeof v === 'string' ? v : v.message]));
}

const bundle = (lang: string): Record<string, string> => JSON.parse(readFileSync(path.join(ROOT, 'l10n', `bundle.l10n.${lang}.json`), 'utf8')) as Record<string, string>;
const placeholders = (s: string): string[] => (s.match(/\{[^}]*\}/g) ?? []).sort();

afterEach(() => l10n.configure({}));

describe('feature host strings', () => {
  test('[#30.2] every chat, content, knowledge, LM, tool, media, usage, compare and model-id message has a Spanish and a German translation with its placeholders', async () => {
    const messages = await featureMessages();
    // The folders hold a few hundred messages; none found means the strings skipped localisation.
    assert.ok(Object.keys(messages).length > 400, `only ${Object.keys(messages).length} messages found in the feature folders`);
    for (const lang of ['es', 'de']) {
      const translations = bundle(lang);
      const missing = Object.keys(messages).filter((k) => typeof translations[k] !== 'string' || translations[k].trim() === '');
      assert.deepEqual(missing, [], `l10n/bundle.l10n.${lang}.json lacks these messages`);
      const broken = Object.keys(messages).filter((k) => placeholders(translations[k]).join() !== placeholders(messages[k]).join());
      assert.deepEqual(broken, [], `l10n/bundle.l10n.${lang}.json changes the placeholders of these messages`);
    }
  });

  test('[#30.2] the vscode-free knowledge, chat-link and media-file words follow the display language, counts in its digits', async () => {
    l10n.configure({ bundle: bundle('es'), locale: 'es' });
    assert.equal(addKeyNode('collections').text, 'Agrega una clave de API para ver tus colecciones');
    assert.equal(deleteCollectionQuestion({ name: 'Manual', documentCount: 3 }), '¿Eliminar la colección "Manual" y sus 3 documentos? Esta acción no se puede deshacer.');
    const plan = { send: [], unchanged: [], skipped: [] };
    assert.equal(indexSummary('Docs', plan, { sent: 0, notSent: 2, cancelled: true, failed: false }, (r) => r), 'Se indexaron 0 archivos en "Docs". Cancelado: no se enviaron 2 archivos.');
    const refused = judgeLink('javascript:alert(1)');
    assert.equal(refused.kind === 'refuse' && refused.reason, 'los vínculos javascript: no se abren desde el chat');
    await assert.rejects(checkSaveTarget('/tmp/x.png', []), /^SaveTargetError: Primero abre una carpeta/);

    l10n.configure({ bundle: bundle('de'), locale: 'de' });
    assert.equal(deleteCollectionQuestion({ name: 'Handbuch', documentCount: 1234 }), 'Sammlung „Handbuch“ und ihre 1.234 Dokumente löschen? Dies kann nicht rückgängig gemacht werden.');
  });
});

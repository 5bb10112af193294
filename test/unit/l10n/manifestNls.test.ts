/**
 * #30.2, the manifest: every user-visible string of package.json is a "%key%" (scripts/manifestNls.mjs
 * lists the fields: titles, categories, view names, welcome texts, the walkthrough, setting descriptions,
 * the tool's and providers' names), package.nls.json has each key's English text and the translations
 * (package.nls.es.json, package.nls.de.json) have every key, no stale one, and keep what must not change:
 * markdown and command links, code spans, setting links, placeholders, line breaks and product names.
 * The walkthrough's pages are translated too: VS Code replaces "%key%" in every manifest string, media
 * paths included, so each translation names its own copy under media/walkthrough/<locale>/.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LOCALES, localizeManifest, nlsKeyOf, readMessages, readRawManifest, referencedKeys, userVisibleFields } from '../../../scripts/manifestNls.mjs';

const ROOT = join(__dirname, '..', '..', '..');
interface RawManifest {
  contributes: {
    commands: Array<{ title: string }>;
    configuration: { properties: Record<string, { markdownDescription?: string; enumDescriptions?: string[] }> };
    walkthroughs: Array<{ steps: Array<{ media: { markdown?: string } }> }>;
    viewsWelcome: Array<{ contents: string }>;
    languageModelTools: Array<{ modelDescription: string; inputSchema: unknown }>;
    chatParticipants?: unknown[];
  };
}
const raw = readRawManifest<RawManifest>();
const english = readMessages();
const translations = LOCALES.map((locale) => ({ locale, messages: readMessages(locale) }));

/** The user-visible fields that are still literal text, as "path: text". */
export function literalFields(manifest: unknown): string[] {
  return userVisibleFields(manifest).filter((f) => nlsKeyOf(f.value) === undefined).map((f) => `${f.path.join('.')}: ${f.value}`);
}

/** Keys the manifest names that `messages` lacks. */
export function missingKeys(manifest: unknown, messages: Record<string, unknown>): string[] {
  return [...referencedKeys(manifest)].filter((k) => typeof messages[k] !== 'string');
}

/** Keys of `messages` the manifest does not name. */
export function staleKeys(manifest: unknown, messages: Record<string, unknown>): string[] {
  const used = referencedKeys(manifest);
  return Object.keys(messages).filter((k) => !used.has(k));
}

const PRODUCT_NAMES = ['AI Gateway', 'VS Code', 'MCP', 'WordPress', 'JWT'];
const sorted = (text: string, re: RegExp): string[] => [...text.matchAll(re)].map((m) => m[0]).sort();

/** What a translation changed that it must keep from the English message. */
export function markupProblems(englishText: string, translated: string): string[] {
  const problems: string[] = [];
  const same = (what: string, re: RegExp) => {
    const [a, b] = [sorted(englishText, re), sorted(translated, re)];
    if (JSON.stringify(a) !== JSON.stringify(b)) problems.push(`${what}: ${JSON.stringify(a)} became ${JSON.stringify(b)}`);
  };
  same('link targets (command: URIs and addresses)', /\]\([^)\s]*\)/g);
  same('links', /\[(?=[^\]]*\]\()/g);
  same('code spans', /`[^`\n]*`/g);
  same('setting links', /#[\w.]+#/g);
  same('placeholders', /\{\d+\}|\{[A-Za-z_]\w*\}/g);
  same('URLs', /https?:\/\/[^\s)*]+/g);
  if (englishText.split('\n').length !== translated.split('\n').length) problems.push('line breaks (each action link of a welcome text or walkthrough step is a line of its own)');
  for (const name of PRODUCT_NAMES) if (englishText.includes(name) && !translated.includes(name)) problems.push(`product name "${name}" missing`);
  if (!translated.trim()) problems.push('empty');
  return problems;
}

describe('[#30.2] the manifest is translatable (package.nls.json)', () => {
  test('[#30.2] no user-visible manifest field is a literal: titles, categories, views, welcome texts, walkthrough, settings, tool and providers', () => {
    const fields = userVisibleFields(raw);
    // The walk covers the manifest's sections (a walker that found nothing would pass vacuously).
    const sections = new Set(fields.map((f) => (f.path[0] === 'contributes' ? String(f.path[1]) : String(f.path[0]))));
    for (const s of ['displayName', 'description', 'capabilities', 'commands', 'viewsContainers', 'views', 'viewsWelcome', 'walkthroughs', 'configuration', 'submenus', 'languageModelTools', 'languageModelChatProviders', 'mcpServerDefinitionProviders']) {
      assert.ok(sections.has(s), `the walk reaches ${s}`);
    }
    assert.ok(fields.length > 250, `${fields.length} fields`);
    assert.deepEqual(literalFields(raw), []);
  });

  test('[#30.2] the literal check sees a title, a setting description, an enum description, a walkthrough page and a welcome text put back as text', () => {
    const copy = structuredClone(raw);
    copy.contributes.commands[0].title = 'Generate Alt Text';
    copy.contributes.configuration.properties['aiGateway.baseUrl'].markdownDescription = 'Base address';
    copy.contributes.configuration.properties['aiGateway.mcp.authentication'].enumDescriptions![1] = 'A JWT';
    copy.contributes.walkthroughs[0].steps[0].media.markdown = 'media/walkthrough/connect.md';
    copy.contributes.viewsWelcome[0].contents = 'No collections yet.';
    copy.contributes.chatParticipants = [{ id: 'x', name: 'x', fullName: 'X', description: 'Ask X', commands: [{ name: 'c', description: 'Do c' }] }];
    assert.equal(literalFields(copy).length, 8, literalFields(copy).join('\n'));
  });

  test('[#30.2] what models read stays English: the tool\'s modelDescription and inputSchema are not message keys', () => {
    for (const tool of raw.contributes.languageModelTools) {
      assert.equal(nlsKeyOf(tool.modelDescription), undefined);
      assert.equal(referencedKeys(tool.inputSchema).size, 0);
    }
  });

  test('[#30.2] every %key% exists in package.nls.json and in both translations', () => {
    assert.deepEqual(missingKeys(raw, english), [], 'package.nls.json');
    for (const { locale, messages } of translations) assert.deepEqual(missingKeys(raw, messages), [], `package.nls.${locale}.json`);
    assert.deepEqual(LOCALES, ['es', 'de']);
    // The editor's own walk resolves the whole manifest in each language.
    for (const { messages } of translations) assert.doesNotThrow(() => localizeManifest(raw, messages));
  });

  test('[#30.2] no stale keys: each file has exactly the keys the manifest names', () => {
    assert.deepEqual(staleKeys(raw, english), [], 'package.nls.json');
    for (const { locale, messages } of translations) assert.deepEqual(staleKeys(raw, messages), [], `package.nls.${locale}.json`);
  });

  test('[#30.2] the key checks see a deleted key and a stale one', () => {
    const { ['command.aiGateway.chat.open.title']: _gone, ...less } = english;
    assert.deepEqual(missingKeys(raw, less), ['command.aiGateway.chat.open.title']);
    assert.deepEqual(staleKeys(raw, { ...english, 'command.aiGateway.chat.removed.title': 'Old' }), ['command.aiGateway.chat.removed.title']);
  });

  test('[#30.2] messages are plain strings with keys vsce can replace (letters, digits, "_" and ".")', () => {
    for (const [file, messages] of [['package.nls.json', english], ...translations.map((t) => [`package.nls.${t.locale}.json`, t.messages] as const)] as const) {
      for (const [k, v] of Object.entries(messages)) {
        assert.match(k, /^[\w.]+$/, `${file}: ${k}`);
        assert.equal(typeof v, 'string', `${file}: ${k}`);
      }
    }
  });

  test('[#30.2] translations keep links, command links, code spans, setting links, placeholders, line breaks and product names', () => {
    const problems: string[] = [];
    for (const { locale, messages } of translations) {
      for (const [key, en] of Object.entries(english)) {
        if (key.endsWith('.media.markdown')) continue;
        for (const p of markupProblems(en, messages[key] ?? '')) problems.push(`${locale} ${key}: ${p}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  test('[#30.2] the markup check sees a dropped command link, a changed code span and a lost line break', () => {
    const en = 'Set it.\n[Add API Key](command:aiGateway.addApiKey)\nUse `owner/model` and `#aiGateway.budget.daily#` in AI Gateway.';
    assert.deepEqual(markupProblems(en, 'Hazlo.\n[Agregar clave de API](command:aiGateway.addApiKey)\nUsa `owner/model` y `#aiGateway.budget.daily#` en AI Gateway.'), []);
    assert.equal(markupProblems(en, 'Hazlo.\nAgregar clave de API\nUsa `owner/model` y `#aiGateway.budget.daily#` en AI Gateway.').length, 2);
    assert.equal(markupProblems(en, 'Hazlo.\n[Agregar](command:aiGateway.addApiKey)\nUsa `propietario/modelo` y `#aiGateway.budget.daily#` en AI Gateway.').length, 1);
    assert.equal(markupProblems(en, 'Hazlo. [Agregar](command:aiGateway.addApiKey)\nUsa `owner/model` y `#aiGateway.budget.daily#` en AI Gateway.').length, 1);
  });

  test('[#30.2] translations are translations: only product names and words the language shares stay as in English', () => {
    const SAME = new Set(['AI Gateway', 'Chat', 'Tools', 'Agents']);
    for (const { locale, messages } of translations) {
      const copied = Object.keys(english).filter((k) => !k.endsWith('.media.markdown') && messages[k] === english[k] && !SAME.has(english[k]));
      assert.deepEqual(copied, [], `${locale}: left in English`);
    }
  });

  test('[#30.2] each translation names its own walkthrough pages, translated, with the same code and links as the English page', () => {
    for (const key of Object.keys(english).filter((k) => k.endsWith('.media.markdown'))) {
      const enPage = readFileSync(join(ROOT, english[key]), 'utf8');
      for (const { locale, messages } of translations) {
        const path = messages[key];
        assert.equal(path, english[key].replace(/[^/]+$/, `${locale}/$&`), `${locale} ${key}`);
        assert.ok(existsSync(join(ROOT, path)), `${path} exists`);
        const page = readFileSync(join(ROOT, path), 'utf8');
        assert.notEqual(page, enPage, `${path} is translated`);
        const code = (t: string) => [...sorted(t, /`[^`\n]*`/g), ...sorted(t, /```[\s\S]*?```/g)];
        assert.deepEqual(code(page), code(enPage), `${path}: code kept`);
        // Links the same, relative ones (the step's pictures) resolved from each page's own folder.
        const links = (t: string, page: string) =>
          sorted(t, /\]\([^)]*\)/g).map((l) => {
            const target = join(dirname(page), l.slice(2, -1));
            return /^\]\((?![a-z]+:|#)/i.test(l) && existsSync(join(ROOT, target)) ? `](${target})` : l;
          });
        assert.deepEqual(links(page, path), links(enPage, english[key]), `${path}: links kept`);
        assert.equal(page.split('\n').filter((l) => l.startsWith('#')).length, enPage.split('\n').filter((l) => l.startsWith('#')).length, `${path}: headings`);
      }
    }
    // They ship: .vscodeignore lets each language's folder into the VSIX.
    const ignore = readFileSync(join(ROOT, '.vscodeignore'), 'utf8');
    for (const locale of LOCALES) assert.ok(ignore.includes(`!media/walkthrough/${locale}/*.md`), `media/walkthrough/${locale}/ ships`);
    assert.ok(ignore.includes('!package.nls*.json'), 'package.nls*.json ships');
  });
});

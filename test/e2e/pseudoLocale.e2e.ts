/**
 * The pseudo-locale journey (#30.2): the editor runs in `qps-ploc`, the language `vscode-l10n-dev
 * generate-pseudo` writes (scripts/l10n.mjs pseudo, run before every VSIX build: every letter of every
 * message accented and its vowels doubled, "Send (Enter)" -> "Şḗḗƞḓ (ḖḖƞŧḗḗř)", placeholders kept). A
 * string of the extension that went through localisation therefore has no run of plain ASCII letters
 * left; one that did not reads as English. Each surface below is opened as a user would and every
 * visible text of the extension on it (text, aria-label, title, placeholder, alt) is checked; the
 * journey fails listing the strings that are still English.
 *
 * What is not the extension's words is left out: data (the message typed, model names and ids from the
 * gateway's catalog, file names, numbers, ids with digits, dots, slashes or underscores) and model output
 * (a reply's body, tool arguments and results, code). `vscode.env.language` comes from code-server's
 * `--locale` and a minimal language pack (harness.ts `writeLanguagePack`). Commands are run by their id
 * (keybindings written into the profile), so the journey does not depend on which titles are
 * translated yet; titles it must find (views, panels) match their English or their pseudo form (`shown`).
 *
 * To add a surface: one entry in SURFACES (`open`, then `texts` returning what it shows).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator } from 'playwright-core';
import { LOCAL_KEYS } from '../localGateway/keys';
import { MODEL_SPECS } from '../localGateway/catalog';
import { TOOLS } from '../localGateway/mcpTools';
import { buildFormModel, type FormField } from '../../src/protocol/toolsForm';
import { ARTIFACTS_DIR, ROOT, TIMEOUTS, launchEditor, type Editor } from './harness';

const LOCALE = 'qps-ploc';

type Bundle = Record<string, string | { message: string }>;
const readJson = (file: string): Bundle => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Bundle) : {});
const text = (v: Bundle[string] | undefined): string | undefined => (typeof v === 'string' ? v : v?.message);

/** The pseudo translation of an English message of the extension (l10n/bundle.l10n.qps-ploc.json), `{0}`… filled. */
function pseudoOf(english: string, args: readonly string[]): string | undefined {
  const fill = (m: string): string => m.replace(/\{(\d+)\}/g, (whole, i: string) => args[Number(i)] ?? whole);
  const found = text(readJson(join(ROOT, 'l10n', `bundle.l10n.${LOCALE}.json`))[english]);
  return found === undefined ? undefined : fill(found);
}

/**
 * A title the editor shows for an English message of the extension, translated or not yet (a call site
 * that has not gone through l10n shows the English, even when the same words are in the bundle from
 * another place): matches either.
 */
export function shown(english: string, ...args: string[]): RegExp {
  const e = english.replace(/\{(\d+)\}/g, (whole, i: string) => args[Number(i)] ?? whole);
  const p = pseudoOf(english, args);
  return new RegExp(`(?:${escapeRe(e)}${p ? `|${escapeRe(p)}` : ''})`);
}

/** What the manifest shows for a value of package.json: its package.nls.qps-ploc.json entry when it is a `%key%`. */
function manifestText(value: string): string {
  const key = /^%(.+)%$/.exec(value)?.[1];
  if (!key) return value;
  return text(readJson(join(ROOT, `package.nls.${LOCALE}.json`))[key]) ?? text(readJson(join(ROOT, 'package.nls.json'))[key]) ?? value;
}

/** Data the journey itself put on screen, or the gateway sent: never the extension's words. */
const TYPED = 'Hello pseudo world';
const IMAGE_PROMPT = 'A lighthouse under a red sky';
const KEY_NAME = 'work';
const DATA: string[] = [
  TYPED,
  IMAGE_PROMPT,
  KEY_NAME,
  'Ctrl+Shift+Enter',
  'Cmd+Shift+Enter',
  // The built-in MCP server's name (src/platform/mcpServers.ts), shown like any server's.
  'AI Gateway',
  ...MODEL_SPECS.flatMap((m) => [m.id, m.display_name, m.owned_by, m.description].filter((v): v is string => typeof v === 'string')),
  // A tool's own words: its title, description and schema (titles, descriptions, the labels made from property names).
  ...TOOLS.flatMap((t) => [t.name, t.title ?? '', t.description ?? '', ...schemaStrings(t.inputSchema), ...formLabels(buildFormModel(t.inputSchema).root)]),
]
  .filter((d) => d.length >= 2)
  .sort((a, b) => b.length - a.length);

function schemaStrings(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  // Titles and descriptions, and the property names themselves (a validation message quotes them: "query").
  return Object.entries(schema as Record<string, unknown>).flatMap(([k, v]) =>
    (k === 'title' || k === 'description') && typeof v === 'string'
      ? [v]
      : k === 'properties' && typeof v === 'object' && v !== null
        ? [...Object.keys(v).map((name) => `"${name}"`), ...schemaStrings(v)]
        : schemaStrings(v),
  );
}

/** The labels the form makes from property names ("collection_id" -> "Collection id"); not its own words (an array's "Item"). */
function formLabels(f: FormField): string[] {
  return [...(f.key ? [f.label] : []), ...(f.fields ?? []).flatMap(formLabels), ...(f.item?.fields ?? []).flatMap(formLabels)];
}

/**
 * The strings of `texts` that are still English: after the data is taken out, and every token that is
 * an id, a path, a number or a size (it holds a digit, a dot between letters, a slash, an underscore, an
 * @ or a colon inside it, or is lowercase words joined by hyphens) and what Intl writes for a date in a
 * locale it has no data for (month names, AM/PM, UTC), a run of two plain ASCII letters is left.
 */
export function untranslated(texts: readonly string[], data: readonly string[] = DATA): string[] {
  const out = new Set<string>();
  for (const raw of texts) {
    const t = raw.replace(/\s+/g, ' ').trim();
    if (!t) continue;
    let rest = t;
    for (const d of data) if (d.length >= 2) rest = rest.split(d).join(' ');
    rest = rest.replace(/\S*(?:\d|[A-Za-z][./_@:][A-Za-z]|\/|_)\S*/g, ' ');
    // Ids made of lowercase words and hyphens ("chat-panel", a usage operation).
    rest = rest.replace(/\b[a-z]+(?:-[a-z0-9]+)+\b/g, ' ');
    // What Intl writes for a date in a locale it has no data for (qps-ploc falls back to English month names).
    rest = rest.replace(/\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|AM|PM|UTC)\b/g, ' ');
    if (/[A-Za-z]{2,}/.test(rest)) out.add(t);
  }
  return [...out];
}

/** Visible words of a webview page: text nodes and the labels a screen reader or hover shows. */
const PAGE_TEXTS = new Function(
  'body',
  `const skip = 'pre, code, .message .body, .tool-args, .tool-args-full, .tool-result, #live, .sr-only, .model-name, .message-header .role, option:not(:checked), .uplot';
   const out = [];
   const visible = (el) => { const r = el.getClientRects(); return r.length > 0 && getComputedStyle(el).visibility !== 'hidden'; };
   const walker = body.ownerDocument.createTreeWalker(body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
   for (let n = walker.currentNode; n; n = walker.nextNode()) {
     const el = n.nodeType === 1 ? n : n.parentElement;
     if (!el || el.closest(skip) || !visible(el)) continue;
     if (n.nodeType === 3) { if (n.textContent.trim()) out.push(n.textContent); continue; }
     for (const a of ['aria-label', 'title', 'placeholder', 'alt']) { const v = el.getAttribute(a); if (v) out.push(v); }
   }
   return out;`,
) as (body: unknown) => string[];

async function pageTexts(frame: FrameLocator): Promise<string[]> {
  return frame.locator('body').evaluate(PAGE_TEXTS);
}

async function rowTexts(rows: Locator): Promise<string[]> {
  return (await rows.allInnerTexts()).flatMap((t) => t.split('\n'));
}

/** The input box is gone, or shows another step (its title changed). */
const INPUT_LEFT = new Function(
  'arg',
  `const w = document.querySelector('.quick-input-widget');
   return !w || w.style.display === 'none' || w.querySelector('.quick-input-title')?.innerText !== arg.title;`,
) as (arg: { title: string }) => boolean;

/** Commands run by id, whatever their titles read: Ctrl+Alt+Shift+<digit>. */
const KEYS = {
  chat: { key: 'ctrl+alt+shift+1', command: 'aiGateway.chat.focus' },
  addKey: { key: 'ctrl+alt+shift+2', command: 'aiGateway.addApiKey' },
  usage: { key: 'ctrl+alt+shift+3', command: 'aiGateway.usage.show' },
  tool: { key: 'ctrl+alt+shift+4', command: 'aiGateway.mcp.openTool' },
  image: { key: 'ctrl+alt+shift+5', command: 'aiGateway.media.generateImage' },
} as const;

describe('[#30.2] in the pseudo-locale, every string the extension shows went through localisation', () => {
  let editor: Editor;
  const found: Record<string, string[]> = {};

  const quick = (): Locator => editor.page.locator('.quick-input-widget');
  const press = async (k: keyof typeof KEYS): Promise<void> => {
    // The workbench, not a webview, must have the keyboard.
    await editor.page.locator('#workbench\\.parts\\.statusbar').click({ position: { x: 2, y: 2 } });
    const names: Record<string, string> = { ctrl: 'Control', alt: 'Alt', shift: 'Shift' };
    await editor.page.keyboard.press(KEYS[k].key.split('+').map((p) => names[p] ?? p).join('+'));
  };
  /** Types into the open input box and accepts it; waits until the box has taken it. */
  const answer = async (value: string): Promise<void> => {
    const box = quick().locator('.quick-input-box input');
    await box.waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
    const title = await quick().locator('.quick-input-title').innerText().catch(() => '');
    await box.fill(value);
    await box.press('Enter');
    await editor.page.waitForFunction(INPUT_LEFT, { title }, { timeout: TIMEOUTS.ui, polling: 100 });
  };

  /** The surfaces, in order; each opens itself (after those before it) and returns what it shows. */
  const SURFACES: Array<{ name: string; open: () => Promise<string[]> }> = [
    {
      name: 'notification (API key added)',
      open: async () => {
        await press('addKey');
        await answer(KEY_NAME);
        await answer(LOCAL_KEYS.userFull);
        // The check's progress, then its outcome: both are the extension's (their buttons, such as the
        // progress's Cancel, are the workbench's own).
        const toasts = editor.page.locator('.notifications-toasts .notification-toast', { hasText: KEY_NAME });
        await toasts.last().waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
        const texts = await rowTexts(toasts.locator('.notification-list-item-message'));
        await editor.screenshot('pseudo-locale-notification');
        await editor.clearNotifications();
        return texts;
      },
    },
    {
      name: 'chat (sidebar), after a reply',
      open: async () => {
        await press('chat');
        const chat = await editor.webviewFrame(/^(?:Chat|Ƈħȧȧŧ)/, { timeout: TIMEOUTS.workbench });
        await chat.locator('#input').fill(TYPED);
        await chat.locator('#input').press('Enter');
        await chat.locator('.message.assistant .usage').first().waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
        assert.equal(await chat.locator('html').getAttribute('lang'), LOCALE, 'the page is in the display language');
        // The message actions show on hover and focus: hover the reply so they count too.
        await chat.locator('.message.assistant').first().hover();
        await editor.screenshot('pseudo-locale-chat');
        return pageTexts(chat);
      },
    },
    {
      name: 'quick pick (the chat\'s model picker)',
      open: async () => {
        const chat = await editor.webviewFrame(/^(?:Chat|Ƈħȧȧŧ)/);
        await chat.locator('#model').click();
        await quick().locator('.monaco-list-row').first().waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
        await editor.screenshot('pseudo-locale-quick-pick');
        const texts = [
          ...(await rowTexts(quick().locator('.quick-input-title, .quick-input-message'))),
          (await quick().locator('.quick-input-box input').getAttribute('placeholder')) ?? '',
          // Not the rows' labels (model names) nor the separators (provider names): data.
          ...(await rowTexts(quick().locator('.monaco-list-row .label-description, .monaco-list-row .quick-input-list-label-meta'))),
        ];
        await editor.page.keyboard.press('Escape');
        return texts;
      },
    },
    {
      name: 'tools form',
      open: async () => {
        await press('tool');
        await quick().locator('.quick-input-box input').waitFor({ state: 'visible', timeout: TIMEOUTS.workbench });
        await quick().locator('.quick-input-box input').fill('kb_search');
        await quick().locator('.monaco-list-row', { hasText: 'kb_search' }).first().waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
        await quick().locator('.quick-input-box input').press('Enter');
        const tool = await editor.webviewFrame(shown('Tool: {0}', 'kb_search'), { timeout: TIMEOUTS.workbench });
        await tool.locator('#run').waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
        // Run it empty: the form's own messages (a required field) show too.
        await tool.locator('#run').click();
        await tool.locator('.err:not(:empty), #status .banner').first().waitFor({ state: 'visible', timeout: TIMEOUTS.ui }).catch(() => undefined);
        await editor.screenshot('pseudo-locale-tools');
        return pageTexts(tool);
      },
    },
    {
      name: 'usage dashboard',
      open: async () => {
        await press('usage');
        const usage = await editor.webviewFrame(shown('AI Gateway Usage'), { timeout: TIMEOUTS.workbench });
        await usage.locator('table.totals, #gatewayNote, .note').first().waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
        await editor.screenshot('pseudo-locale-usage');
        return pageTexts(usage);
      },
    },
    {
      name: 'media panel (generated image)',
      open: async () => {
        await press('image');
        await answer(IMAGE_PROMPT);
        // The size and the count: the first (default) choice of each.
        for (let i = 0; i < 2; i++) {
          await quick().locator('.monaco-list-row').first().waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
          await answer('');
        }
        const dialog = editor.page.locator('.monaco-dialog-box');
        await dialog.waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
        await dialog.getByRole('button', { name: new RegExp(`^${shown('Send').source}$`) }).click();
        const media = await editor.webviewFrame(shown('Generated Image'), { timeout: TIMEOUTS.notification });
        await media.locator('.preview img').first().waitFor({ state: 'visible', timeout: TIMEOUTS.notification });
        await editor.screenshot('pseudo-locale-media');
        return pageTexts(media);
      },
    },
    {
      name: 'command palette, the extension\'s commands',
      open: async () => {
        const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { commands: Array<{ command: string; category?: string }> } };
        const category = manifestText(manifest.contributes.commands.find((c) => c.command === 'aiGateway.addApiKey')?.category ?? 'AI Gateway');
        await editor.page.locator('#workbench\\.parts\\.statusbar').click({ position: { x: 2, y: 2 } });
        await editor.page.keyboard.press('F1');
        await quick().locator('.quick-input-box input').fill(`>${category}:`);
        const rows = quick().locator('.monaco-list-row .label-name');
        await rows.first().waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
        await editor.screenshot('pseudo-locale-palette');
        const texts = (await rows.allInnerTexts()).filter((t) => t.startsWith(`${category}:`));
        await editor.page.keyboard.press('Escape');
        assert.ok(texts.length > 0, 'the palette lists the extension\'s commands');
        return texts;
      },
    },
  ];

  before(async () => {
    editor = await launchEditor({
      name: 'pseudo-locale',
      locale: LOCALE,
      keybindings: Object.values(KEYS),
      settings: { 'aiGateway.defaultModels.image': 'openai/gpt-image-1' },
    });
  });

  after(async () => {
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    writeFileSync(join(ARTIFACTS_DIR, 'pseudo-locale-untranslated.json'), JSON.stringify(found, null, 2));
    await editor?.close();
  });

  test('[#30.2] the check itself: pseudo text passes, English and half-English fail, data is left out', () => {
    assert.deepEqual(untranslated(['Şḗḗƞḓ (ḖḖƞŧḗḗř)', `Ḿǿǿḓḗḗŀ: GPT-4o`, `${TYPED}`, 'draft.md (1,2k ƈħȧȧřş)', '0.000123 ƈřḗḗḓīŧş', 'chat-panel', 'Şħǿǿẇīƞɠ Nov 26, 2026, 05:41 PM UTC']), []);
    assert.deepEqual(untranslated(['Send (Enter)', 'Ḿǿǿḓḗḗŀ: GPT-4o. Change model', 'kb_search']), ['Send (Enter)', 'Ḿǿǿḓḗḗŀ: GPT-4o. Change model']);
  });

  for (const surface of SURFACES) {
    test(`[#30.2] ${surface.name}: no English string`, async () => {
      let texts: string[];
      try {
        texts = await surface.open();
      } catch (e) {
        await editor.screenshot(`pseudo-locale-failed-${surface.name.replace(/[^a-z0-9]+/gi, '-')}`).catch(() => undefined);
        throw e;
      }
      assert.ok(texts.length > 0, `${surface.name} shows something`);
      const english = untranslated(texts);
      found[surface.name] = english;
      assert.deepEqual(english, [], `${surface.name} shows strings that skipped localisation:\n  ${english.join('\n  ')}`);
    });
  }
});

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

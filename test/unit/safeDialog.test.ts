/**
 * [#27.5] Every modal dialog's default is the safe choice.
 *
 * VS Code's default button is the first item that is not `isCloseAffordance` (it is drawn primary and
 * has the keyboard when the dialog opens; Enter or Space choose it); close-affordance items become
 * Cancel, which only Escape and the close button choose (src/platform/safeDialog.ts says where this was read).
 * `pressEnter` models exactly that; the fake `vscode` records what the dialog was given.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface Item {
  title: string;
  isCloseAffordance?: boolean;
}
type Answer = (items: Item[]) => Item | undefined;
const shown: Array<{ severity: string; message: string; options: { modal?: boolean; detail?: string }; items: Item[] }> = [];
let answer: Answer = () => undefined;
const dialog = (severity: string) => async (message: string, options: { modal?: boolean }, ...items: Item[]) => {
  shown.push({ severity, message, options, items });
  return answer(items);
};
const fakeVscode = { window: { showWarningMessage: dialog('warning'), showInformationMessage: dialog('info'), showErrorMessage: dialog('error') } };
const loader = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
const load = loader._load;
loader._load = function (request: string, parent: unknown, isMain: boolean) {
  return request === 'vscode' ? fakeVscode : load.call(this, request, parent, isMain);
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { askRisky, confirmRisky } = require('../../src/platform/safeDialog') as typeof import('../../src/platform/safeDialog');
loader._load = load;

/** What Enter (or Space) chooses in VS Code's modal: the first item that is not a close affordance. */
const pressEnter: Answer = (items) => items.find((i) => !i.isCloseAffordance);
const pressEscape: Answer = () => undefined;
const choose = (title: string): Answer => (items) => items.find((i) => i.title === title);

describe('[#27.5] modal dialogs: the default is the safe choice', () => {
  test('[#27.5] confirmRisky: Enter chooses the safe button, so nothing risky happens; only the risky button itself says yes', async () => {
    answer = pressEnter;
    shown.length = 0;
    assert.equal(await confirmRisky({ message: 'Delete the conversation "x"?', safe: 'Keep Conversation', action: 'Delete' }), false);
    const d = shown[0]!;
    assert.equal(d.options.modal, true);
    assert.deepEqual(d.items.map((i) => i.title), ['Keep Conversation', 'Delete']);
    assert.ok(d.items.every((i) => !i.isCloseAffordance), 'a close-affordance safe item would become Cancel and leave Delete the default');
    answer = pressEscape;
    assert.equal(await confirmRisky({ message: 'm', safe: 'Keep', action: 'Delete' }), false);
    answer = choose('Delete');
    assert.equal(await confirmRisky({ message: 'm', safe: 'Keep', action: 'Delete' }), true);
  });

  test('[#27.5] the budget refusal: Enter opens the settings, never "Send Anyway"', async () => {
    const { OPEN_SETTINGS, SEND_ANYWAY } = { OPEN_SETTINGS: 'Open Settings', SEND_ANYWAY: 'Send Anyway' };
    answer = pressEnter;
    shown.length = 0;
    assert.equal(await askRisky({ message: 'The daily budget is used up.', safe: OPEN_SETTINGS, risky: [SEND_ANYWAY] }), OPEN_SETTINGS);
    assert.equal(shown[0]?.severity, 'warning');
    // The service passes exactly these (read from its source: a refactor that reorders them fails here).
    const src = readFileSync('src/platform/budgetRefusal.ts', 'utf8');
    assert.match(src, /askRisky\(\{[^}]*safe: OPEN_SETTINGS,\s*risky: \[SEND_ANYWAY\]/s);
    // Translated (#30.2): the English message is the key, so these are the buttons' English words.
    assert.match(src, /const SEND_ANYWAY = vscode\.l10n\.t\('Send Anyway'\);/);
    assert.match(src, /const OPEN_SETTINGS = vscode\.l10n\.t\('Open Settings'\);/);
  });

  test('[#27.5] the repeat of a write whose outcome is unknown: Enter leaves it out', async () => {
    answer = pressEnter;
    assert.equal(await askRisky({ message: 'm', safe: 'Leave It Out', risky: ['Run It Again'] }), 'Leave It Out');
  });

  function tsFiles(dir: string): string[] {
    const out: string[] = [];
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) out.push(...tsFiles(p));
      else if (name.endsWith('.ts')) out.push(p);
    }
    return out;
  }

  /**
   * Modals asked directly, each with why its first button is safe. Anything else that is modal goes
   * through src/platform/safeDialog.ts (askRisky / confirmRisky), which puts the safe button first.
   */
  const DIRECT_MODALS: Record<string, { count: number; why: string }> = {
    'src/keys/keyCommands.ts': { count: 2, why: 'Rotate: "Enter the Replacement Key…" only starts the steps (nothing changes before the replacement is verified); "Retry" re-runs the key check' },
    'src/chat/chatWiring.ts': { count: 1, why: 'Chat Accessibility Help (#30.3): text only, no button but the dialog\'s own close' },
    'src/mcp/mcpCommands.ts': { count: 1, why: 'Open Tool: a server\'s instructions (#42.4): text only, no button but the dialog\'s own close' },
  };

  test('[#41.9] no dialog button or question of the extension says "Continue", "OK", "Yes"/"No" or "Cancel …": each says what it does (VS Code adds its own Cancel)', () => {
    const vague = /^(Continue|OK|Ok|Yes|No|Proceed|Confirm)$|^Cancel\b/;
    const bad: string[] = [];
    for (const f of tsFiles('src')) {
      if (f.startsWith(join('src', 'webview'))) continue;
      const src = readFileSync(f, 'utf8');
      // The labels given to askRisky/confirmRisky, and every item of a modal asked directly.
      for (const m of src.matchAll(/\b(?:safe|action|go|retry|again|skip)\s*[:=]\s*vscode\.l10n\.t\('([^']*)'/g)) if (vague.test(m[1]!)) bad.push(`${f}: button "${m[1]}"`);
      for (const m of src.matchAll(/vscode\.l10n\.t\('([^']*(?:Continue|Proceed)\?)'/g)) bad.push(`${f}: question "${m[1]}"`);
    }
    assert.deepEqual(bad, []);
  });

  test('[#27.5] every modal in src/ is asked through askRisky/confirmRisky (safe button first), or is listed here with why its default is safe', () => {
    const found: Record<string, number> = {};
    for (const f of tsFiles('src')) {
      if (f === join('src', 'platform', 'safeDialog.ts') || f.startsWith(join('src', 'webview'))) continue;
      const n = (readFileSync(f, 'utf8').match(/\bmodal\s*:\s*true\b/g) ?? []).length;
      if (n > 0) found[f.split('\\').join('/')] = n;
    }
    assert.deepEqual(found, Object.fromEntries(Object.entries(DIRECT_MODALS).map(([f, v]) => [f, v.count])));
  });
});

/**
 * Every webview paints its own theme background and text colour from VS Code's variables (#30.3): a
 * page left transparent looks right over the editor but is white to axe-core and other assistive tools
 * (the image preview's grey text measured 1.6:1 against it in Dark Modern). The end-to-end proof is
 * test/e2e/a11y.e2e.ts; this is the fast check that names the stylesheet.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const SHEETS = ['media/chat.css', 'src/webview/compare/compare.css', 'src/webview/media/media.css', 'src/webview/tools/tools.css', 'src/webview/usage/usage.css'];

export function bodyColourProblems(css: string): string[] {
  const plain = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const rules = [...plain.matchAll(/(?<=^|\})\s*((?:html,\s*)?body)\s*\{([^}]*)\}/g)].map((m) => m[2]);
  const out: string[] = [];
  if (!rules.some((r) => /(?:^|;|\s)background(?:-color)?:\s*var\(--vscode-[\w-]+/.test(r))) out.push('body has no background from a VS Code colour variable');
  if (!rules.some((r) => /(?:^|;|\s)color:\s*var\(--vscode-foreground\)/.test(r))) out.push('body has no color: var(--vscode-foreground)');
  return out;
}

test('[#30.3] every webview stylesheet gives the page a theme background and foreground', () => {
  const problems = SHEETS.flatMap((f) => bodyColourProblems(readFileSync(f, 'utf8')).map((p) => `${f}: ${p}`));
  assert.deepEqual(problems, []);
  // The check can fail: a page without a background is caught.
  assert.deepEqual(bodyColourProblems('body { color: var(--vscode-foreground); padding: 0 16px; }'), ['body has no background from a VS Code colour variable']);
});

test('[#30.3] the usage dashboard\'s tables (totals, reconciliation) have a caption and column headers by scope', () => {
  const src = readFileSync('src/webview/usage/main.ts', 'utf8');
  for (const cls of ['totals', 'recon']) {
    const at = src.indexOf(`h('table', { class: '${cls}'`);
    assert.ok(at >= 0, `the ${cls} table`);
    const build = src.slice(at, src.indexOf("h('tbody')", at));
    assert.match(build, /h\('caption'/, `${cls}: a caption`);
    assert.match(build, /querySelectorAll\('thead th'\)\.forEach\(\(th\) => th\.setAttribute\('scope', 'col'\)\)/, `${cls}: scope="col"`);
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const css = readFileSync('media/chat.css', 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
const COLOR_PROPS = /(?:^|[;{\s])((?:background(?:-color)?|color|border(?:-(?:left|right|top|bottom))?(?:-color)?|outline(?:-color)?|fill|stroke))\s*:\s*([^;}]+)/g;

/** Colour values that are not theme variables: hex, rgb/hsl functions, or named colours. */
function literalColours(value: string): string[] {
  const withoutVars = value.replace(/var\(--vscode-[\w-]+(?:\s*,\s*(?:var\(--vscode-[\w-]+(?:\s*,\s*[^()]*)?\)|transparent|CanvasText))?\)/g, '');
  const found = withoutVars.match(/#[0-9a-f]{3,8}\b|\b(?:rgb|rgba|hsl|hsla)\(|\b(?:white|black|red|green|blue|gray|grey|yellow|orange|purple)\b/gi);
  return found ?? [];
}

test('chat colours come only from VS Code theme variables (light, dark and high-contrast follow the theme)', () => {
  const offenders: string[] = [];
  let checked = 0;
  for (const m of css.matchAll(COLOR_PROPS)) {
    checked++;
    if (literalColours(m[2]).length) offenders.push(`${m[1]}: ${m[2].trim()}`);
  }
  assert.ok(checked > 20, `only ${checked} colour declarations found: the scan is broken`);
  assert.deepEqual(offenders, []);
});

test('the colour check itself catches literal colours', () => {
  assert.deepEqual(literalColours('#fff'), ['#fff']);
  assert.deepEqual(literalColours('rgb(0, 0, 0)'), ['rgb(']);
  assert.deepEqual(literalColours('var(--vscode-foreground)'), []);
  assert.deepEqual(literalColours('var(--vscode-panel-border, var(--vscode-contrastBorder, transparent))'), []);
  assert.deepEqual(literalColours('var(--vscode-foreground, #333)'), ['#333']);
});

test('high-contrast themes get visible borders (contrastBorder fallbacks and forced colours)', () => {
  assert.match(css, /--vscode-contrastBorder/);
  assert.match(css, /@media \(forced-colors: active\)/);
  assert.match(css, /:focus-visible\s*{[^}]*--vscode-focusBorder/);
});

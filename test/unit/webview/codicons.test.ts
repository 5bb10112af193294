/**
 * [#41.6] Every codicon the webview code shows has its glyph in media/chat.css. The page cannot load
 * VS Code's codicon stylesheet, so chat.css maps each glyph by its code point; a name without a rule
 * draws nothing (Regenerate's "previous version" arrow was an empty button). The webview sources are
 * read with the TypeScript checker: every argument given where a `CodiconName` is expected
 * (src/webview/chat/icons.ts: icon(), iconButton(), the completion items' icons) and every
 * `codicon-<name>` class written in a string or template, resolved to the string literals it can be.
 * Each must have a `.codicon-<name>::before` rule whose code point is that name's in @vscode/codicons
 * (the font the page ships is that package's).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../../..');
const WEBVIEW = join(ROOT, 'src/webview');

/** `.codicon-NAME::before { content: '\XXXX'; }` rules of chat.css: name → code point (lower-case hex). */
function cssGlyphs(): Map<string, string> {
  const css = readFileSync(join(ROOT, 'media/chat.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const rules = new Map<string, string>();
  for (const m of css.matchAll(/\.codicon-([a-z0-9-]+)::before\s*\{\s*content:\s*'\\([0-9a-fA-F]{4})'\s*;?\s*\}/g)) rules.set(m[1], m[2].toLowerCase());
  return rules;
}

/** The codicon package's own table: name → code point. */
function codiconTable(): Map<string, string> {
  const csv = readFileSync(join(ROOT, 'node_modules/@vscode/codicons/dist/codicon.csv'), 'utf8');
  const table = new Map<string, string>();
  for (const line of csv.split(/\r?\n/).slice(1)) {
    const [name, , code] = line.split(',');
    if (name && code) table.set(name, code.trim().toLowerCase());
  }
  return table;
}

interface Scan {
  /** name → where it is used (file:line). */
  used: Map<string, string>;
  /** Icon arguments whose value the checker cannot narrow to string literals. */
  unknown: string[];
}

function scanWebview(): Scan {
  const configPath = join(WEBVIEW, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(String(d.messageText)) });
  assert.ok(parsed, 'the webview tsconfig');
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true } });
  const checker = program.getTypeChecker();
  const used = new Map<string, string>();
  const unknown: string[] = [];
  const where = (node: ts.Node): string => {
    const sf = node.getSourceFile();
    return `${sf.fileName.slice(ROOT.length + 1)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  };
  // Where a name is used: a call site rather than icon()'s own class template (icons.ts), which every name goes through.
  const add = (name: string, node: ts.Node) => {
    const at = where(node);
    if (!used.has(name) || used.get(name)!.startsWith('src/webview/chat/icons.ts')) used.set(name, at);
  };
  /** The string literals an expression can be (its type, narrowed by the checker), or undefined. */
  const literals = (expr: ts.Expression): string[] | undefined => {
    const type = checker.getTypeAtLocation(expr);
    const parts = type.isUnion() ? type.types : [type];
    const out: string[] = [];
    for (const p of parts) {
      if (!p.isStringLiteral()) return undefined;
      out.push(p.value);
    }
    return out;
  };
  const isCodiconName = (type: ts.Type | undefined): boolean => type?.aliasSymbol?.name === 'CodiconName';
  const visit = (node: ts.Node): void => {
    // An argument given where a CodiconName is expected.
    if (ts.isCallExpression(node)) {
      const sig = checker.getResolvedSignature(node);
      sig?.getParameters().forEach((param, i) => {
        const decl = param.valueDeclaration;
        const arg = node.arguments[i];
        if (!decl || !arg || !isCodiconName(checker.getTypeOfSymbolAtLocation(param, decl))) return;
        const names = literals(arg);
        if (names) for (const n of names) add(n, arg);
        else unknown.push(`${where(arg)}: ${arg.getText()}`);
      });
    }
    // A class written out: 'codicon codicon-tools', `codicon codicon-${name}`.
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      for (const m of node.text.matchAll(/\bcodicon-([a-z0-9-]+)/g)) add(m[1], node);
    }
    if (ts.isTemplateExpression(node)) {
      const texts = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
      texts.forEach((text, i) => {
        for (const m of text.matchAll(/\bcodicon-([a-z0-9-]*)/g)) {
          const endsHere = m.index + m[0].length === text.length && i < node.templateSpans.length;
          if (!endsHere) {
            if (m[1]) add(m[1], node);
            continue;
          }
          // `codicon-${x}`: the name is what x can be (followed by the next literal part's start, if any).
          const span = node.templateSpans[i];
          const suffix = /^[a-z0-9-]*/.exec(span.literal.text)?.[0] ?? '';
          const names = literals(span.expression);
          if (names) for (const n of names) add(`${m[1]}${n}${suffix}`, span.expression);
          else unknown.push(`${where(span.expression)}: ${node.getText()}`);
        }
      });
    }
    ts.forEachChild(node, visit);
  };
  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile || !sf.fileName.startsWith(`${WEBVIEW}/`)) continue;
    visit(sf);
  }
  return { used, unknown };
}

const scan = scanWebview();
const glyphs = cssGlyphs();
const table = codiconTable();

test('[#41.6] the scan reads the webview code: it finds the icons of the chat\'s buttons, the versions\' arrows and the completion list', () => {
  // Known uses, so a scan that finds nothing cannot pass: iconButton('copy'), the version switch's
  // arrows, the `/` commands' icon (an object property typed CodiconName), a class string in toolCalls.ts.
  for (const name of ['copy', 'chevron-left', 'chevron-right', 'terminal', 'tools', 'symbol-method', 'thumbsup-filled']) {
    assert.ok(scan.used.has(name), `the scan did not find "${name}" (found: ${[...scan.used.keys()].join(', ')})`);
  }
  assert.deepEqual(scan.unknown, [], 'icon names the checker cannot tell (type them as CodiconName)');
});

test('[#41.6] every codicon the webview uses has its glyph rule in media/chat.css', () => {
  const missing = [...scan.used].filter(([name]) => !glyphs.has(name)).map(([name, at]) => `${name} (${at})`);
  assert.deepEqual(missing, [], 'codicons used without a .codicon-<name>::before rule in media/chat.css (they render as nothing)');
});

test('[#41.6] each used glyph rule has the code point @vscode/codicons gives that name (a real icon, the right one)', () => {
  const wrong: string[] = [];
  for (const [name, at] of scan.used) {
    const expected = table.get(name);
    if (!expected) wrong.push(`${name} (${at}): not a codicon in @vscode/codicons`);
    else if (glyphs.has(name) && glyphs.get(name) !== expected) wrong.push(`${name}: chat.css has \\${glyphs.get(name)}, the font has \\${expected}`);
  }
  assert.deepEqual(wrong, []);
});

/**
 * [#40.5] How much of the editor glue the unit tier tests: the share of src files that some unit test
 * file (test/unit/**\/*.test.ts) imports DIRECTLY with a value import. A file reached only through
 * another file does not count, nor does `import type`, `import { type X }`, `type T = import('…')`, or a
 * name imported without `type` but used only where types go (all of those are erased: the test never
 * runs the file). Two shares:
 *  - glue: src files outside src/core, src/protocol, src/webview (and the generated src/commandIds.ts);
 *  - webview: src/webview + src/protocol files.
 * The floors are today's measured values (the lead raises them toward issue 40's 60 % / 75 % as tests
 * land); the test prints both shares and the files not covered yet.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** Raise these as glue tests land; the goals are 0.60 (glue) and 0.75 (webview). */
const GLUE_FLOOR = 0.8; // measured 90/109 after the glue tests landed (goal 60 %)
const WEBVIEW_FLOOR = 0.88; // measured 40/45 (goal 75 %)

const ROOT = resolve(__dirname, '..', '..');
const posix = (p: string) => p.split(sep).join('/');

function walk(dir: string, keep: (f: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p, keep));
    else if (keep(p)) out.push(p);
  }
  return out;
}

/** The module specifiers `text` imports as values (see the file comment). */
export function valueImports(text: string, fileName = 'x.test.ts'): string[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  // Names used where values go: identifiers outside type nodes and outside import declarations.
  const valueNames = new Set<string>();
  const visit = (node: ts.Node, inType: boolean): void => {
    if (ts.isImportDeclaration(node)) return;
    const typeHere = inType || ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node);
    if (ts.isIdentifier(node) && !typeHere) {
      const p = node.parent;
      const isMemberName = (ts.isPropertyAccessExpression(p) && p.name === node) || (ts.isPropertyAssignment(p) && p.name === node) || (ts.isQualifiedName(p) && p.right === node);
      if (!isMemberName) valueNames.add(node.text);
    }
    ts.forEachChild(node, (c) => visit(c, typeHere));
  };
  visit(sf, false);
  const out: string[] = [];
  const visitCalls = (node: ts.Node): void => {
    // import('…') as an expression and require('…'): values. ImportTypeNode (type-position import()) is not a CallExpression.
    if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteralLike(node.arguments[0])) {
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require')) out.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visitCalls);
  };
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const spec = st.moduleSpecifier.text;
      const clause = st.importClause;
      if (!clause) {
        out.push(spec); // `import '…'`: runs the file
        continue;
      }
      if (clause.isTypeOnly) continue;
      const names: string[] = [];
      if (clause.name) names.push(clause.name.text);
      const nb = clause.namedBindings;
      if (nb && ts.isNamespaceImport(nb)) names.push(nb.name.text);
      if (nb && ts.isNamedImports(nb)) for (const el of nb.elements) if (!el.isTypeOnly) names.push(el.name.text);
      if (names.some((n) => valueNames.has(n))) out.push(spec);
    } else if (ts.isExportDeclaration(st) && !st.isTypeOnly && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
      out.push(st.moduleSpecifier.text);
    }
  }
  visitCalls(sf);
  return out;
}

/**
 * The src files a test runs through the webview DOM kit (test/unit/webview/domKit.ts), by their paths from
 * the repository root: the entry of `bootWebview('src/…', …)` and the files named in a `modules: ['src/…']`
 * option (the kit bundles and runs them, and hands the test their exports). The kit reads them from the
 * source, not through an import statement, so the import counter above cannot see them.
 */
export function kitLoads(text: string, fileName = 'x.test.ts'): string[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const out: string[] = [];
  const srcPath = (n: ts.Node): void => {
    if (ts.isStringLiteralLike(n) && /^src\/.+\.tsx?$/.test(n.text)) out.push(n.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'bootWebview' && node.arguments[0]) srcPath(node.arguments[0]);
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'modules' && ts.isArrayLiteralExpression(node.initializer)) node.initializer.elements.forEach(srcPath);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function resolveSpecifier(fromFile: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(fromFile), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) if (existsSync(c) && statSync(c).isFile()) return c;
  return undefined;
}

function measure() {
  const srcFiles = walk(join(ROOT, 'src'), (f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts')).map((f) => posix(relative(ROOT, f)));
  const tests = walk(join(ROOT, 'test', 'unit'), (f) => f.endsWith('.test.ts'));
  const covered = new Set<string>();
  for (const t of tests) {
    for (const spec of valueImports(readFileSync(t, 'utf8'), t)) {
      const r = resolveSpecifier(t, spec);
      if (r) covered.add(posix(relative(ROOT, r)));
    }
    for (const file of kitLoads(readFileSync(t, 'utf8'), t)) if (existsSync(join(ROOT, file))) covered.add(file);
  }
  const under = (f: string, ...dirs: string[]) => dirs.some((d) => f.startsWith(`src/${d}/`));
  const glue = srcFiles.filter((f) => !under(f, 'core', 'protocol', 'webview') && f !== 'src/commandIds.ts').sort();
  const webview = srcFiles.filter((f) => under(f, 'webview', 'protocol')).sort();
  const share = (files: string[]) => ({ total: files.length, covered: files.filter((f) => covered.has(f)).length, uncovered: files.filter((f) => !covered.has(f)) });
  return { glue: share(glue), webview: share(webview) };
}

const pct = (s: { covered: number; total: number }) => `${s.covered}/${s.total} = ${((100 * s.covered) / s.total).toFixed(1)} %`;

describe('[#40.5] glue coverage: src files a unit test imports directly with a value import', () => {
  test('[#40.5] the counter: type-only imports do not count, value imports do', () => {
    assert.deepEqual(valueImports(`import type { A } from './a';\nconst x: A = 1;`), []);
    assert.deepEqual(valueImports(`import { type A, type B } from './a';\nlet y: A | B;`), []);
    assert.deepEqual(valueImports(`import { A } from './a';\nlet y: A;\nfunction f(p: A): A { return p; }`), [], 'a name used only where types go is erased');
    assert.deepEqual(valueImports(`type D = import('./a').Deps;\nlet d: D;`), [], 'import() in a type');
    assert.deepEqual(valueImports(`import { A } from './a';\nnew A();`), ['./a']);
    assert.deepEqual(valueImports(`import * as m from './a';\nm.run();`), ['./a']);
    assert.deepEqual(valueImports(`import './a';`), ['./a'], 'a side-effect import runs the file');
    assert.deepEqual(valueImports(`const m = require('./a');\nasync function f() { await import('./b'); }`), ['./a', './b']);
    assert.deepEqual(valueImports(`import { A } from './a';\nconst o = { A: 1 };\nconst p = o.A;`), [], 'a property named like the import is not a use');
    // The webview DOM kit runs the files it is given by path (#40.4).
    assert.deepEqual(kitLoads(`await bootWebview('src/webview/tools/main.ts', { modules: ['src/webview/tools/form.ts'] });`), ['src/webview/tools/main.ts', 'src/webview/tools/form.ts']);
    assert.deepEqual(kitLoads(`await bootChat({ modules: ['src/webview/chat/state.ts'] });`), ['src/webview/chat/state.ts']);
    assert.deepEqual(kitLoads(`readFileSync('src/webview/chat/main.ts', 'utf8'); const x = { other: ['src/a.ts'] };`), [], 'reading a file as text runs nothing');
  });

  test('[#40.5] the shares of editor glue and of webview + protocol code that unit tests import directly are at least their floors', () => {
    const m = measure();
    console.log(`glue (src outside core/protocol/webview): ${pct(m.glue)} (floor ${GLUE_FLOOR * 100} %, goal 60 %)`);
    console.log(`webview + protocol: ${pct(m.webview)} (floor ${WEBVIEW_FLOOR * 100} %, goal 75 %)`);
    console.log(`glue not covered (${m.glue.uncovered.length}):\n  ${m.glue.uncovered.join('\n  ')}`);
    console.log(`webview + protocol not covered (${m.webview.uncovered.length}):\n  ${m.webview.uncovered.join('\n  ')}`);
    assert.ok(m.glue.total > 50 && m.webview.total > 20, 'the populations were found');
    assert.ok(m.glue.covered / m.glue.total >= GLUE_FLOOR, `glue share ${pct(m.glue)} is under the floor ${GLUE_FLOOR}`);
    assert.ok(m.webview.covered / m.webview.total >= WEBVIEW_FLOOR, `webview share ${pct(m.webview)} is under the floor ${WEBVIEW_FLOOR}`);
  });
});

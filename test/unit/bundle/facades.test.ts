/**
 * Features reach the lazily loaded chunks (dist/core.js, dist/mcp.js) only through their façade
 * (src/<feature>/<feature>Api.ts), which is the one place that loads the chunk (via src/lazy.ts).
 * A feature file that loads a chunk itself, or imports a runtime value from a module that lives in a
 * chunk, would either pull that module into the activation bundle or bypass the façade's typing.
 * Type-only imports are fine: they vanish at build time.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const FEATURE_FOLDERS = ['src/chat', 'src/content', 'src/account', 'src/catalog', 'src/keys', 'src/mcp', 'src/lm', 'src/media', 'src/usage', 'src/knowledge'];
const FEATURE_FILES = ['src/catalogService.ts'];
/** The façades: the only feature files allowed to load a chunk. */
const FACADE = /\/[a-z]+Api\.ts$/;
/** The entry modules of the chunks: what they re-export lives in a chunk. */
const CHUNK_ENTRIES = ['src/core/entry.ts', 'src/core/mcp/entry.ts'];

/**
 * Modules in a chunk that the activation bundle may also use, on purpose; esbuild tree-shakes them to
 * the few names imported. The missing-alt diagnostics scan images while typing; the error guard
 * classifies failures of the shared client, whose errors come from dist/core.js (hence the structural
 * guard); the stored hosting-credential format is read by the account secrets; the portal's menu path,
 * the batch limit and the secret-header rules are words in prompts shown before any chunk is loaded;
 * the outcome-unknown ledger (no module state: its entries are in globalState) is built by agent chat's
 * editor host in dist/editor.js as well as by the site-ability tool from dist/core.js.
 */
const SHARED = new Set([
  'src/core/content/imageRefs.ts',
  'src/core/http/errors.ts',
  'src/core/account/credentials.ts',
  'src/core/keys/rotation.ts',
  'src/core/mcp/batch.ts',
  'src/core/mcp/requestExport.ts',
  'src/core/mcp/outcomeLedger.ts',
]);

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = `${dir}/${n}`;
    return statSync(p).isDirectory() ? filesUnder(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function resolveModule(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  for (const c of [`${base}.ts`, `${base}/index.ts`, base]) if (existsSync(c) && statSync(c).isFile()) return c;
  return undefined;
}

interface ImportRef {
  spec: string;
  /** Imports or re-exports at least one runtime value (not `import type`, not all `type` specifiers). */
  runtime: boolean;
}

function importsOf(file: string, text: string): ImportRef[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const refs: ImportRef[] = [];
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const clause = st.importClause;
      let runtime = true;
      if (clause) {
        const named = clause.namedBindings;
        const allTypeSpecifiers = !clause.name && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
        runtime = !clause.isTypeOnly && !allTypeSpecifiers;
      }
      refs.push({ spec: st.moduleSpecifier.text, runtime });
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
      const named = st.exportClause;
      const allTypeSpecifiers = named !== undefined && ts.isNamedExports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
      refs.push({ spec: st.moduleSpecifier.text, runtime: !st.isTypeOnly && !allTypeSpecifiers });
    }
  }
  return refs;
}

/** Modules that live in a lazy chunk: every module a chunk entry re-exports, recursively through src/core/entries. */
function lazyModules(): Set<string> {
  const out = new Set<string>();
  const visit = (entry: string): void => {
    for (const ref of importsOf(entry, readFileSync(entry, 'utf8'))) {
      const target = resolveModule(entry, ref.spec);
      if (!target || out.has(target)) continue;
      if (target.startsWith('src/core/entries/')) visit(target);
      else if (!SHARED.has(target)) out.add(target);
    }
  };
  CHUNK_ENTRIES.forEach(visit);
  return out;
}

/** The violations of one feature file (pure, so it can be shown to fail on a fixture). */
function violations(file: string, text: string, lazy: Set<string>): string[] {
  const found: string[] = [];
  // Comments may mention the old loader; only code counts.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  if (/\bloadCore(Chunk)?\s*\(/.test(code)) found.push(`${file}: calls loadCore(); use the feature's façade`);
  if (/\bloadMcp(Chunk)?\s*\(/.test(code)) found.push(`${file}: loads dist/mcp.js; use src/mcp/mcpApi.ts`);
  if (/require\(\s*['"]\.\/(core|mcp)\.js['"]\s*\)/.test(code)) found.push(`${file}: requires a lazy chunk; use the feature's façade`);
  for (const ref of importsOf(file, text)) {
    if (!ref.runtime) continue;
    const target = resolveModule(file, ref.spec);
    if (!target) continue;
    if (target === 'src/lazy.ts') found.push(`${file}: imports the chunk loader src/lazy.ts; use the feature's façade`);
    else if (lazy.has(target) || CHUNK_ENTRIES.includes(target) || target.startsWith('src/core/entries/')) {
      found.push(`${file}: imports a runtime value from ${target}, which lives in a lazy chunk; import the type only and call it through the façade`);
    }
  }
  return found;
}

function featureFiles(): string[] {
  return [...FEATURE_FOLDERS.flatMap(filesUnder), ...FEATURE_FILES.filter((f) => existsSync(f))].filter((f) => !FACADE.test(f));
}

describe('feature façades over the lazy chunks', () => {
  const lazy = lazyModules();

  test('the lazy module list is derived from the chunk entries (content, account, catalog, keys, MCP SDK modules)', () => {
    for (const m of ['src/core/content/frontMatter.ts', 'src/core/account/usageReport.ts', 'src/core/catalog/details.ts', 'src/core/keys/keyCheck.ts', 'src/core/mcp/mcpClient.ts', 'src/core/gateway/gatewayClient.ts']) {
      assert.ok(lazy.has(m), `${m} should be recognised as lazy-only`);
    }
    assert.ok(!lazy.has('src/core/content/imageRefs.ts'), 'imageRefs is shared with the activation bundle');
  });

  test('the checker flags a chunk load, a chunk require, the loader, and a runtime import from a lazy module, but not a type import', () => {
    const file = 'src/content/example.ts';
    const bad = [
      "import { mergeTaxonomy } from '../core/content/frontMatter';",
      "import { loadCoreChunk } from '../lazy';",
      'const core = await services.loadCore();',
      "const m = require('./mcp.js');",
    ].join('\n');
    assert.equal(violations(file, bad, lazy).length, 4, violations(file, bad, lazy).join('\n'));
    const good = [
      "import type { Taxonomy } from '../core/content/frontMatter';",
      "import { type ContentApi, contentApi } from './contentApi';",
      "import { findImageRefs } from '../core/content/imageRefs';",
      '// services.loadCore() was the old way',
    ].join('\n');
    assert.deepEqual(violations(file, good, lazy), []);
  });

  test('no feature file loads a chunk or imports a runtime value from a lazy module except through its façade', () => {
    const files = featureFiles();
    assert.ok(files.includes('src/content/altTextCommands.ts'), 'the feature folders are scanned');
    const found = files.flatMap((f) => violations(f, readFileSync(f, 'utf8'), lazy));
    assert.deepEqual(found, []);
  });

  test('each façade loads its chunk through the one loader src/lazy.ts', () => {
    for (const f of ['src/content/contentApi.ts', 'src/account/accountApi.ts', 'src/catalog/catalogApi.ts', 'src/keys/keysApi.ts', 'src/mcp/mcpApi.ts', 'src/lm/lmApi.ts', 'src/chat/chatApi.ts', 'src/media/mediaApi.ts']) {
      const text = readFileSync(f, 'utf8');
      assert.match(text, /from '\.\.\/lazy'/, `${f} imports the loader`);
      assert.doesNotMatch(text, /require\(/, `${f} does not require a chunk itself`);
    }
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import ts from 'typescript';

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

const IMPORTS_VSCODE = /(?:from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\))/;

for (const layer of ['src/core', 'src/protocol', 'src/webview']) {
  test(`${layer} never imports vscode`, () => {
    const offenders = tsFiles(layer).filter((f) => IMPORTS_VSCODE.test(readFileSync(f, 'utf8')));
    assert.deepEqual(offenders, []);
  });
}

test('the layering check itself detects a vscode import', () => {
  assert.ok(IMPORTS_VSCODE.test(`import * as vscode from 'vscode';`));
  assert.ok(IMPORTS_VSCODE.test(`const v = require("vscode")`));
  assert.ok(!IMPORTS_VSCODE.test(`import { x } from './vscodeish';`));
});

/**
 * [#27.13] test/localGateway/ imports nothing under src/, not even a type (docs/ARCHITECTURE.md: when the
 * client and the server share a constant, a shape or a comparator, no test can see it wrong). Its files
 * may import Node, npm packages and each other only, so nothing reaches src/ through another folder
 * either. Every form counts: import, import type, export ... from, import(), require().
 */
const GATEWAY_DIR = 'test/localGateway';

function importSpecifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** The specifiers of `file` that leave the local gateway's folder (relative or absolute paths outside it). */
function gatewayEscapes(file: string, text: string): string[] {
  const root = resolve(GATEWAY_DIR);
  return importSpecifiers(text).filter((spec) => {
    if (!spec.startsWith('.') && !isAbsolute(spec)) return /^src\//.test(spec); // Node and npm packages
    const target = resolve(dirname(file), spec);
    return target !== root && !target.startsWith(root + sep);
  });
}

test('[#27.13] test/localGateway imports nothing from src/ (no type either) and nothing outside its folder', () => {
  const offenders = tsFiles(GATEWAY_DIR).flatMap((f) => gatewayEscapes(f, readFileSync(f, 'utf8')).map((spec) => `${f}: ${spec}`));
  assert.deepEqual(offenders, []);
});

test('[#27.13] the local gateway import check itself sees every import form', () => {
  const f = join(GATEWAY_DIR, 'hosting.ts');
  for (const line of [
    `import { EXCLUSION_TYPES } from '../../src/core/account/hosting';`,
    `import type { Model } from '../../src/core/gateway/types';`,
    `import { type Model } from "../../src/core/gateway/types";`,
    `export { CONTENT_PATHS } from '../../src/core/content/wire';`,
    `export * from '../../src/core/content/wire';`,
    `const w = await import('../../src/core/content/wire');`,
    `const w = require('../../src/core/content/wire');`,
    `import '../../src/core/content/wire';`,
    `import { useGateway } from '../unit/gateway/helpers';`,
    `import x from 'src/core/pricing';`,
  ]) {
    assert.equal(gatewayEscapes(f, line).length, 1, line);
  }
  for (const line of [`import { route } from './router';`, `import { createServer } from 'node:http';`, `import Ajv from 'ajv/dist/2020';`, `// see src/core/account/hosting.ts`]) {
    assert.deepEqual(gatewayEscapes(f, line), [], line);
  }
});

/**
 * Features stand alone: a feature folder (src/<feature>/) imports src/services.ts, src/commandIds.ts,
 * src/platform (commands, config, errorNotifications, safeDialog, ...), src/core, src/protocol and
 * src/webviewKit, never another feature folder. What several features need is
 * in src/platform (registered on Services). src/platform imports no feature folder either.
 * Type-only imports count too: they close cycles in the type graph and are how a runtime import starts.
 */
const NOT_FEATURES = new Set(['core', 'protocol', 'webview', 'webviewKit', 'platform']);

function featureFolders(): string[] {
  return readdirSync('src').filter((n) => statSync(join('src', n)).isDirectory() && !NOT_FEATURES.has(n));
}

/** The feature folders `file` (under src/) imports from, other than its own, with the specifier. */
function foreignFeatureImports(file: string, text: string, features: readonly string[]): string[] {
  const own = file.split(/[\\/]/)[1];
  return importSpecifiers(text)
    .filter((spec) => spec.startsWith('.'))
    .filter((spec) => {
      const target = join(dirname(file), spec).split(sep).join('/');
      const top = target.startsWith('src/') ? target.split('/')[1] : undefined;
      return top !== undefined && top !== own && features.includes(top) && target.split('/').length > 2;
    });
}

test('no feature folder imports another feature folder, and src/platform imports none', () => {
  const features = featureFolders();
  assert.ok(features.includes('chat') && features.includes('usage') && features.length >= 10, features.join(', '));
  const offenders = [...features, 'platform'].flatMap((f) => tsFiles(join('src', f)).flatMap((file) => foreignFeatureImports(file, readFileSync(file, 'utf8'), features).map((spec) => `${file}: ${spec}`)));
  assert.deepEqual(offenders, []);
});

test('the feature import check sees runtime, type-only and dynamic imports', () => {
  const features = ['chat', 'content', 'mcp', 'usage'];
  const file = join('src', 'chat', 'editorHost.ts');
  for (const line of [
    `import { contentModel } from '../content/contentRunner';`,
    `import type { McpService } from '../mcp/mcpService';`,
    `const m = await import('../usage/usagePanel');`,
    `export { x } from '../content/contentApi';`,
  ]) {
    assert.equal(foreignFeatureImports(file, line, features).length, 1, line);
  }
  for (const line of [`import { x } from './chatPage';`, `import { Services } from '../services';`, `import { SpendService } from '../platform/spendService';`, `import { describeError } from '../core/errorText';`]) {
    assert.deepEqual(foreignFeatureImports(file, line, features), [], line);
  }
  assert.equal(foreignFeatureImports(join('src', 'platform', 'mcpService.ts'), `import { ToolsNode } from '../mcp/toolsTree';`, [...features]).length, 1, 'platform importing a feature');
});

/**
 * [#40.3] Narrow services: src/platform never imports src/services.ts, not even a type. Each platform
 * service declares the narrow dependencies it needs beside itself (`SpendServiceDeps`, `CostConfirmDeps`, ...);
 * `Services` composes them, so there is no cycle services.ts <-> src/platform.
 */
function servicesImports(file: string, text: string): string[] {
  return importSpecifiers(text).filter((spec) => spec.startsWith('.') && /^src\/services(?:\.ts)?$/.test(join(dirname(file), spec).split(sep).join('/')));
}

test('[#40.3] src/platform imports nothing from src/services.ts (no type either)', () => {
  const files = tsFiles(join('src', 'platform'));
  assert.ok(files.length >= 20, 'the check sees the platform files');
  const offenders = files.flatMap((f) => servicesImports(f, readFileSync(f, 'utf8')).map((spec) => `${f}: ${spec}`));
  assert.deepEqual(offenders, [], 'declare the narrow interface beside the platform service; Services composes it');
});

test('[#40.3] the services import check itself sees every import form, and only src/services.ts', () => {
  const f = join('src', 'platform', 'budgetService.ts');
  for (const line of [
    `import type { Services } from '../services';`,
    `import { sharedNetwork } from "../services";`,
    `export type { Services } from '../services';`,
    `const s = await import('../services');`,
    `import { x } from '../services.ts';`,
  ]) {
    assert.equal(servicesImports(f, line).length, 1, line);
  }
  for (const line of [`import { settings } from './config';`, `import type { Services } from './services';`, `import { x } from '../core/servicesText';`, `// see src/services.ts`]) {
    assert.deepEqual(servicesImports(f, line), [], line);
  }
  assert.equal(servicesImports(join('src', 'chat', 'registerChat.ts'), `import type { Services } from '../services';`).length, 1, 'a feature file importing it is seen too (and allowed)');
});

/**
 * One home for shared editor code (#40.9): shared editor code is in src/platform, vscode-free code in
 * src/core; the root of src/ keeps only the entry point, the services, the feature manifest (#40.11)
 * and the generated command ids.
 */
const ROOT_MODULES = new Set(['extension.ts', 'services.ts', 'commandIds.ts', 'features.ts']);

/** The .ts files in `names` (one folder's entries) that may not sit at the root of src/. */
function strayRootModules(names: readonly string[]): string[] {
  return names.filter((n) => /\.[cm]?tsx?$/.test(n) && !ROOT_MODULES.has(n));
}

test('[#40.9] the root of src/ holds only extension.ts, services.ts, the feature manifest features.ts and the generated commandIds.ts', () => {
  const rootFiles = readdirSync('src').filter((n) => statSync(join('src', n)).isFile());
  assert.ok(rootFiles.includes('extension.ts') && rootFiles.includes('services.ts'), rootFiles.join(', '));
  assert.deepEqual(strayRootModules(rootFiles), [], 'shared editor code goes to src/platform, vscode-free code to src/core');
});

test('[#40.9] the root-of-src check itself flags a loose module', () => {
  assert.deepEqual(strayRootModules(['extension.ts', 'services.ts', 'commandIds.ts', 'features.ts', 'config.ts', 'util.mts', 'README.md']), ['config.ts', 'util.mts']);
});

/**
 * One owner per secret (#40.3): SecretStorage is read, written and watched only by the module that
 * owns each secret; everything else asks the owner (services.accountSecrets for the identity token).
 * Services hands `context.secrets` to the owners.
 */
const SECRET_OWNERS: Record<string, string> = {
  'src/services.ts': 'hands context.secrets to the owners below',
  'src/platform/accountSecrets.ts': 'the identity token (JWT) and the hosting credentials',
  'src/core/keys/keyStore.ts': 'the API keys',
  'src/platform/mcpService.ts': 'the MCP servers\' secret header values',
  'src/platform/mcpServers.ts': 'the MCP header keys and their migration',
  'src/platform/mcpOAuth.ts': "the MCP servers' OAuth tokens and client registrations",
  'src/platform/proxyCredentials.ts': 'the saved proxy credentials',
};

/** The owners of the account secrets' key names (src/platform/secretKeys.ts). */
const ACCOUNT_KEY_OWNERS = new Set(['src/platform/secretKeys.ts', 'src/platform/accountSecrets.ts']);

/** Source without comments (a comment may name what it must not use). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const USES_SECRETS = /\bcontext\.secrets\b|\.secrets\.(?:get|store|delete|onDidChange)\s*\(/;
const USES_ACCOUNT_KEYS = /\b(?:JWT_SECRET_KEY|HOSTING_CREDENTIALS_KEY)\b/;
const USES_SUBSCRIPTIONS = /\bcontext\.subscriptions\b/;

function srcFiles(): string[] {
  return tsFiles('src')
    .map((f) => f.split(sep).join('/'))
    .filter((f) => !f.startsWith('src/webview/'));
}

test('[#40.3] SecretStorage is used only by the owner of each secret; the account keys only through accountSecrets', () => {
  const files = srcFiles();
  const secretUsers = files.filter((f) => USES_SECRETS.test(code(readFileSync(f, 'utf8'))));
  assert.ok(secretUsers.includes('src/platform/accountSecrets.ts'), 'the check sees the owner itself');
  assert.deepEqual(
    secretUsers.filter((f) => !(f in SECRET_OWNERS)),
    [],
    'ask the owner (services.accountSecrets, services.keys, McpService) instead of reading context.secrets',
  );
  assert.deepEqual(
    files.filter((f) => !ACCOUNT_KEY_OWNERS.has(f) && USES_ACCOUNT_KEYS.test(code(readFileSync(f, 'utf8')))),
    [],
    'the identity token and the hosting credentials are read, written and watched through src/platform/accountSecrets.ts',
  );
});

test('[#40.3] disposables go through the root store: only extension.ts uses context.subscriptions', () => {
  const users = srcFiles().filter((f) => USES_SUBSCRIPTIONS.test(code(readFileSync(f, 'utf8'))));
  assert.deepEqual(users, ['src/extension.ts'], 'add to a store you own, or services.own(d) for the extension\'s lifetime');
});

test('[#40.3] the secrets and subscriptions checks themselves see each form, and not a comment', () => {
  for (const line of [
    'const jwt = await this.services.context.secrets.get(JWT_SECRET_KEY);',
    'await services.context.secrets.store(k, v);',
    'const s = ctx.secrets; await this.secrets.delete(k);',
    'this._register(services.context.secrets.onDidChange(() => undefined));',
  ]) {
    assert.ok(USES_SECRETS.test(code(line)), line);
  }
  assert.ok(USES_ACCOUNT_KEYS.test(code('if (e.key === JWT_SECRET_KEY) changed();')));
  assert.ok(USES_SUBSCRIPTIONS.test(code('services.context.subscriptions.push(d);')));
  assert.ok(USES_SUBSCRIPTIONS.test(code('bindProposals(services.context.subscriptions);')));
  for (const line of ['// never context.secrets.get(JWT_SECRET_KEY) here', '/* context.subscriptions */ const x = 1;', "const url = 'https://example.com'; services.accountSecrets.getJwt();"]) {
    assert.ok(!USES_SECRETS.test(code(line)) && !USES_SUBSCRIPTIONS.test(code(line)) && !USES_ACCOUNT_KEYS.test(code(line)), line);
  }
});

/**
 * [#40.3] Narrow services for features: a feature's register* entry point (and every function,
 * constructor parameter or field of the feature) takes the narrow services it uses, declared beside it
 * (`CompareServices = Pick<Services, 'catalog' | ...>` in registerCompare.ts), never the whole
 * `Services`: only src/extension.ts (through the manifest, src/features.ts) composes them. No exception.
 */

/** Each parameter, property or variable of `file` typed exactly `Services` (not `Pick<Services, …>`, not `Services['log']`), as "name@line". */
function wholeServices(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isParameter(node) || ts.isPropertyDeclaration(node) || ts.isPropertySignature(node) || ts.isVariableDeclaration(node)) && node.type) {
      const t = node.type;
      if (ts.isTypeReferenceNode(t) && !t.typeArguments && t.typeName.getText(sf) === 'Services') {
        out.push(`${node.name.getText(sf)}@${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

test('[#40.3] no feature takes the whole Services: each register* takes the narrow services declared beside it', () => {
  const features = featureFolders();
  const found = features.flatMap((f) => tsFiles(join('src', f)).map((file) => [file.split(sep).join('/'), wholeServices(file, readFileSync(file, 'utf8'))] as const)).filter(([, hits]) => hits.length > 0);
  const offenders = found.map(([file, hits]) => `${file}: ${hits.join(', ')}`);
  assert.deepEqual(offenders, [], 'declare `export type <Feature>Services = Pick<Services, …>` beside the register function and take it');
  // Every register* entry point of the manifest's features says what it uses.
  for (const f of features) {
    const entries = tsFiles(join('src', f)).filter((file) => /[\\/]register[A-Z]\w*\.ts$/.test(file));
    for (const file of entries) assert.match(readFileSync(file, 'utf8'), /export (type|interface) \w+Services\b/, `${file} declares its narrow services`);
  }
});

test('[#40.3] the whole-Services check itself sees parameters, constructor fields and properties, and not a Pick', () => {
  assert.deepEqual(wholeServices('x.ts', 'export function registerX(services: Services): void {}'), ['services@1']);
  assert.deepEqual(wholeServices('x.ts', 'class A { constructor(private readonly services: Services) {} }'), ['services@1']);
  assert.deepEqual(wholeServices('x.ts', 'interface D { services: Services; }\nconst s: Services = x;'), ['services@1', 's@2']);
  assert.deepEqual(wholeServices('x.ts', "function f(s: Pick<Services, 'log'>, l: Services['log'], c: CompareServices): void {}"), []);
});

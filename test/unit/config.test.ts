/**
 * Keeps the manifest (package.json `contributes`) and the code from drifting apart:
 * - every `defineSetting` in src/platform/config.ts matches `contributes.configuration` (key, type, default),
 *   and every `aiGateway.*` setting in the manifest is declared in src/platform/config.ts;
 * - every command in the manifest is `aiGateway.*` with category "AI Gateway"; src/commandIds.ts (the
 *   typed id union) is generated from it and fresh; commands are registered only through the typed
 *   wrapper, and every declared command is used somewhere;
 * - the manifest basics of the foundation (activation, container, engine) hold.
 * The checkers are plain functions, also run on broken samples below so they are known to fail.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readManifest } from '../../scripts/manifestNls.mjs';
import { allSettings, bindSettingsSource, defineSetting, settings, type Setting, type SettingsSource } from '../../src/platform/config';

type Json = Record<string, unknown>;

interface Manifest {
  activationEvents?: string[];
  capabilities?: { untrustedWorkspaces?: { restrictedConfigurations?: string[] } };
  engines?: { vscode?: string };
  devDependencies?: Record<string, string>;
  contributes?: {
    configuration?: { properties?: Record<string, Json> } | { properties?: Record<string, Json> }[];
    commands?: { command: string; title?: string; category?: string }[];
    menus?: Record<string, { command?: string; submenu?: string }[]>;
    viewsContainers?: { activitybar?: { id: string; title?: string; icon?: string }[] };
    views?: Record<string, { id: string }[]>;
  };
}

interface SourceFile {
  path: string;
  text: string;
}

function manifestProperties(manifest: Manifest): Record<string, Json> {
  const c = manifest.contributes?.configuration;
  const sections = c === undefined ? [] : Array.isArray(c) ? c : [c];
  return Object.assign({}, ...sections.map((s) => s.properties ?? {})) as Record<string, Json>;
}

export function checkSettings(manifest: Manifest, settings: readonly Setting<unknown>[]): string[] {
  const problems: string[] = [];
  const props = manifestProperties(manifest);
  const declared = new Set<string>();
  for (const s of settings) {
    if (declared.has(s.key)) problems.push(`${s.key}: declared twice in src/platform/config.ts`);
    declared.add(s.key);
    if (!s.key.startsWith('aiGateway.')) problems.push(`${s.key}: settings live under aiGateway.*`);
    const p = props[s.key];
    if (!p) {
      problems.push(`${s.key}: in src/platform/config.ts but missing from package.json contributes.configuration`);
      continue;
    }
    const types = Array.isArray(p.type) ? p.type : [p.type];
    if (!types.includes(s.type)) problems.push(`${s.key}: type ${JSON.stringify(p.type)} in package.json, "${s.type}" in src/platform/config.ts`);
    if (!('default' in p)) problems.push(`${s.key}: package.json has no default (src/platform/config.ts has ${JSON.stringify(s.default)})`);
    else if (JSON.stringify(p.default) !== JSON.stringify(s.default)) {
      problems.push(`${s.key}: default ${JSON.stringify(p.default)} in package.json, ${JSON.stringify(s.default)} in src/platform/config.ts`);
    }
  }
  for (const key of Object.keys(props)) {
    if (!key.startsWith('aiGateway.')) problems.push(`${key}: settings live under aiGateway.*`);
    else if (!declared.has(key)) problems.push(`${key}: in package.json but not declared with defineSetting in src/platform/config.ts`);
  }
  return problems;
}

/** Scopes whose workspace and folder values the editor ignores. */
const USER_ONLY_SCOPES = new Set(['application', 'machine']);

/**
 * Each setting's origin in src/platform/config.ts matches the manifest: 'user' exactly for machine or
 * application scoped settings, 'trustedWorkspace' exactly for the other restricted settings, and
 * every setting a workspace must not control is one of the two.
 */
export function checkSettingOrigins(manifest: Manifest, settings: readonly Setting<unknown>[], mustNotBeWorkspace: readonly string[]): string[] {
  const problems: string[] = [];
  const props = manifestProperties(manifest);
  const restricted = new Set(manifest.capabilities?.untrustedWorkspaces?.restrictedConfigurations ?? []);
  const byKey = new Map(settings.map((s) => [s.key, s]));
  for (const s of settings) {
    const scope = props[s.key]?.scope;
    const userOnly = typeof scope === 'string' && USER_ONLY_SCOPES.has(scope);
    if (userOnly !== (s.origin === 'user')) problems.push(`${s.key}: scope ${String(scope)} in package.json, origin '${s.origin}' in src/platform/config.ts`);
    if (!userOnly && restricted.has(s.key) !== (s.origin === 'trustedWorkspace')) {
      problems.push(`${s.key}: ${restricted.has(s.key) ? '' : 'not '}in restrictedConfigurations, origin '${s.origin}' in src/platform/config.ts`);
    }
  }
  for (const key of restricted) if (!byKey.has(key)) problems.push(`${key}: in restrictedConfigurations but not a declared setting`);
  for (const key of mustNotBeWorkspace) {
    const s = byKey.get(key);
    if (!s || s.origin === 'any') problems.push(`${key}: a workspace can set it`);
  }
  return problems;
}

/**
 * Commands: package.json is the one declaration. src/commandIds.ts is generated from it (the typed
 * `CommandId` union that src/platform/commands.ts's registerCommand/executeCommand take), so an undeclared id
 * does not type-check. What the type system cannot see is checked here: the manifest entries are well
 * formed, registration goes only through the typed wrapper, and every declared id is used somewhere.
 */
export function checkCommands(manifest: Manifest, sources: readonly SourceFile[]): string[] {
  const problems: string[] = [];
  const declared = new Map<string, { title?: string; category?: string }>();
  for (const c of manifest.contributes?.commands ?? []) {
    if (declared.has(c.command)) problems.push(`${c.command}: declared twice in package.json`);
    declared.set(c.command, c);
    if (!c.command.startsWith('aiGateway.')) problems.push(`${c.command}: command ids are aiGateway.*`);
    if (c.category !== 'AI Gateway') problems.push(`${c.command}: category must be "AI Gateway" (is ${JSON.stringify(c.category)})`);
    if (!c.title) problems.push(`${c.command}: has no title`);
  }
  const code = sources.filter((f) => !f.path.endsWith('commandIds.ts'));
  for (const f of code) {
    if (f.path.endsWith(join('src', 'platform', 'commands.ts'))) continue;
    if (f.text.includes('commands.registerCommand(') || f.text.includes('commands.registerTextEditorCommand(')) {
      problems.push(`${f.path}: registers a command directly; use registerCommand from src/platform/commands.ts (it takes a CommandId)`);
    }
  }
  for (const id of declared.keys()) {
    if (!code.some((f) => f.text.includes(`'${id}'`) || f.text.includes(`"${id}"`))) problems.push(`${id}: declared in package.json but used nowhere in src`);
  }
  for (const [menu, items] of Object.entries(manifest.contributes?.menus ?? {})) {
    for (const item of items) {
      if (item.command && !declared.has(item.command)) problems.push(`${item.command}: used in menu ${menu} but not declared`);
    }
  }
  return problems;
}

export function checkBasics(manifest: Manifest): string[] {
  const problems: string[] = [];
  for (const e of manifest.activationEvents ?? []) {
    if (e === '*' || e === 'onStartupFinished') problems.push(`activation event ${e}: activate only on the extension's own views and commands`);
  }
  const container = manifest.contributes?.viewsContainers?.activitybar?.find((c) => c.id === 'aiGateway');
  if (!container) problems.push('activity-bar container "aiGateway" is missing');
  else if (container.title !== 'AI Gateway' || !container.icon?.startsWith('media/')) problems.push('container "aiGateway" needs title "AI Gateway" and an icon in media/');
  for (const [where, views] of Object.entries(manifest.contributes?.views ?? {})) {
    if (where !== 'aiGateway') problems.push(`views live in the aiGateway container, not ${where}`);
    for (const v of views) if (!v.id.startsWith('aiGateway.')) problems.push(`view ${v.id}: view ids are aiGateway.*`);
  }
  const engine = manifest.engines?.vscode ?? '';
  const types = manifest.devDependencies?.['@types/vscode'] ?? '';
  if (engine !== '^1.104.0') problems.push(`engines.vscode is ${engine}, expected ^1.104.0`);
  if (types !== engine.replace(/^\^/, '')) problems.push(`@types/vscode ${types} must be pinned to the engine floor ${engine}`);
  return problems;
}

function sourceFiles(dir: string): SourceFile[] {
  const out: SourceFile[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (name.endsWith('.ts')) out.push({ path: p, text: readFileSync(p, 'utf8') });
  }
  return out;
}

/**
 * Settings that could weaken a safety rule, redirect a credential or spend the user's money: a
 * cloned repository's .vscode/settings.json must not be able to set them.
 */
const RISKY_SETTINGS = [
  'aiGateway.baseUrl',
  'aiGateway.hosting.baseUrl',
  'aiGateway.mcp.servers',
  'aiGateway.mcp.confirmReadOnlyAbilities',
  'aiGateway.mcp.authentication',
  'aiGateway.content.summaryAction',
  'aiGateway.defaultModels.chat',
  'aiGateway.defaultModels.summary',
  'aiGateway.defaultModels.taxonomy',
  'aiGateway.defaultModels.altText',
  'aiGateway.retry.maxAttempts',
  'aiGateway.retry.maxTotalSeconds',
];

// As the editor reads it in English: titles and categories are "%key%" in package.json (package.nls.json).
const manifest = readManifest<Manifest>();

describe('manifest and code stay in sync', () => {
  test('every defineSetting matches package.json (key, type, default) and vice versa', () => {
    assert.deepEqual(checkSettings(manifest, allSettings()), []);
  });

  test('every command is aiGateway.*, in category "AI Gateway", registered through the typed wrapper and used', () => {
    assert.deepEqual(checkCommands(manifest, sourceFiles('src')), []);
  });

  test('src/commandIds.ts is generated from package.json and not stale', async () => {
    const { renderCommandIds, OUTPUT } = await import('../../scripts/gen-command-ids.mjs');
    assert.equal(readFileSync(OUTPUT, 'utf8'), renderCommandIds(manifest), `${OUTPUT} is stale: run node scripts/gen-command-ids.mjs`);
  });

  test('settings a workspace must not control are user-only or restricted, in package.json and in the reader alike', () => {
    assert.deepEqual(checkSettingOrigins(manifest, allSettings(), RISKY_SETTINGS), []);
  });

  test('activation only on own views and commands; container, views and engine are right', () => {
    assert.deepEqual(checkBasics(manifest), []);
  });
});

describe('the sync checkers catch drift (broken samples)', () => {
  const good = {
    contributes: {
      configuration: {
        properties: {
          'aiGateway.a': { type: 'string', default: 'x' },
          'aiGateway.n': { type: 'integer', default: 3 },
        },
      },
    },
  };

  test('a matching sample passes', () => {
    assert.deepEqual(checkSettings(good, [defineSetting('aiGateway.a', 'x'), defineSetting('aiGateway.n', 3)]), []);
  });

  test('wrong default, wrong type, missing on either side and a foreign prefix are each reported', () => {
    const problems = checkSettings(
      {
        contributes: {
          configuration: [
            { properties: { 'aiGateway.a': { type: 'string', default: 'y' }, 'aiGateway.n': { type: 'number', default: 3 } } },
            { properties: { 'aiGateway.orphan': { type: 'boolean', default: false }, 'other.x': { type: 'string', default: '' } } },
          ],
        },
      },
      [defineSetting('aiGateway.a', 'x'), defineSetting('aiGateway.n', 3), defineSetting('aiGateway.codeOnly', true)],
    );
    assert.deepEqual(problems, [
      'aiGateway.a: default "y" in package.json, "x" in src/platform/config.ts',
      'aiGateway.n: type "number" in package.json, "integer" in src/platform/config.ts',
      'aiGateway.codeOnly: in src/platform/config.ts but missing from package.json contributes.configuration',
      'aiGateway.orphan: in package.json but not declared with defineSetting in src/platform/config.ts',
      'other.x: settings live under aiGateway.*',
    ]);
  });

  test('commands: missing category, direct registration, an unused declaration and an undeclared menu item are reported', () => {
    const problems = checkCommands(
      {
        contributes: {
          commands: [
            { command: 'aiGateway.ok', title: 'OK', category: 'AI Gateway' },
            { command: 'aiGateway.noCategory', title: 'No category' },
            { command: 'aiGateway.ghost', title: 'Ghost', category: 'AI Gateway' },
          ],
          menus: { 'view/title': [{ command: 'aiGateway.notDeclared' }] },
        },
      },
      [
        { path: join('src', 'platform', 'commands.ts'), text: 'vscode.commands.registerCommand(id, handler)' },
        { path: join('src', 'commandIds.ts'), text: "'aiGateway.ghost'" },
        { path: 'a.ts', text: `registerCommand('aiGateway.ok', f);\nregisterCommand("aiGateway.noCategory", f);` },
        { path: 'b.ts', text: `store.add(vscode.commands.registerCommand(id, fn));` },
      ],
    );
    assert.deepEqual(problems, [
      'aiGateway.noCategory: category must be "AI Gateway" (is undefined)',
      'b.ts: registers a command directly; use registerCommand from src/platform/commands.ts (it takes a CommandId)',
      'aiGateway.ghost: declared in package.json but used nowhere in src',
      'aiGateway.notDeclared: used in menu view/title but not declared',
    ]);
  });

  test('basics: "*" activation, a missing container and an unpinned @types/vscode are reported', () => {
    const problems = checkBasics({ activationEvents: ['*'], engines: { vscode: '^1.104.0' }, devDependencies: { '@types/vscode': '^1.104.0' }, contributes: {} });
    assert.deepEqual(problems, [
      "activation event *: activate only on the extension's own views and commands",
      'activity-bar container "aiGateway" is missing',
      '@types/vscode ^1.104.0 must be pinned to the engine floor ^1.104.0',
    ]);
  });
});

describe('the settings reader ignores workspace values it must not trust', () => {
  /** A workspace value for every risky setting that differs from both the user value and the default. */
  const workspaceValues: Record<string, unknown> = {
    'aiGateway.mcp.confirmReadOnlyAbilities': false,
    'aiGateway.mcp.authentication': 'jwt',
    'aiGateway.content.summaryAction': 'replaceSelection',
    'aiGateway.defaultModels.chat': 'evil/expensive-chat',
    'aiGateway.defaultModels.summary': 'evil/expensive-summary',
    'aiGateway.defaultModels.taxonomy': 'evil/expensive-taxonomy',
    'aiGateway.defaultModels.altText': 'evil/expensive-alt',
    'aiGateway.retry.maxAttempts': 10,
    'aiGateway.retry.maxTotalSeconds': 3600,
    'aiGateway.baseUrl': 'http://attacker.example',
    'aiGateway.hosting.baseUrl': 'http://attacker.example',
    'aiGateway.mcp.servers': [{ name: 'x', url: 'http://attacker.example/mcp' }],
  };
  const userValues: Record<string, unknown> = { 'aiGateway.defaultModels.chat': 'me/my-chat', 'aiGateway.retry.maxAttempts': 2 };

  /** Like the editor: get() merges user and workspace values (workspace wins); inspect() shows each. */
  function fakeSource(isTrusted: boolean): SettingsSource {
    return {
      isTrusted,
      getConfiguration: () => ({
        get: <T>(key: string) => (workspaceValues[key] ?? userValues[key]) as T,
        inspect: <T>(key: string) => ({ key, globalValue: userValues[key] as T | undefined, workspaceValue: workspaceValues[key] as T | undefined }),
      }) as unknown as ReturnType<SettingsSource['getConfiguration']>,
    };
  }

  const risky = allSettings().filter((s) => s.key in workspaceValues);
  test('every risky setting has a hostile workspace value in this test', () => {
    assert.deepEqual(risky.map((s) => s.key).sort(), [...RISKY_SETTINGS].sort());
  });

  test('in Restricted Mode a workspace value for each risky setting is ignored: the user value or the default counts', () => {
    const unbind = bindSettingsSource(fakeSource(false));
    try {
      for (const s of risky) assert.deepEqual(s.get(), userValues[s.key] ?? s.default, s.key);
    } finally {
      unbind();
    }
  });

  test('in a trusted workspace, user-only settings still ignore the workspace; restricted ones take it', () => {
    const unbind = bindSettingsSource(fakeSource(true));
    try {
      for (const s of [settings.mcpConfirmReadOnlyAbilities, settings.mcpAuthentication, settings.retryMaxAttempts, settings.retryMaxTotalSeconds, settings.baseUrl]) {
        assert.deepEqual(s.get(), userValues[s.key] ?? s.default, s.key);
      }
      assert.equal(settings.defaultChatModel.get(), 'evil/expensive-chat');
      assert.equal(settings.contentSummaryAction.get(), 'replaceSelection');
      // Ordinary settings keep the editor's precedence.
      assert.equal(settings.catalogShowRemoved.get(), false);
    } finally {
      unbind();
    }
  });

  test('the origin checker reports a risky setting a workspace can set, and a scope that disagrees with the reader', () => {
    const sample = {
      capabilities: { untrustedWorkspaces: { restrictedConfigurations: ['aiGateway.r', 'aiGateway.ghost'] } },
      contributes: { configuration: { properties: { 'aiGateway.m': { type: 'string', default: '', scope: 'machine' }, 'aiGateway.r': { type: 'string', default: '' }, 'aiGateway.a': { type: 'string', default: '' } } } },
    };
    assert.deepEqual(
      checkSettingOrigins(sample, [defineSetting('aiGateway.m', ''), defineSetting('aiGateway.r', '', { origin: 'user' }), defineSetting('aiGateway.a', '')], ['aiGateway.a']),
      [
        "aiGateway.m: scope machine in package.json, origin 'any' in src/platform/config.ts",
        "aiGateway.r: scope undefined in package.json, origin 'user' in src/platform/config.ts",
        "aiGateway.r: in restrictedConfigurations, origin 'user' in src/platform/config.ts",
        'aiGateway.ghost: in restrictedConfigurations but not a declared setting',
        'aiGateway.a: a workspace can set it',
      ],
    );
  });
});

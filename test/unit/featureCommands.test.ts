/**
 * Every command of package.json is registered by exactly the feature its id names (src/commandIds.ts,
 * generated from the manifest by scripts/gen-command-ids.mjs), and each feature registers all of its
 * own at activation through the one helper registerFeatureCommands (src/platform/commands.ts): at once for the
 * handlers it passes, as a stub that imports the feature's command module for the others. A command the
 * module forgets would throw "no handler" on its first use; one registered in another feature's module
 * would never be reached. This test reads the sources, so it fails before either ships.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { featureOf, featureOfGroup, readFeatureManifest } from '../../scripts/gen-command-ids.mjs';
import { allCommands, featureCommands, type Feature } from '../../src/commandIds';

const files = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(path.join(dir, n)).isDirectory() ? files(path.join(dir, n)) : n.endsWith('.ts') ? [path.join(dir, n)] : []));

/** The command ids a feature's sources register: `registerCommand('id'`, `command('id'` and `'id': handler` in registerFeatureCommands' `now`. */
function registeredIds(texts: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(/\b(?:registerCommand|command)\(\s*'(aiGateway\.[^']+)'/g)) out.add(m[1]);
    for (const m of text.matchAll(/^\s*'(aiGateway\.[^']+)':\s/gm)) out.add(m[1]);
  }
  return out;
}

/** What is wrong with one feature's registrations (pure, so it can be shown to fail). */
function problems(feature: Feature, declared: readonly string[], texts: readonly string[]): string[] {
  const registered = registeredIds(texts);
  const out: string[] = [];
  for (const id of declared) if (!registered.has(id)) out.push(`${id}: declared for ${feature} but src/${feature}/ never registers it`);
  for (const id of registered) if (!declared.includes(id)) out.push(`${id}: registered in src/${feature}/ but the manifest gives it to another feature (or does not declare it)`);
  if (!texts.some((t) => t.includes(`registerFeatureCommands('${feature}'`))) out.push(`src/${feature}/ never calls registerFeatureCommands('${feature}', ...)`);
  return out;
}

/** The feature manifest (src/features.ts), read as the generator reads it. */
const MANIFEST = readFeatureManifest();
/** The features that own command groups. */
const FEATURES = MANIFEST.filter((f) => f.groups.length > 0).map((f) => f.name as Feature);

/** Folders under src/ that are not features (layers and shared code). */
const NOT_FEATURES = new Set(['core', 'protocol', 'webview', 'webviewKit', 'platform']);

describe('feature commands', () => {
  test('the generated list covers every command, each in one feature', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { commands: { command: string }[] } };
    const ids = manifest.contributes.commands.map((c) => c.command);
    assert.deepEqual([...allCommands()].sort(), [...ids].sort());
    assert.deepEqual(FEATURES.flatMap(featureCommands).sort(), [...ids].sort());
  });

  test('each feature registers exactly its own commands, through registerFeatureCommands', () => {
    const found = FEATURES.flatMap((f) => problems(f, featureCommands(f), files(path.join('src', f)).map((p) => readFileSync(p, 'utf8'))));
    assert.deepEqual(found, []);
  });

  test('the check fails on a forgotten command, a stray one and a missing helper call', () => {
    const texts = ["registerFeatureCommands('media', load, {\n  'aiGateway.media.readAloud': () => 1,\n});", "command('aiGateway.media.generateImage', run);", "registerCommand('aiGateway.chat.history', h);"];
    const found = problems('media', ['aiGateway.media.generateImage', 'aiGateway.media.readAloud', 'aiGateway.media.transcribe'], texts);
    assert.equal(found.length, 2, found.join('\n'));
    assert.equal(problems('media', [], ['nothing']).length, 1);
  });

  test('the generator refuses an id whose group no feature owns', () => {
    assert.equal(featureOf('aiGateway.hosting.transferSite'), 'account');
    assert.equal(featureOf('aiGateway.agents.run'), 'knowledge');
    assert.equal(featureOf('aiGateway.addApiKey'), 'keys');
    assert.throws(() => featureOf('aiGateway.nobody.run'), /src\/features\.ts/);
  });

  test('[#40.11] the manifest lists every feature folder once, each with a registrar from its own folder', () => {
    const folders = readdirSync('src').filter((n) => statSync(path.join('src', n)).isDirectory() && !NOT_FEATURES.has(n));
    const names = MANIFEST.map((f) => f.name);
    assert.equal(new Set(names).size, names.length, `a feature listed twice: ${names.join(', ')}`);
    assert.deepEqual([...names].sort(), [...folders].sort());
    const text = readFileSync('src/features.ts', 'utf8');
    for (const name of names) {
      const registrar = new RegExp(`\\{ name: '${name}',[^}]*register: (\\w+) \\}`).exec(text)?.[1];
      assert.ok(registrar, `${name}: no register in src/features.ts`);
      assert.match(text, new RegExp(`import \\{ ${registrar} \\} from '\\./${name}/`), `${name}: its registrar ${registrar} is not imported from src/${name}/`);
    }
  });

  test('[#40.11] the manifest reader refuses a group claimed twice, a computed name and a missing registrar', () => {
    assert.deepEqual(readFeatureManifest(`export const FEATURES = [{ name: 'a', groups: ['x', ''], register: ra }, { name: 'b', groups: [], register: rb }, { name: 'c', register: rc }] as const;`), [
      { name: 'a', groups: ['x', ''] },
      { name: 'b', groups: [] },
      { name: 'c', groups: ['c'] },
    ]);
    assert.throws(() => featureOfGroup([{ name: 'a', groups: ['x'] }, { name: 'b', groups: ['x'] }]), /claimed by a and b/);
    assert.throws(() => readFeatureManifest(`const FEATURES = [{ name: 'a' + 'b', groups: [], register: r }];`), /name/);
    assert.throws(() => readFeatureManifest(`const FEATURES = [{ name: 'a', groups: [g], register: r }];`), /groups/);
    assert.throws(() => readFeatureManifest(`const FEATURES = [{ name: 'a', groups: [] }];`), /register/);
    assert.equal(featureOf('aiGateway.x.run', featureOfGroup([{ name: 'a', groups: ['x'] }])), 'a');
  });
});

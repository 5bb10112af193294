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

const FEATURES: Feature[] = ['keys', 'catalog', 'chat', 'content', 'mcp', 'account', 'usage', 'media', 'knowledge', 'welcome', 'modelIds', 'compare', 'participant', 'compat'];

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

  test('the generator refuses an id whose group no feature owns', async () => {
    const { featureOf } = await import('../../scripts/gen-command-ids.mjs');
    assert.equal(featureOf('aiGateway.hosting.transferSite'), 'account');
    assert.equal(featureOf('aiGateway.addApiKey'), 'keys');
    assert.throws(() => featureOf('aiGateway.nobody.run'), /FEATURE_OF_GROUP/);
  });
});

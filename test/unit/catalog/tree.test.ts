import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCatalogTree, catalogTree, filterModels, type GroupItemDescriptor, type ModelItemDescriptor } from '../../../src/core/catalog/tree';
import { at, model } from './fixtures';

const NOW = at('2026-06-10');
const models = [
  model('openai/gpt-x', { display_name: 'GPT X', capabilities: ['chat', 'tools', 'vision'] }),
  model('openai/img-1', { display_name: 'Image One', capabilities: ['image_generation'] }),
  model('anthropic/claude-q', { provider: 'anthropic', display_name: 'Claude Q', capabilities: ['chat', 'tools', 'summary'] }),
  model('acme/rocket', { provider: 'acme', display_name: 'Rocket', capabilities: ['chat', 'teleport'] }),
  model('google/old', { provider: 'google', display_name: 'Old Gemini', capabilities: ['chat', 'tools'], deprecation_date: '2026-05-01', removal_date: '2026-06-13' }),
  model('google/gone', { provider: 'google', display_name: 'Gone Gemini', capabilities: ['chat'], deprecation_date: '2026-01-01', removal_date: '2026-06-10' }),
  model('qwen/bare', { provider: 'qwen', display_name: 'Bare' }),
];

const groups = (items: ReturnType<typeof catalogTree>) => items as GroupItemDescriptor[];
const ids = (items: ModelItemDescriptor[]) => items.map((i) => i.model.id);

describe('catalog tree: grouping and filtering', () => {
  test('[#29.13] groups by provider, known providers in documented order and by name, then unknown ones by id', () => {
    const tree = groups(catalogTree(models, {}, 'provider', NOW));
    assert.deepEqual(tree.map((g) => g.label), ['OpenAI', 'Google', 'Anthropic', 'Qwen', 'acme (unknown provider)']);
    assert.deepEqual(tree.map((g) => g.key), ['provider:openai', 'provider:google', 'provider:anthropic', 'provider:qwen', 'provider:acme'], 'keys keep the ids');
    assert.deepEqual(ids(tree[0].children), ['openai/gpt-x', 'openai/img-1']);
    assert.equal(tree[0].description, '2 models');
    assert.equal(tree[3].description, '1 model');
  });

  test('[G-CAT-2] an unknown provider is shown in its own group, not dropped, not crashed on', () => {
    const weird = [...models, model('x/no-provider', { provider: undefined as unknown as string })];
    const tree = groups(catalogTree(weird, {}, 'provider', NOW));
    const acme = tree.find((g) => g.key === 'provider:acme');
    assert.ok(acme);
    assert.equal(acme.unknown, true);
    assert.deepEqual(ids(acme.children), ['acme/rocket']);
    assert.ok(tree.some((g) => g.label === 'unknown (unknown provider)' && ids(g.children).includes('x/no-provider')));
    const flat = catalogTree(weird, {}, 'flat', NOW) as ModelItemDescriptor[];
    assert.equal(flat.length, weird.length - 1 /* the removed one */);
  });

  test('[#41.10] groups by capability: a model appears under each of its capabilities; unknown ones are kept', () => {
    const tree = groups(catalogTree(models, {}, 'capability', NOW));
    const labels = tree.map((g) => g.label);
    assert.deepEqual(labels, ['Chat', 'Image generation', 'Summary', 'Tool calling', 'Image input (vision)', '(no capabilities listed)', 'teleport'], '[#41.10] documented capabilities in words; an unknown one as the gateway named it');
    assert.deepEqual(ids(tree[3].children), ['anthropic/claude-q', 'openai/gpt-x', 'google/old']);
    const keys = tree.flatMap((g) => g.children.map((c) => c.key));
    assert.equal(new Set(keys).size, keys.length, 'item keys are unique across groups');
  });

  test('flat list sorted by display name', () => {
    const flat = catalogTree(models, {}, 'flat', NOW) as ModelItemDescriptor[];
    assert.deepEqual(flat.map((i) => i.label), ['Bare', 'Claude Q', 'GPT X', 'Image One', 'Old Gemini', 'Rocket']);
  });

  test('[G-CAT-3] filtering to tools keeps only tool-capable models; several capabilities must all match', () => {
    assert.deepEqual(filterModels(models, { capabilities: ['tools'] }, NOW).map((e) => e.model.id), ['openai/gpt-x', 'anthropic/claude-q', 'google/old']);
    assert.deepEqual(filterModels(models, { capabilities: ['tools', 'vision'] }, NOW).map((e) => e.model.id), ['openai/gpt-x']);
    assert.deepEqual(filterModels(models, { capabilities: [] }, NOW).length, 6);
  });

  test('text filter matches id or display name, case-insensitively; blank text is no filter', () => {
    assert.deepEqual(filterModels(models, { text: 'GEMINI' }, NOW).map((e) => e.model.id), ['google/old']);
    assert.deepEqual(filterModels(models, { text: 'anthropic/' }, NOW).map((e) => e.model.id), ['anthropic/claude-q']);
    assert.equal(filterModels(models, { text: '   ' }, NOW).length, 6);
    assert.deepEqual(filterModels(models, { text: 'rock', capabilities: ['tools'] }, NOW), []);
  });

  test('[G-CAT-11] removed models are hidden by default and shown greyed out with showRemoved', () => {
    assert.ok(!filterModels(models, {}, NOW).some((e) => e.model.id === 'google/gone'));
    const flat = catalogTree(models, { showRemoved: true }, 'flat', NOW) as ModelItemDescriptor[];
    const gone = flat.find((i) => i.model.id === 'google/gone');
    assert.ok(gone);
    assert.equal(gone.greyed, true);
    assert.equal(gone.icon, 'removed');
    assert.equal(gone.contextValue, 'model.removed');
    assert.equal(gone.description, 'removed · google/gone');
    // The day before its removal date it is still listed.
    assert.ok(filterModels(models, {}, at('2026-06-09', '23:59:59')).some((e) => e.model.id === 'google/gone'));
  });

  test('[G-CAT-10] deprecated models carry the warning icon and "removed in N days"', () => {
    const flat = catalogTree(models, {}, 'flat', NOW) as ModelItemDescriptor[];
    const old = flat.find((i) => i.model.id === 'google/old');
    assert.ok(old);
    assert.equal(old.icon, 'deprecated');
    assert.equal(old.contextValue, 'model.deprecated');
    assert.equal(old.description, 'removed in 3 days · google/old');
    const active = flat.find((i) => i.model.id === 'openai/gpt-x');
    assert.equal(active?.icon, 'model');
    assert.equal(active?.description, 'openai/gpt-x');
  });

  test('[G-CAT-12] deprecated without removal date says "deprecated"', () => {
    const flat = catalogTree([model('a/b', { deprecation_date: '2026-01-01' })], {}, 'flat', NOW) as ModelItemDescriptor[];
    assert.equal(flat[0].description, 'deprecated · a/b');
    assert.equal(flat[0].icon, 'deprecated');
  });

  test('buildCatalogTree does not reorder its input', () => {
    const entries = filterModels(models, {}, NOW);
    const before = entries.map((e) => e.model.id);
    buildCatalogTree(entries, 'provider');
    assert.deepEqual(entries.map((e) => e.model.id), before);
  });
});

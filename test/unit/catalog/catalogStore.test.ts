import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CACHE_KEY, CatalogStore, formatAge, parseCatalog, type KeyValueStorage } from '../../../src/core/catalog/catalogStore';
import { detectRepricing } from '../../../src/core/catalog/repricing';
import { CatalogViewState } from '../../../src/core/catalog/viewState';
import { GatewayError } from '../../../src/core/http/errors';
import type { ModelCatalog } from '../../../src/core/gateway/types';
import { at, catalog, model } from './fixtures';

class MemoryStorage implements KeyValueStorage {
  readonly data = new Map<string, unknown>();
  writes = 0;
  get<T>(key: string): T | undefined {
    // Round-trip through JSON like a real Memento, so nothing relies on object identity.
    const v = this.data.get(key);
    return v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as T);
  }
  update(key: string, value: unknown): Promise<void> {
    this.writes++;
    this.data.set(key, value);
    return Promise.resolve();
  }
}

type Step = ModelCatalog | Error | unknown;

function setup(steps: Step[], storage = new MemoryStorage(), start = at('2026-06-10').getTime()) {
  let now = start;
  let calls = 0;
  const store = new CatalogStore({
    storage,
    detectRepricing,
    now: () => now,
    fetcher: async () => {
      const step = steps[Math.min(calls++, steps.length - 1)];
      await Promise.resolve();
      if (step instanceof Error) throw step;
      return step;
    },
  });
  return { store, storage, advance: (ms: number) => (now += ms), calls: () => calls };
}

const throttled = () => new GatewayError({ reason: 'throttled', status: 429, message: 'Too many requests' });
const network = () => new GatewayError({ reason: 'network', message: 'connect ECONNREFUSED' });
const v1 = catalog(model('a/x', { pricing: { input_per_million: '1', pricing_version: 'v1', unit: 'credits' } }), model('a/y'));
const v2 = catalog(model('a/x', { pricing: { input_per_million: '2', pricing_version: 'v2', unit: 'credits' } }), model('a/y'));

describe('catalog store: cache, staleness, failures', () => {
  test('a successful fetch is shown fresh and stored with its time', async () => {
    const { store, storage } = setup([v1]);
    assert.equal(store.load(), false);
    const r = await store.refresh();
    assert.equal(r.ok, true);
    assert.deepEqual(store.models.map((m) => m.id), ['a/x', 'a/y']);
    assert.equal(store.state.stale, false);
    assert.equal(store.state.source, 'network');
    assert.ok(storage.data.has(CACHE_KEY));
    assert.equal(store.getModel('a/y')?.id, 'a/y');
  });

  test('the stored catalog opens at once (no fetch), marked stale with its age', async () => {
    const first = setup([v1]);
    await first.store.refresh();
    const second = setup([v1], first.storage, at('2026-06-10').getTime() + 3 * 3600_000);
    assert.equal(second.store.load(), true);
    assert.equal(second.calls(), 0);
    assert.deepEqual(second.store.models.map((m) => m.id), ['a/x', 'a/y']);
    assert.equal(second.store.state.stale, true);
    assert.equal(second.store.state.source, 'cache');
    assert.equal(second.store.ageMs(), 3 * 3600_000);
    assert.equal(formatAge(second.store.ageMs()!), '3 hours ago');
  });

  test('[G-CAT-13] a 429 keeps the cached catalog, never empties the tree, and reports the failure', async () => {
    const first = setup([v1]);
    await first.store.refresh();
    const { store } = setup([throttled()], first.storage);
    store.load();
    const seen: number[] = [];
    store.onDidChange((s) => seen.push(s.models.length));
    const r = await store.refresh();
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.keptCache);
    assert.ok(!r.ok && r.error.reason === 'throttled' && r.error.status === 429);
    assert.deepEqual(store.models.map((m) => m.id), ['a/x', 'a/y']);
    assert.equal(store.state.stale, true);
    assert.equal(store.state.lastError?.reason, 'throttled');
    assert.ok(seen.every((n) => n === 2), 'no change event ever carried an empty list');
  });

  test('[G-CAT-13] a failure after a fresh fetch in the same session keeps it and marks it stale', async () => {
    const { store } = setup([v1, network(), v2]);
    await store.refresh();
    const r = await store.refresh();
    assert.equal(r.ok, false);
    assert.equal(store.models.length, 2);
    assert.equal(store.state.stale, true);
    await store.refresh();
    assert.equal(store.state.stale, false);
    assert.equal(store.state.lastError, undefined);
  });

  test('with no cache a failure leaves an empty, non-stale state and says so', async () => {
    const { store } = setup([network()]);
    const r = await store.refresh();
    assert.ok(!r.ok && !r.keptCache && r.error.reason === 'network');
    assert.equal(store.models.length, 0);
    assert.equal(store.state.stale, false);
  });

  test('a malformed body is a failure that changes nothing', async () => {
    const { store, storage } = setup([v1, { object: 'list', data: 'nope' }]);
    await store.refresh();
    const writes = storage.writes;
    const r = await store.refresh();
    assert.ok(!r.ok && r.error.reason === 'format');
    assert.equal(store.models.length, 2);
    assert.equal(storage.writes, writes);
  });

  test('[G-CAT-2] entries without an id are dropped and counted; unknown providers are kept', () => {
    const { catalog: c, dropped } = parseCatalog({ object: 'list', data: [{ id: 'q/x', provider: 'martian', object: 'model' }, { provider: 'openai' }, 7] });
    assert.equal(dropped, 2);
    assert.equal(c.data[0].provider, 'martian');
    assert.equal(c.data[0].display_name, 'q/x');
  });

  test('concurrent refreshes share one fetch', async () => {
    const { store, calls } = setup([v1]);
    const [a, b] = await Promise.all([store.refresh(), store.refresh()]);
    assert.equal(calls(), 1);
    assert.deepEqual(a, b);
  });

  test('[G-CAT-9] a repricing is reported once: against the stored catalog, also in another window', async () => {
    const storage = new MemoryStorage();
    const w1 = setup([v1, v2, v2], storage);
    const w2 = setup([v2], storage);
    assert.equal((await w1.store.refresh()).ok, true);
    w2.store.load();
    const r = await w1.store.refresh();
    assert.ok(r.ok && r.repricing);
    assert.deepEqual(r.repricing.models.map((m) => [m.modelId, m.changes[0].old, m.changes[0].new]), [['a/x', '1', '2']]);
    const again = await w1.store.refresh();
    assert.ok(again.ok && again.repricing === undefined);
    // The second window loaded v1 before the first window stored v2; it must not announce it again.
    const other = await w2.store.refresh();
    assert.ok(other.ok && other.repricing === undefined);
  });

  test('formatAge', () => {
    assert.equal(formatAge(59_999), 'just now');
    assert.equal(formatAge(60_000), '1 minute ago');
    assert.equal(formatAge(59 * 60_000), '59 minutes ago');
    assert.equal(formatAge(3600_000), '1 hour ago');
    assert.equal(formatAge(24 * 3600_000), '1 day ago');
    assert.equal(formatAge(50 * 3600_000), '2 days ago');
  });
});

describe('default models', () => {
  const cat = catalog(
    model('g/old', { capabilities: ['chat', 'summary'], deprecation_date: '2026-05-01', removal_date: '2026-07-01', description: 'Use g/new.' }),
    model('g/new', { capabilities: ['chat'] }),
    model('g/gone', { capabilities: ['chat'], removal_date: '2026-06-01', description: 'Replaced by g/new' }),
    model('g/fine', { capabilities: ['chat'] }),
  );

  test('warns once per default that is deprecated, removed or missing, with the alternative', async () => {
    const { store } = setup([cat]);
    await store.refresh();
    const defaults = { chat: 'g/gone', summary: 'g/old', taxonomy: 'g/vanished', alt_text: 'g/fine' };
    const w = await store.takeDefaultModelWarnings(defaults);
    assert.deepEqual(
      w.map((x) => [x.purpose, x.modelId, x.state, x.alternative]),
      [
        ['chat', 'g/gone', 'removed', 'g/new'],
        // g/new has no summary capability, so it is not offered as the summary alternative.
        ['summary', 'g/old', 'deprecated', undefined],
        ['taxonomy', 'g/vanished', 'missing', undefined],
      ],
    );
    assert.equal(w[1].daysUntilRemoval, 21);
    assert.deepEqual(await store.takeDefaultModelWarnings(defaults), []);
    // Fixing the default and then choosing a deprecated one again warns again.
    assert.deepEqual(await store.takeDefaultModelWarnings({ chat: 'g/fine' }), []);
    assert.equal((await store.takeDefaultModelWarnings({ chat: 'g/gone' })).length, 1);
  });
});

describe('catalog view state', () => {
  test('capability filter and grouping persist across sessions; text filter does not', async () => {
    const storage = new MemoryStorage();
    const a = new CatalogViewState(storage);
    assert.equal(a.grouping, 'provider');
    await a.setCapabilities(['vision', 'tools', 'bogus']);
    a.setText('  gpt ');
    assert.equal(await a.cycleGrouping(), 'capability');
    assert.deepEqual(a.capabilities, ['tools', 'vision']);
    assert.equal(a.description(), 'Tool calling, Image input (vision) · “gpt”');
    assert.deepEqual(a.filter(false), { capabilities: ['tools', 'vision'], text: 'gpt', showRemoved: false });
    const b = new CatalogViewState(storage);
    assert.equal(b.grouping, 'capability');
    assert.deepEqual(b.capabilities, ['tools', 'vision']);
    assert.equal(b.text, '');
    await b.clear();
    assert.equal(b.isFiltered, false);
    assert.equal(b.description(), '');
    assert.deepEqual(new CatalogViewState(storage).capabilities, []);
  });

  test('a corrupt stored grouping or filter falls back to the defaults', () => {
    const storage = new MemoryStorage();
    storage.data.set('aiGateway.catalog.grouping', 'sideways');
    storage.data.set('aiGateway.catalog.capabilityFilter', 'tools');
    const s = new CatalogViewState(storage);
    assert.equal(s.grouping, 'provider');
    assert.deepEqual(s.capabilities, []);
  });
});

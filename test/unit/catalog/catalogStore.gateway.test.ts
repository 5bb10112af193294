/**
 * The catalog store over the real gateway client against the local gateway: the whole path a
 * refresh takes in the editor, minus the editor (G-CAT-9, G-CAT-13 end to end in plain Node).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CatalogStore, type KeyValueStorage } from '../../../src/core/catalog/catalogStore';
import { detectRepricing } from '../../../src/core/catalog/repricing';
import { catalogTree, type GroupItemDescriptor } from '../../../src/core/catalog/tree';
import { createGatewayClient, type GatewayClient } from '../../../src/core/gateway/gatewayClient';
import { startGateway, type RunningGateway } from '../../localGateway/server';

class MemoryStorage implements KeyValueStorage {
  private readonly data = new Map<string, string>();
  get<T>(key: string): T | undefined {
    const v = this.data.get(key);
    return v === undefined ? undefined : (JSON.parse(v) as T);
  }
  update(key: string, value: unknown): Promise<void> {
    this.data.set(key, JSON.stringify(value));
    return Promise.resolve();
  }
}

describe('catalog store against the local gateway', () => {
  let gw: RunningGateway;
  let client: GatewayClient;
  before(async () => {
    gw = await startGateway();
    // One attempt: the 429 must reach the store rather than be retried away.
    client = createGatewayClient({ baseUrl: () => gw.url, getKey: async () => undefined, userAgent: 'catalog-test', env: {}, retry: { maxAttempts: 1 } });
  });
  after(async () => {
    await client.dispose();
    await gw.close();
  });

  const newStore = (storage: KeyValueStorage) =>
    new CatalogStore({ storage, detectRepricing, fetcher: async (signal) => (await client.listModels({ signal })).data, now: () => gw.options.now().getTime() });

  test('[G-CAT-13] a 429 from the catalog route keeps the cached catalog in a new session', async () => {
    gw.reset();
    const storage = new MemoryStorage();
    const first = newStore(storage);
    assert.equal((await first.refresh()).ok, true);
    const count = first.models.length;
    assert.ok(count > 10);

    gw.faults.add({ kind: 'throttled', route: '/v1/models' });
    const second = newStore(storage);
    assert.equal(second.load(), true);
    const r = await second.refresh();
    assert.ok(!r.ok);
    assert.equal(r.error.status, 429);
    assert.equal(r.error.reason, 'throttled');
    assert.equal(second.models.length, count);
    assert.equal(second.state.stale, true);
    // The tree built from it is not empty, and tool-capable models are still offered.
    assert.ok(catalogTree(second.models, {}, 'provider', gw.options.now()).length > 0);
    assert.ok(second.modelsFor('tools').length > 0);

    assert.equal((await second.refresh()).ok, true, 'the next refresh recovers');
    assert.equal(second.state.stale, false);
  });

  test('[G-CAT-9] switching the gateway to its repriced rate card is reported with old and new rates', async () => {
    gw.reset();
    const store = newStore(new MemoryStorage());
    await store.refresh();
    gw.configure({ repriced: true });
    const r = await store.refresh();
    assert.ok(r.ok && r.repricing);
    assert.notDeepEqual(r.repricing.oldVersions, r.repricing.newVersions);
    const gpt = r.repricing.models.find((m) => m.modelId === 'openai/gpt-5.1');
    assert.deepEqual(gpt?.changes.map((c) => [c.key, c.old, c.new]), [['input_per_million', '1.25', '1.375']]);
    assert.ok(!r.repricing.models.some((m) => m.modelId === 'openai/gpt-5-mini'), 'unchanged rates are not named');
  });

  test('[G-CAT-3] [G-CAT-11] [G-CAT-2] on the local catalog, "tools" offers only tool-capable, never removed models', async () => {
    gw.reset();
    gw.configure({
      extraModels: [
        { id: 'acme/old-tools', object: 'model', owned_by: 'Acme', provider: 'acme', display_name: 'Old Tools', capabilities: ['chat', 'tools'], removal_date: '2000-01-01' },
        { id: 'acme/new-tools', object: 'model', owned_by: 'Acme', provider: 'acme', display_name: 'New Tools', capabilities: ['chat', 'tools'] },
      ],
    });
    const store = newStore(new MemoryStorage());
    await store.refresh();
    const tools = store.modelsFor('tools').map((m) => m.id);
    assert.ok(tools.length > 2);
    assert.ok(store.modelsFor('tools').every((m) => m.capabilities?.includes('tools')));
    assert.ok(tools.includes('acme/new-tools'));
    assert.ok(!tools.includes('acme/old-tools'), 'a removed model is never offered');
    assert.ok(!tools.includes('openai/gpt-5.1') === !store.getModel('openai/gpt-5.1')?.capabilities?.includes('tools'));
    const groups = catalogTree(store.models, {}, 'provider', gw.options.now()) as GroupItemDescriptor[];
    const acme = groups.find((g) => g.key === 'provider:acme');
    assert.deepEqual(acme?.children.map((c) => c.model.id), ['acme/new-tools']);
    assert.equal(acme?.label, 'acme (unknown provider)');
  });
});

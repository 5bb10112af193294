import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fingerprint, MAX_ENTRIES, OutcomeLedger, RETENTION_MS, type OutcomeUnknownEntry } from '../../../src/core/mcp/outcomeLedger';
import { decideRequest, filterJsonBody, filterSseBody } from '../../../src/core/lm/mcpFilter';

function memory(): { get(): OutcomeUnknownEntry[] | undefined; set(e: OutcomeUnknownEntry[]): void; value: OutcomeUnknownEntry[] | undefined } {
  const box = {
    value: undefined as OutcomeUnknownEntry[] | undefined,
    get: () => box.value,
    set: (e: OutcomeUnknownEntry[]) => {
      box.value = e;
    },
  };
  return box;
}

describe('outcome-unknown ledger', () => {
  test('[G-MCP-13] an ambiguous write is found again for the identical call, whatever the key order', async () => {
    const store = memory();
    const ledger = new OutcomeLedger(store, () => Date.parse('2026-03-01T10:00:00Z'));
    await ledger.recordUnknown('site_1', 'publish-post', { id: 7, status: 'publish' }, 'req-1');
    const hit = ledger.find('site_1', 'publish-post', { status: 'publish', id: 7 });
    assert.equal(hit?.at, '2026-03-01T10:00:00.000Z');
    assert.equal(hit?.requestId, 'req-1');
    assert.equal(ledger.find('site_1', 'publish-post', { status: 'draft', id: 7 }), undefined);
    assert.equal(ledger.find('site_2', 'publish-post', { id: 7, status: 'publish' }), undefined);
    await ledger.clear('site_1', 'publish-post', { id: 7, status: 'publish' });
    assert.equal(ledger.find('site_1', 'publish-post', { id: 7, status: 'publish' }), undefined);
  });

  test('entries expire and the ledger stays bounded', async () => {
    const store = memory();
    let now = Date.parse('2026-03-01T00:00:00Z');
    const ledger = new OutcomeLedger(store, () => now);
    await ledger.recordUnknown('s', 'a', {});
    now += RETENTION_MS + 1;
    assert.equal(ledger.find('s', 'a', {}), undefined);
    for (let i = 0; i < MAX_ENTRIES + 5; i++) await ledger.recordUnknown('s', 'a', { i });
    assert.equal(store.value?.length, MAX_ENTRIES);
    assert.ok(ledger.find('s', 'a', { i: MAX_ENTRIES + 4 }));
    assert.equal(ledger.find('s', 'a', { i: 0 }), undefined);
  });

  test('fingerprints differ by site, ability and input', () => {
    assert.notEqual(fingerprint('a', 'b', {}), fingerprint('a', 'c', {}));
    assert.equal(fingerprint('a', 'b', { x: [1, { y: 2, z: 3 }] }), fingerprint('a', 'b', { x: [1, { z: 3, y: 2 }] }));
  });
});

describe('MCP relay filter for VS Code agent mode', () => {
  test('run_site_ability is removed from tools/list results, JSON and SSE', () => {
    const list = { jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'ping' }, { name: 'run_site_ability' }, { name: 'list_site_abilities' }], nextCursor: 'c' } };
    assert.deepEqual(JSON.parse(filterJsonBody(JSON.stringify(list))), { jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'ping' }, { name: 'list_site_abilities' }], nextCursor: 'c' } });
    const sse = `event: message\ndata: ${JSON.stringify(list)}\n\n`;
    const out = filterSseBody(sse);
    assert.ok(!out.includes('run_site_ability'), out);
    assert.ok(out.includes('list_site_abilities'));
    assert.ok(out.startsWith('event: message\n'));
  });

  test('a call of run_site_ability is answered locally with a tool error; a batch with one is refused whole', () => {
    const call = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'run_site_ability', arguments: { site_id: 's' } } };
    const d = decideRequest(call);
    assert.equal(d.kind, 'answer');
    if (d.kind === 'answer') {
      assert.equal(d.status, 200);
      const body = d.body as { id: number; result: { isError: boolean; content: Array<{ text: string }> } };
      assert.equal(body.id, 9);
      assert.equal(body.result.isError, true);
      assert.match(body.result.content[0]?.text ?? '', /aiGateway_runSiteAbility/);
    }
    const batch = decideRequest([{ jsonrpc: '2.0', id: 1, method: 'ping' }, call]);
    assert.equal(batch.kind, 'answer');
    if (batch.kind === 'answer') assert.equal(batch.status, 400);
    assert.deepEqual(decideRequest({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ping' } }), { kind: 'forward' });
    assert.deepEqual(decideRequest(undefined), { kind: 'forward' });
  });
});

import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MAX_LINE_CHARS, SpendLedger, spendEntry } from '../../../src/core/spend/ledger';

const PRICING = { input_per_million: '0.15', output_per_million: '0.6', pricing_version: '2026-01', unit: 'credits' };
const USAGE = { prompt_tokens: 1000, completion_tokens: 333, total_tokens: 1333 };

describe('spend ledger', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'spend-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('[G-CAT-8] an entry is priced exactly in nanocredits and names the key, never a secret', () => {
    const e = spendEntry({ model: 'openai/x', operation: 'vscode-chat', keyName: 'work', usage: USAGE, pricing: PRICING, requestId: 'r1', now: new Date('2026-03-01T00:00:00Z') });
    // 1000 * 0.15 / 1e6 + 333 * 0.6 / 1e6 credits = 0.00015 + 0.0001998 = 0.0003498 credits.
    assert.deepEqual(e, {
      time: '2026-03-01T00:00:00.000Z',
      model: 'openai/x',
      operation: 'vscode-chat',
      key_name: 'work',
      usage: USAGE,
      cost_nano: '349800',
      pricing_version: '2026-01',
      request_id: 'r1',
    });
  });

  test('a model without usable rates records a null cost', () => {
    assert.equal(spendEntry({ model: 'm', operation: 'o', usage: USAGE }).cost_nano, null);
    assert.equal(spendEntry({ model: 'm', operation: 'o', usage: USAGE, pricing: { ...PRICING, input_per_million: '1e3' } }).cost_nano, null);
  });

  test('appends are lines read back in order; concurrent appends all land whole', async () => {
    const ledger = new SpendLedger({ file: join(dir, 'a', 'spend.jsonl') });
    await Promise.all(Array.from({ length: 20 }, (_, i) => ledger.append(spendEntry({ model: `m${i}`, operation: 'o', usage: USAGE, pricing: PRICING }))));
    const { entries, skipped } = await ledger.read();
    assert.equal(skipped, 0);
    assert.deepEqual(
      entries.map((e) => e.model),
      Array.from({ length: 20 }, (_, i) => `m${i}`),
    );
    const text = await readFile(ledger.file, 'utf8');
    assert.equal(text.split('\n').length, 21);
  });

  test('a corrupt or partial line is skipped with a log line, and the next append does not glue onto it', async () => {
    const file = join(dir, 'b.jsonl');
    const good = JSON.stringify(spendEntry({ model: 'ok', operation: 'o', usage: USAGE, pricing: PRICING }));
    await writeFile(file, `${good}\nnot json\n{"time":"x","model":"m","operation":"o","usage":{},"cost_nano":"1.5"}\n${'y'.repeat(MAX_LINE_CHARS + 10)}\n{"time":"2026`);
    const logs: string[] = [];
    const ledger = new SpendLedger({ file, log: (l) => logs.push(l) });
    await ledger.append(spendEntry({ model: 'after', operation: 'o', usage: USAGE, pricing: PRICING }));
    const { entries, skipped } = await ledger.read();
    assert.deepEqual(
      entries.map((e) => e.model),
      ['ok', 'after'],
    );
    assert.equal(skipped, 4);
    assert.equal(logs.length, 4);
    assert.match(logs.join('\n'), /too long/);
    await appendFile(file, '');
  });

  test('a missing file reads as empty', async () => {
    assert.deepEqual(await new SpendLedger({ file: join(dir, 'none.jsonl') }).read(), { entries: [], skipped: 0 });
  });
});

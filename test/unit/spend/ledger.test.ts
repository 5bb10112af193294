import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MAX_LINE_CHARS, SpendLedger, spendEntry } from '../../../src/core/spend/ledger';
import { checkBudget, parseBudget, spendTotals } from '../../../src/core/spend/budget';

const T = new Date('2026-03-01T10:00:00Z');
const DAY = '2026-03-01';

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
    const ledger = new SpendLedger({ dir: join(dir, 'a') });
    await Promise.all(Array.from({ length: 20 }, (_, i) => ledger.append(spendEntry({ model: `m${i}`, operation: 'o', usage: USAGE, pricing: PRICING, now: T }))));
    const { entries, skipped } = await ledger.read();
    assert.equal(skipped, 0);
    assert.deepEqual(
      entries.map((e) => e.model),
      Array.from({ length: 20 }, (_, i) => `m${i}`),
    );
    // Each entry is one whole line of its own; the empty lines between them are the appends' leading newlines.
    const lines = (await readFile(ledger.fileFor(DAY), 'utf8')).split('\n').filter((l) => l !== '');
    assert.equal(lines.length, 20);
    for (const l of lines) assert.equal(typeof JSON.parse(l).model, 'string');
  });

  test('idle() resolves once appends nobody awaited are on disk, a failed one included, and never rejects', async () => {
    const ledger = new SpendLedger({ dir: join(dir, 'idle') });
    for (let i = 0; i < 5; i++) void ledger.append(spendEntry({ model: `m${i}`, operation: 'o', usage: USAGE, pricing: PRICING, now: T }));
    // An entry whose time is no date: its write fails (the day's file cannot be named); later appends still land.
    let failed = false;
    ledger.append({ ...spendEntry({ model: 'bad', operation: 'o', usage: USAGE, now: T }), time: 'not a date' }).catch(() => (failed = true));
    void ledger.append(spendEntry({ model: 'last', operation: 'o', usage: USAGE, pricing: PRICING, now: T }));
    await ledger.idle();
    const lines = (await readFile(ledger.fileFor(DAY), 'utf8')).split('\n').filter((l) => l !== '');
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as { model: string }).model),
      ['m0', 'm1', 'm2', 'm3', 'm4', 'last'],
    );
    assert.ok(failed, 'the bad entry was refused to its caller');
  });

  test('two windows (two processes) appending at once: every line lands whole, none lost', async () => {
    const ledgerDir = join(dir, 'two');
    const worker = join(__dirname, 'appendWorker.ts');
    const run = (name: string): Promise<number | null> =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', worker, ledgerDir, name, '150', T.toISOString()], { stdio: 'inherit' });
        child.on('error', reject);
        child.on('exit', resolve);
      });
    assert.deepEqual(await Promise.all([run('winA'), run('winB')]), [0, 0]);
    const { entries, skipped } = await new SpendLedger({ dir: ledgerDir }).read();
    assert.equal(skipped, 0);
    assert.equal(entries.length, 300);
    for (const name of ['winA', 'winB']) {
      // Each window's own lines are in its order; all 150 are there.
      assert.deepEqual(
        entries.filter((e) => e.key_name === name).map((e) => e.model),
        Array.from({ length: 150 }, (_, i) => `${name}-${i}`),
      );
    }
  });

  test('[#27.4] two ledgers on one folder interleaving appends with torn writes: a torn line spoils only itself', async () => {
    const ledgerDir = join(dir, 'interleave');
    const a = new SpendLedger({ dir: ledgerDir });
    const b = new SpendLedger({ dir: ledgerDir });
    const file = a.fileFor(DAY);
    const cut = (name: string, n: number): string => JSON.stringify(spendEntry({ model: name, operation: 'o', usage: USAGE, pricing: PRICING, now: T })).slice(0, n);
    const names: string[] = [];
    const add = async (l: SpendLedger, name: string): Promise<void> => {
      await l.append(spendEntry({ model: name, operation: 'o', usage: USAGE, pricing: PRICING, now: T }));
      names.push(name);
    };
    await add(a, 'a1'); // a has now seen the file end in a newline
    await add(b, 'b1');
    await appendFile(file, cut('lost-1', 50)); // another window died mid-write
    await add(a, 'a2');
    await appendFile(file, Buffer.from([0x7b, 0x22, 0xe6, 0x97])); // '{"' and half of a 3-byte character
    await add(b, 'b2');
    await add(a, 'a3');
    await appendFile(file, cut('lost-2', 120)); // a full disk cut this one
    await appendFile(file, 'x'); // and something else after it, still on the same line
    await add(b, 'b3');
    await add(a, 'a4');
    const logs: string[] = [];
    const read = await new SpendLedger({ dir: ledgerDir, log: (l) => logs.push(l) }).read();
    assert.deepEqual(
      read.entries.map((e) => e.model),
      names,
    );
    assert.equal(read.skipped, 3, 'each torn line is skipped once, alone');
    assert.equal(logs.length, 3);
    // 7 entries of 349800 nanocredits each (see the first test): the budget counts every one.
    assert.deepEqual(spendTotals(read, T.getTime()), { dayNano: 7n * 349800n, monthNano: 7n * 349800n });
    assert.equal(checkBudget({ dailyNano: 7n * 349800n }, spendTotals(read, T.getTime()).dayNano, 0n).level, 'over');
  });

  test('[#27.4] two windows (two processes) appending while each also leaves torn lines: every entry lands whole and is counted', async () => {
    const ledgerDir = join(dir, 'two-torn');
    const worker = join(__dirname, 'appendWorker.ts');
    const run = (name: string): Promise<number | null> =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', worker, ledgerDir, name, '60', T.toISOString(), 'torn'], { stdio: 'inherit' });
        child.on('error', reject);
        child.on('exit', resolve);
      });
    assert.deepEqual(await Promise.all([run('winA'), run('winB')]), [0, 0]);
    const read = await new SpendLedger({ dir: ledgerDir }).read();
    assert.equal(read.entries.length, 120);
    for (const name of ['winA', 'winB']) {
      assert.deepEqual(
        read.entries.filter((e) => e.key_name === name).map((e) => e.model),
        Array.from({ length: 60 }, (_, i) => `${name}-${i}`),
      );
    }
    assert.deepEqual(spendTotals(read, T.getTime()), { dayNano: 120n * 349800n, monthNano: 120n * 349800n });
  });

  test('a torn last line (a window died mid-write) is skipped with a log line; the lines before it and the next append are kept', async () => {
    const ledgerDir = join(dir, 'torn');
    const ledger0 = new SpendLedger({ dir: ledgerDir });
    await ledger0.append(spendEntry({ model: 'first', operation: 'o', usage: USAGE, pricing: PRICING, now: T }));
    await ledger0.append(spendEntry({ model: 'second', operation: 'o', usage: USAGE, pricing: PRICING, now: T }));
    const whole = await readFile(ledger0.fileFor(DAY), 'utf8');
    const third = JSON.stringify(spendEntry({ model: 'third', operation: 'o', usage: USAGE, pricing: PRICING, now: T }));
    await writeFile(ledger0.fileFor(DAY), whole + third.slice(0, 40));
    const logs: string[] = [];
    const ledger = new SpendLedger({ dir: ledgerDir, log: (l) => logs.push(l) });
    assert.deepEqual(
      (await ledger.read()).entries.map((e) => e.model),
      ['first', 'second'],
    );
    assert.equal(logs.length, 1);
    assert.match(logs[0], new RegExp(`skipped line ${whole.split('\n').length} of spend-2026-03-01\\.jsonl`));
    await ledger.append(spendEntry({ model: 'fourth', operation: 'o', usage: USAGE, pricing: PRICING, now: T }));
    const after = await ledger.read();
    assert.deepEqual(
      after.entries.map((e) => e.model),
      ['first', 'second', 'fourth'],
    );
    assert.equal(after.skipped, 1);
  });

  test('compaction by day: a past day becomes exact per-model summaries, today stays line by line, totals are unchanged', async () => {
    const ledgerDir = join(dir, 'compact');
    const ledger = new SpendLedger({ dir: ledgerDir });
    const old = new Date('2026-02-20T08:00:00Z');
    for (let i = 0; i < 3; i++) await ledger.append(spendEntry({ model: 'a', operation: 'chat', keyName: 'work', usage: USAGE, pricing: PRICING, now: old }));
    await ledger.append(spendEntry({ model: 'b', operation: 'chat', keyName: 'work', usage: USAGE, now: old }));
    await ledger.append(spendEntry({ model: 'a', operation: 'chat', keyName: 'work', usage: USAGE, pricing: PRICING, now: T }));
    const now = Date.parse('2026-03-01T12:00:00Z');
    const before = spendTotals(await ledger.read(), Date.parse('2026-02-28T12:00:00Z'));
    assert.deepEqual(await ledger.compact(now), ['2026-02-20']);
    assert.deepEqual(await ledger.compact(now), [], 'a compacted day is not compacted again');
    const read = await ledger.read();
    assert.deepEqual(
      read.entries.map((e) => e.time),
      ['2026-03-01T10:00:00.000Z'],
    );
    // 3 x 349800 nanocredits (see the first test) = 1049400; model b had no rates.
    assert.deepEqual(read.summaries, [
      { kind: 'day', day: '2026-02-20', model: 'a', operation: 'chat', key_name: 'work', pricing_version: '2026-01', requests: 3, unpriced: 0, cost_nano: '1049400', prompt_tokens: 3000, completion_tokens: 999 },
      { kind: 'day', day: '2026-02-20', model: 'b', operation: 'chat', key_name: 'work', requests: 1, unpriced: 1, cost_nano: '0', prompt_tokens: 1000, completion_tokens: 333 },
    ]);
    assert.deepEqual(spendTotals(read, Date.parse('2026-02-28T12:00:00Z')), before);
    assert.equal(before.monthNano, 1049400n);
    assert.deepEqual(
      (await readdir(ledgerDir)).sort(),
      ['spend-2026-02-20.jsonl', 'spend-2026-03-01.jsonl'],
      'no temporary file is left behind',
    );
  });

  test('repricing between two replies: each reply keeps the rates and pricing_version of its time; sums stay exact', async () => {
    const ledger = new SpendLedger({ dir: join(dir, 'reprice') });
    const v2 = { ...PRICING, input_per_million: '0.3', pricing_version: '2026-02' };
    await ledger.append(spendEntry({ model: 'a', operation: 'chat', usage: USAGE, pricing: PRICING, now: T }));
    await ledger.append(spendEntry({ model: 'a', operation: 'chat', usage: USAGE, pricing: v2, now: new Date(T.getTime() + 60_000) }));
    const { entries } = await ledger.read();
    // v1: 1000 x 0.15 + 333 x 0.6 = 349800 nano; v2: 1000 x 0.3 + 333 x 0.6 = 499800 nano.
    assert.deepEqual(
      entries.map((e) => [e.pricing_version, e.cost_nano]),
      [
        ['2026-01', '349800'],
        ['2026-02', '499800'],
      ],
    );
    assert.deepEqual(spendTotals(await ledger.read(), T.getTime() + 120_000), { dayNano: 849600n, monthNano: 849600n });
  });

  test('a read by time window takes only the entries inside [from, to)', async () => {
    const ledger = new SpendLedger({ dir: join(dir, 'window') });
    for (const iso of ['2026-03-01T09:59:59.999Z', '2026-03-01T10:00:00.000Z', '2026-03-01T10:59:59.999Z', '2026-03-01T11:00:00.000Z']) {
      await ledger.append(spendEntry({ model: iso, operation: 'o', usage: USAGE, now: new Date(iso) }));
    }
    const { entries } = await ledger.read({ fromMs: Date.parse('2026-03-01T10:00:00Z'), toMs: Date.parse('2026-03-01T11:00:00Z') });
    assert.deepEqual(
      entries.map((e) => e.model),
      ['2026-03-01T10:00:00.000Z', '2026-03-01T10:59:59.999Z'],
    );
  });

  test('budgets: exact decimal credits, empty is none, 80 % warns, 100 % is over', () => {
    assert.deepEqual(parseBudget('', 'daily'), {});
    assert.deepEqual(parseBudget('  ', 'daily'), {});
    assert.deepEqual(parseBudget('5', 'daily'), { nano: 5_000_000_000n });
    assert.deepEqual(parseBudget('0.000000001', 'daily'), { nano: 1n });
    assert.match(parseBudget('1e3', 'daily').error ?? '', /not a plain decimal/);
    assert.match(parseBudget('-1', 'daily').error ?? '', /not a plain decimal/);
    assert.match(parseBudget('0.0000000001', 'daily').error ?? '', /more than 9 decimals/);
    const limits = { dailyNano: 1000n, monthlyNano: 10_000n };
    assert.equal(checkBudget(limits, 799n, 799n).level, 'ok');
    assert.deepEqual(checkBudget(limits, 800n, 800n), { level: 'warn', which: 'daily', dayNano: 800n, monthNano: 800n });
    assert.deepEqual(checkBudget(limits, 1000n, 1000n), { level: 'over', which: 'daily', dayNano: 1000n, monthNano: 1000n });
    assert.deepEqual(checkBudget(limits, 10n, 10_000n), { level: 'over', which: 'monthly', dayNano: 10n, monthNano: 10_000n });
    assert.equal(checkBudget({}, 10n ** 30n, 10n ** 30n).level, 'ok');
  });

  test('a corrupt or partial line is skipped with a log line, and the next append does not glue onto it', async () => {
    const ledgerDir = join(dir, 'b');
    await mkdir(ledgerDir);
    const file = join(ledgerDir, `spend-${DAY}.jsonl`);
    const good = JSON.stringify(spendEntry({ model: 'ok', operation: 'o', usage: USAGE, pricing: PRICING, now: T }));
    await writeFile(file, `${good}\nnot json\n{"time":"2026-03-01T00:00:00Z","model":"m","operation":"o","usage":{},"cost_nano":"1.5"}\n${'y'.repeat(MAX_LINE_CHARS + 10)}\n{"time":"2026`);
    const logs: string[] = [];
    const ledger = new SpendLedger({ dir: ledgerDir, log: (l) => logs.push(l) });
    await ledger.append(spendEntry({ model: 'after', operation: 'o', usage: USAGE, pricing: PRICING, now: T }));
    const { entries, skipped } = await ledger.read();
    assert.deepEqual(
      entries.map((e) => e.model),
      ['ok', 'after'],
    );
    assert.equal(skipped, 4);
    assert.equal(logs.length, 4);
    assert.match(logs.join('\n'), /too long/);
  });

  test('a missing file reads as empty', async () => {
    assert.deepEqual(await new SpendLedger({ dir: join(dir, 'none') }).read(), { entries: [], summaries: [], skipped: 0 });
  });
});

/**
 * [#27.4] The spend ledger against torn lines: whatever another window, a killed write or a full disk
 * left at the end of a day's file (any bytes without a newline: random bytes, a character cut in the
 * middle of its UTF-8 bytes, a JSON entry cut anywhere), every complete entry appended afterwards, by
 * either of two ledgers on the same folder, is read back in order and counted by the budget.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { SpendLedger, spendEntry, type SpendEntry } from '../../../src/core/spend/ledger';
import { spendTotals } from '../../../src/core/spend/budget';

const T = new Date('2026-03-01T10:00:00Z');
const DAY = '2026-03-01';
const PRICING = { input_per_million: '0.15', output_per_million: '0.6', pricing_version: '2026-01', unit: 'credits' };

function entry(name: string, promptTokens: number): SpendEntry {
  return spendEntry({ model: name, operation: 'chat-panel', keyName: 'work', usage: { prompt_tokens: promptTokens, completion_tokens: 7, total_tokens: promptTokens + 7 }, pricing: PRICING, now: T });
}

const noNewline = (b: Uint8Array): Uint8Array => Uint8Array.from(b.filter((x) => x !== 0x0a));

/** Bytes another process may leave at the end of the file, never with a newline. */
const tornTail: fc.Arbitrary<Uint8Array> = fc.oneof(
  // Any bytes at all (invalid UTF-8 included), the newline removed.
  fc.uint8Array({ maxLength: 64 }).map(noNewline),
  // Text cut in the middle of a multi-byte character.
  fc.tuple(fc.constantFrom('é', '日本', '🎉', 'Grüße 🎉 日本語'), fc.nat()).map(([s, cut]) => {
    const b = Buffer.from(s, 'utf8');
    return Uint8Array.from(b.subarray(0, 1 + (cut % b.length)));
  }),
  // A ledger entry (as another window would write it) cut anywhere before its end.
  fc.tuple(fc.nat({ max: 100_000 }), fc.nat()).map(([tokens, cut]) => {
    const b = Buffer.from(JSON.stringify(entry('torn', tokens)), 'utf8');
    return Uint8Array.from(b.subarray(0, cut % b.length));
  }),
  // A lone carriage return, spaces: not a newline either.
  fc.constantFrom(Uint8Array.from([0x0d]), Uint8Array.from([0x20, 0x09]), Uint8Array.from([0xef, 0xbb, 0xbf])),
);

type Op = { kind: 'append'; via: 0 | 1; tokens: number } | { kind: 'torn'; bytes: Uint8Array };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), via: fc.constantFrom(0 as const, 1 as const), tokens: fc.nat({ max: 1_000_000 }) }),
  fc.record({ kind: fc.constant('torn' as const), bytes: tornTail }),
);

test('[#27.4] random torn tails before appends: every complete entry appended afterwards is read back and counted by the budget', async () => {
  const root = await mkdtemp(join(tmpdir(), 'spend-prop-'));
  let run = 0;
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 16 }), async (ops) => {
        const dir = join(root, String(run++));
        await mkdir(dir);
        const ledgers = [new SpendLedger({ dir }), new SpendLedger({ dir })];
        const appended: SpendEntry[] = [];
        let torn = 0;
        for (const o of ops) {
          if (o.kind === 'append') {
            const e = entry(`e${appended.length}`, o.tokens);
            await ledgers[o.via].append(e);
            appended.push(e);
          } else {
            // Straight to the file, as another process would: no ledger knows about it.
            await appendFile(ledgers[0].fileFor(DAY), o.bytes);
            torn++;
          }
        }
        for (const reader of [ledgers[0], ledgers[1], new SpendLedger({ dir })]) {
          const read = await reader.read();
          assert.deepEqual(
            read.entries.map((e) => e.model),
            appended.map((e) => e.model),
          );
          assert.ok(read.skipped <= torn, `${read.skipped} lines skipped for ${torn} torn writes`);
          const expected = appended.reduce((sum, e) => sum + BigInt(e.cost_nano ?? '0'), 0n);
          assert.deepEqual(spendTotals(read, T.getTime()), { dayNano: expected, monthNano: expected });
        }
      }),
      { numRuns: 150 },
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

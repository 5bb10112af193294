// Property tests (fast-check) for the readers of tools/call results: whatever a server sends as a
// result, every reader gives a typed answer and never throws, and a batch keeps one history entry per
// call it sent (issue 27, item 10).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { classifyToolError, toolErrorCode, toolErrorText } from '../../../src/core/mcp/toolErrors';
import { readToolResult } from '../../../src/core/mcp/toolResult';
import { runBatchCalls } from '../../../src/core/mcp/batchRun';
import { CallHistory, MAX_STORED_RESULT_CHARS, type HistoryEntry } from '../../../src/core/mcp/history';
import type { BatchCall, BatchResult, JsonRpcResponse } from '../../../src/core/mcp/batch';
import type { CallToolResult } from '../../../src/core/mcp/types';

const RUNS = 2_000;

/** Results a hostile or broken server may send: any JSON, and near-misses of the real shape. */
const anyResult: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue(),
  fc.record({ content: fc.jsonValue(), isError: fc.oneof(fc.constant(true), fc.jsonValue()), structuredContent: fc.jsonValue(), _meta: fc.jsonValue() }, { requiredKeys: ['content'] }),
  fc.record({ isError: fc.constant(true), content: fc.array(fc.oneof(fc.jsonValue(), fc.record({ type: fc.oneof(fc.constant('text'), fc.jsonValue()), text: fc.jsonValue() }))) }),
  fc.constantFrom<unknown>({ isError: true, content: [null] }, { isError: true, content: 'timeout: x' }, { isError: true, content: { type: 'text', text: 'x' } }, { isError: true }, null, [], 'x'),
);

const CODES = new Set(['timeout', 'ambiguous_outcome', 'unauthorized', 'forbidden', 'other']);

test('[#27.10] any JSON value as a tool result: the readers never throw and answer with their types', () => {
  fc.assert(
    fc.property(anyResult, fc.constantFrom('run_site_ability', 'kb_search', 'ping'), fc.constantFrom('user', 'account', 'jwt', 'custom', 'none') as fc.Arbitrary<'user'>, (result, tool, credential) => {
      const info = classifyToolError(tool, result, credential);
      assert.ok(info === undefined || (CODES.has(info.code) && typeof info.message === 'string' && typeof info.retry.allowed === 'boolean'));
      assert.ok(CODES.has(toolErrorCode(result)));
      assert.equal(typeof toolErrorText(result), 'string');
      const read = readToolResult(result);
      if (read.ok) assert.ok(Array.isArray(read.result.content) && read.result.content.every((b) => typeof b === 'object' && b !== null && typeof b.type === 'string'));
      else assert.equal(typeof read.problem, 'string');
    }),
    { numRuns: RUNS },
  );
});

test('[#27.10] content [null], a string or an object: an error result is still classified', () => {
  for (const content of [[null], 'timeout: upstream', { type: 'text', text: 'x' }, 7, [1, 'a', [], { type: 3 }]]) {
    const info = classifyToolError('kb_search', { isError: true, content });
    assert.equal(info?.code, 'other', JSON.stringify(content));
    assert.equal(readToolResult({ isError: true, content }).ok, false);
  }
  // The good blocks of a mixed list are still read.
  assert.equal(classifyToolError('kb_search', { isError: true, content: [null, { type: 'text', text: 'timeout: slow' }] })?.code, 'timeout');
});

function memoryHistory(): CallHistory {
  let entries: readonly HistoryEntry[] = [];
  return new CallHistory({ get: () => entries, set: async (next) => void (entries = next) }, 1_000);
}

test('[#27.10] a batch whose answers hold any JSON as results keeps one history entry per sent call', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.oneof(anyResult.map((result) => ({ result })), fc.constant(undefined), fc.record({ error: fc.record({ code: fc.integer(), message: fc.string() }) })), { minLength: 1, maxLength: 10 }),
      async (answers) => {
        const calls: BatchCall[] = answers.map((_, i) => ({ name: `tool_${i}`, arguments: { i } }));
        const responses = answers.map((a, i) => (a === undefined ? undefined : ({ jsonrpc: '2.0', id: i + 1, ...a } as JsonRpcResponse)));
        const history = memoryHistory();
        const out = await runBatchCalls(calls, {
          serverId: 's',
          serverLabel: 'S',
          credential: 'user',
          send: async (): Promise<BatchResult> => ({ status: 200, requestId: 'r-1', responses }),
          record: (entry) => history.add(entry),
        });
        assert.equal(out.entries.length, calls.length);
        assert.equal(history.list().length, calls.length);
        assert.deepEqual(new Set(history.list().map((e) => e.tool)), new Set(calls.map((c) => c.name)));
        for (const e of out.entries) {
          // Each entry is a typed result or a typed failure.
          assert.ok(e.result !== undefined || e.failure !== undefined, JSON.stringify(e));
          if (e.result) assert.ok(readToolResult(e.result).ok);
        }
      },
    ),
    { numRuns: 500 },
  );
});

test('[#27.10] a batch with [null], a string and an object as content records all three calls, marked outcome unknown', async () => {
  const history = memoryHistory();
  const calls: BatchCall[] = [
    { name: 'a', arguments: {} },
    { name: 'b', arguments: {} },
    { name: 'c', arguments: {} },
    { name: 'd', arguments: {} },
  ];
  const results: unknown[] = [{ isError: true, content: [null] }, { isError: true, content: 'boom' }, { isError: true, content: { type: 'text' } }, { content: [{ type: 'text', text: 'ok' }] }];
  const out = await runBatchCalls(calls, {
    serverId: 's',
    serverLabel: 'S',
    credential: 'user',
    send: async () => ({ status: 200, requestId: undefined, responses: results.map((result, i) => ({ jsonrpc: '2.0', id: i + 1, result })) }),
    record: (entry) => history.add(entry),
  });
  assert.equal(history.list().length, 4);
  assert.deepEqual(out.entries.map((e) => e.failure?.outcomeUnknown === true), [true, true, true, false]);
  assert.equal(out.failures, 3);
});

test('[#27.10] history keeps an oversized result whatever its blocks are', async () => {
  const history = memoryHistory();
  const big = 'x'.repeat(MAX_STORED_RESULT_CHARS + 10);
  const odd = { content: [null, 'loose', { type: 'text', text: big }] } as unknown as CallToolResult;
  const notList = { content: big } as unknown as CallToolResult;
  for (const [i, result] of [odd, notList].entries()) {
    await history.add({ id: `e${i}`, serverId: 's', serverLabel: 'S', tool: 't', args: {}, startedAt: 0, durationMs: 0, requestIds: [], result });
  }
  assert.equal(history.list().length, 2);
  assert.ok(history.list().every((e) => e.truncated === true && JSON.stringify(e.result).length < MAX_STORED_RESULT_CHARS));
});

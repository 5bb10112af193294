/**
 * "Run Several Calls" must not quietly re-run a call whose earlier outcome was
 * ambiguous_outcome (G-MCP-13). Each such call needs its own explicit confirmation, or it is left out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ambiguousPrompt, planBatch, type AmbiguousDecision } from '../../../src/core/mcp/batchPlan';
import { classifyToolError } from '../../../src/core/mcp/toolErrors';
import type { HistoryEntry } from '../../../src/core/mcp/history';

function entry(id: string, toolErrorText?: string): HistoryEntry {
  const result = toolErrorText ? { content: [{ type: 'text', text: toolErrorText }], isError: true } : { content: [{ type: 'text', text: 'ok' }] };
  return {
    id,
    serverId: 'gateway',
    serverLabel: 'AI Gateway',
    tool: `tool_${id}`,
    args: { id },
    startedAt: 0,
    durationMs: 1,
    requestIds: [],
    result,
    toolError: classifyToolError(`tool_${id}`, result, 'user'),
  };
}

const AMBIGUOUS = 'ambiguous_outcome: upstream connection dropped after the write was sent';

test('[G-MCP-13] precondition: the fixture is classified as ambiguous_outcome', () => {
  assert.equal(entry('x', AMBIGUOUS).toolError?.code, 'ambiguous_outcome');
  assert.equal(entry('y').toolError, undefined);
});

test('[G-MCP-13] a ticked ambiguous call is not re-run unless confirmed for that call', async () => {
  const asked: string[] = [];
  const picked = [entry('a'), entry('b', AMBIGUOUS), entry('c'), entry('d', AMBIGUOUS)];
  const answers: Record<string, AmbiguousDecision> = { b: 'skip', d: 'run' };
  const plan = await planBatch(picked, async (e) => {
    asked.push(e.id);
    return answers[e.id];
  });
  assert.deepEqual(asked, ['b', 'd'], 'asked once per ambiguous call, never for the others');
  assert.deepEqual(plan?.run.map((e) => e.id), ['a', 'c', 'd']);
  assert.deepEqual(plan?.skipped.map((e) => e.id), ['b']);
});

test('[G-MCP-13] dismissing the question cancels the whole batch: nothing is sent', async () => {
  const plan = await planBatch([entry('a'), entry('b', AMBIGUOUS)], async () => 'cancel');
  assert.equal(plan, undefined);
});

test('[G-MCP-13] calls with no ambiguous outcome pass without any question', async () => {
  let asked = 0;
  const plan = await planBatch([entry('a'), entry('b', 'timeout: upstream 504')], async () => {
    asked++;
    return 'run';
  });
  assert.equal(asked, 0);
  assert.deepEqual(plan?.run.map((e) => e.id), ['a', 'b']);
});

test('[G-MCP-13] the question names the call and says the write may already have happened', () => {
  const { message, detail } = ambiguousPrompt(entry('b', AMBIGUOUS));
  assert.match(message, /tool_b/);
  assert.match(message, /may already have happened/);
  assert.match(detail, /"id":"b"/);
});

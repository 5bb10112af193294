// Property tests (fast-check) for the JSON-RPC batch response handling: whatever the server sends,
// the parser returns one slot per call or throws McpCallError (never SyntaxError, TypeError, ...),
// and its work is linear in the body (counted in steps, not timed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildToolCallBatch, parseBatchBody, parseSseMessages, type BatchBody, type WorkMeter } from '../../../src/core/mcp/batch';
import { McpCallError } from '../../../src/core/mcp/errors';

const RUNS = 10_000;
const batch = buildToolCallBatch([
  { name: 'a', arguments: {} },
  { name: 'b', arguments: {} },
  { name: 'c', arguments: {} },
]);

/** Steps allowed per body character (plus a constant): the parser looks at each character a bounded number of times. */
const STEPS_PER_CHAR = 4;

const id = fc.oneof(fc.constantFrom(1, 2, 3, 4, null, '1'), fc.anything());
const rpcLike = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), id, result: fc.anything() }, { requiredKeys: [] }),
  fc.record({ jsonrpc: fc.constant('2.0'), id, error: fc.oneof(fc.anything(), fc.record({ code: fc.anything(), message: fc.anything(), data: fc.anything() }, { requiredKeys: [] })) }, { requiredKeys: [] }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: fc.string(), params: fc.anything() }, { requiredKeys: [] }),
  fc.anything(),
);
const jsonBody = fc.oneof(fc.array(rpcLike, { maxLength: 8 }).map((v) => JSON.stringify(v)), rpcLike.map((v) => JSON.stringify(v) ?? 'null'));
const sseBody = fc
  .array(
    fc.oneof(
      jsonBody.map((j) => `data: ${j}`),
      fc.constantFrom('', ':comment', 'event: message', 'id: 7', 'data:', 'data: {', 'retry: 10'),
      fc.string(),
    ),
    { maxLength: 12 },
  )
  .chain((lines) => fc.constantFrom('\n', '\r\n', '\r').map((nl) => lines.join(nl)));
const anyText = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), jsonBody, sseBody);
const body: fc.Arbitrary<BatchBody> = fc.record({
  status: fc.oneof(fc.constantFrom(200, 202, 400, 401, 403, 404, 429, 500, 502, 503), fc.integer({ min: 100, max: 599 })),
  contentType: fc.oneof(fc.constantFrom('application/json', 'text/event-stream', 'text/event-stream; charset=utf-8', 'text/html', 'text/plain', ''), fc.constant(null), fc.string()),
  text: anyText,
  requestId: fc.option(fc.string(), { nil: undefined }),
});

function typedOnly(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (e) {
    assert.ok(e instanceof McpCallError, `escaped as ${e instanceof Error ? e.constructor.name : typeof e}: ${String(e)}`);
    assert.ok(['protocol', 'http', 'authentication', 'permission', 'jsonrpc'].includes(e.reason), e.reason);
    return e;
  }
}

test('any batch answer yields one slot per call or a McpCallError, never another error (10,000 cases)', () => {
  fc.assert(
    fc.property(body, (b) => {
      const out = typedOnly(() => parseBatchBody(batch, b));
      if (!(out instanceof McpCallError)) {
        assert.ok(Array.isArray(out));
        assert.equal(out.length, batch.length);
        for (const r of out) {
          if (r === undefined) continue;
          assert.ok(r.result !== undefined || (r.error && typeof r.error.message === 'string' && typeof r.error.code === 'number'));
        }
      }
    }),
    { numRuns: RUNS },
  );
});

test('a response is only matched to the call with its id (10,000 cases)', () => {
  fc.assert(
    fc.property(fc.array(fc.record({ id: fc.constantFrom(1, 2, 3, 9, '2'), v: fc.integer() }), { maxLength: 6 }), (items) => {
      const text = JSON.stringify(items.map(({ id, v }) => ({ jsonrpc: '2.0', id, result: { v } })));
      const out = parseBatchBody(batch, { status: 200, contentType: 'application/json', text });
      batch.forEach((m, i) => {
        const first = items.find((x) => x.id === m.id);
        assert.deepEqual(out[i]?.result, first ? { v: first.v } : undefined);
      });
    }),
    { numRuns: RUNS },
  );
});

test('parsing work is linear in the body size: steps counted per character (10,000 cases)', () => {
  fc.assert(
    fc.property(body, (b) => {
      const meter: WorkMeter = { steps: 0 };
      typedOnly(() => parseBatchBody(batch, b, meter));
      assert.ok(meter.steps <= STEPS_PER_CHAR * (b.text.length + 1) + 16, `${meter.steps} steps for ${b.text.length} chars`);
    }),
    { numRuns: RUNS },
  );
});

test('SSE parsing of arbitrary text: JSON events or a McpCallError, linear steps (10,000 cases)', () => {
  fc.assert(
    fc.property(fc.oneof(sseBody, fc.string(), fc.string({ unit: 'binary' })), (text) => {
      const meter: WorkMeter = { steps: 0 };
      typedOnly(() => parseSseMessages(text, meter));
      assert.ok(meter.steps <= STEPS_PER_CHAR * (text.length + 1) + 16, `${meter.steps} steps for ${text.length} chars`);
    }),
    { numRuns: RUNS },
  );
});

test('adversarial shapes grow linearly: steps per character do not grow when the input doubles', () => {
  const shapes: Array<(n: number) => BatchBody> = [
    (n) => ({ status: 200, contentType: 'text/event-stream', text: 'data: 1\n'.repeat(n) + '\n' }),
    (n) => ({ status: 200, contentType: 'text/event-stream', text: '\n'.repeat(n) }),
    (n) => ({ status: 200, contentType: 'text/event-stream', text: '\r'.repeat(n) }),
    (n) => ({ status: 200, contentType: 'text/event-stream', text: 'data:'.repeat(n) }),
    (n) => ({ status: 200, contentType: 'application/json', text: JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i, result: {} }))) }),
    (n) => ({ status: 200, contentType: 'application/json', text: '['.repeat(n) }),
  ];
  for (const shape of shapes) {
    const perChar = (n: number): number => {
      const b = shape(n);
      const meter: WorkMeter = { steps: 0 };
      typedOnly(() => parseBatchBody(batch, b, meter));
      return meter.steps / b.text.length;
    };
    const small = perChar(20_000);
    const big = perChar(40_000);
    assert.ok(big <= small * 1.01, `${small} -> ${big} steps per character`);
  }
});

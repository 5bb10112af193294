/**
 * Property-based tests (fast-check) of the SSE chat-stream reader, src/core/gateway/sse.ts: whatever
 * bytes a server sends, cut into whatever pieces, the reader either yields chunks that carry `choices`
 * or fails with a typed GatewayError; a well-formed stream gives the same reply for every chunking;
 * an event over the size limit fails with 'protocol' naming the limit; and the work done (counted as
 * characters handed to JSON.parse and body pieces pulled, never timed) stays linear in the input.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readChatStream } from '../../../src/core/gateway/sse';
import { GatewayError } from '../../../src/core/http/errors';
import type { ChatCompletionChunk } from '../../../src/core/gateway/types';
import { chunkJson } from './helpers';

const RUNS = 10_000;
const MAX_EVENT_CHARS = 512;
const encoder = new TextEncoder();

/** Cuts `bytes` at the given (sorted, deduplicated) positions. */
function cut(bytes: Uint8Array, positions: number[]): Uint8Array[] {
  const at = [...new Set(positions.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let start = 0;
  for (const p of at) {
    if (p > start) parts.push(bytes.subarray(start, p));
    start = Math.max(start, p);
  }
  if (start < bytes.length) parts.push(bytes.subarray(start));
  return parts;
}

interface Counted {
  pulls: number;
}

async function* source(parts: Uint8Array[], counter: Counted): AsyncGenerator<Uint8Array> {
  for (const p of parts) {
    counter.pulls++;
    yield p;
  }
}

/** Runs the reader to the end; counts the characters it gave JSON.parse. */
async function run(parts: Uint8Array[]): Promise<{ items: ChatCompletionChunk[]; error: unknown; parsedChars: number; pulls: number; complete: boolean | undefined }> {
  const counter: Counted = { pulls: 0 };
  const items: ChatCompletionChunk[] = [];
  let error: unknown;
  let complete: boolean | undefined;
  let parsedChars = 0;
  const realParse = JSON.parse;
  JSON.parse = ((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    parsedChars += String(text).length;
    return realParse(text, reviver);
  }) as typeof JSON.parse;
  try {
    for await (const c of readChatStream(source(parts, counter), { requestId: 'req-prop', maxEventChars: MAX_EVENT_CHARS, onEnd: (_e, _n, done) => (complete = done) })) {
      items.push(c);
    }
  } catch (e) {
    error = e;
  } finally {
    JSON.parse = realParse;
  }
  return { items, error, parsedChars, pulls: counter.pulls, complete };
}

/** One SSE event of the kinds a gateway (or a hostile server) might send. */
const eventArb: fc.Arbitrary<{ text: string; content?: string }> = fc.oneof(
  fc.string({ maxLength: 40 }).map((s) => ({ text: `data: ${chunkJson(s)}\n\n`, content: s })),
  fc.constantFrom('{}', '[]', '{"object":"keepalive"}', 'null', '42', '"text"', '{"choices":null}').map((d) => ({ text: `data: ${d}\n\n` })),
  fc.constantFrom(': ping\n\n', 'event: ping\n\n', 'retry: 1000\n\n', 'id: 7\n\n', '\r\n', '\n').map((t) => ({ text: t })),
  fc.string({ maxLength: 60 }).map((s) => ({ text: `data: ${s}\n\n` })),
  fc.integer({ min: MAX_EVENT_CHARS + 1, max: MAX_EVENT_CHARS * 4 }).map((n) => ({ text: `data: ${'x'.repeat(n)}` })),
  fc.constant({ text: 'data: {"error":{"message":"boom","type":"server_error","code":500}}\n\n' }),
);

describe('SSE reader properties (fast-check)', () => {
  test(`any bytes in any chunking: only typed GatewayErrors escape, every yielded chunk has choices, work is linear (${RUNS} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.array(eventArb, { maxLength: 12 }).map((events) => encoder.encode(events.map((e) => e.text).join('') + 'data: [DONE]\n\n')),
          fc.uint8Array({ maxLength: 400 }),
          fc.tuple(fc.array(eventArb, { maxLength: 6 }), fc.uint8Array({ maxLength: 80 })).map(([events, noise]) => {
            const head = encoder.encode(events.map((e) => e.text).join(''));
            const out = new Uint8Array(head.length + noise.length);
            out.set(head);
            out.set(noise, head.length);
            return out;
          }),
        ),
        fc.array(fc.nat(), { maxLength: 24 }),
        async (bytes, positions) => {
          const parts = cut(bytes, positions);
          const { items, error, parsedChars, pulls } = await run(parts);
          if (error !== undefined) {
            assert.ok(error instanceof GatewayError, `escaped: ${String(error)}`);
            assert.equal(error.partial, true);
            assert.ok(['protocol', 'server', 'network'].includes(error.reason) || error.status !== undefined, error.reason);
            assert.equal(error.requestId ?? 'req-prop', 'req-prop');
          }
          for (const c of items) assert.ok(Array.isArray(c.choices));
          // Linear work: every input character reaches JSON.parse at most twice (an error envelope is
          // parsed once as an event and once for its fields), and the body is read once.
          assert.ok(parsedChars <= 2 * bytes.length, `${parsedChars} characters parsed from ${bytes.length} bytes`);
          assert.ok(pulls <= parts.length);
        },
      ),
      { numRuns: RUNS },
    );
  });

  test(`a well-formed stream gives the same reply for every chunking; keep-alives are skipped (${RUNS} cases)`, async () => {
    const wellFormed = fc.array(
      fc.oneof(
        fc.string({ maxLength: 30 }).map((s) => ({ text: `data: ${chunkJson(s)}\n\n`, content: s as string | undefined })),
        fc.constantFrom('data: {}\n\n', 'data: []\n\n', ': keep-alive\n\n').map((t) => ({ text: t, content: undefined as string | undefined })),
      ),
      { maxLength: 10 },
    );
    await fc.assert(
      fc.asyncProperty(wellFormed, fc.array(fc.nat(), { maxLength: 30 }), async (events, positions) => {
        const bytes = encoder.encode(events.map((e) => e.text).join('') + 'data: [DONE]\n\n');
        const { items, error, complete } = await run(cut(bytes, positions));
        assert.equal(error, undefined);
        assert.equal(complete, true);
        assert.deepEqual(
          items.map((c) => c.choices[0]?.delta?.content),
          events.filter((e) => e.content !== undefined).map((e) => e.content),
        );
      }),
      { numRuns: RUNS },
    );
  });

  test(`an event over the limit fails with 'protocol' naming the limit, whatever the chunking (${RUNS} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: MAX_EVENT_CHARS + 1, max: MAX_EVENT_CHARS * 8 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 20 }),
        async (size, terminated, positions) => {
          const bytes = encoder.encode(`data: ${chunkJson('before')}\n\ndata: ${'y'.repeat(size)}${terminated ? '\n\n' : ''}data: [DONE]\n\n`);
          const { items, error } = await run(cut(bytes, positions));
          assert.ok(error instanceof GatewayError);
          assert.equal(error.reason, 'protocol');
          assert.match(error.message, new RegExp(`limit of ${MAX_EVENT_CHARS} characters`));
          assert.equal(error.requestId, 'req-prop');
          assert.ok(items.length <= 1);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

/**
 * The SSE chat-stream reader: framing at every byte boundary (also inside multi-byte UTF-8
 * characters), over real HTTP as well as from memory, and the partial-failure contract.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readChatStream } from '../../../src/core/gateway/sse';
import { createGatewayClient, type GatewayClient } from '../../../src/core/gateway/gatewayClient';
import type { ChatCompletionChunk } from '../../../src/core/gateway/types';
import { GatewayError } from '../../../src/core/http/errors';
import { chunkJson, drain, startServer, VirtualClock } from './helpers';

// Two-, three- and four-byte characters, a surrogate pair, and an escaped quote inside JSON.
const PIECES = ['Grüße', ' 日本語', ' 🎉🧪', ' "quoted" \\ done'];
const BODY =
  ': a comment line the parser must ignore\n\n' +
  PIECES.map((p, i) => `data: ${chunkJson(p, i)}\n\n`).join('') +
  // CRLF framing and a multi-line data field are legal SSE too.
  `data: ${chunkJson('crlf')}\r\n\r\n` +
  'data: [DONE]\n\n';
const EXPECTED = [...PIECES, 'crlf'];
const BYTES = new TextEncoder().encode(BODY);

async function* fromParts(parts: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield p;
}

function contents(chunks: ChatCompletionChunk[]): string[] {
  return chunks.map((c) => c.choices[0].delta.content ?? '');
}

describe('SSE framing', () => {
  test('[G-CHAT-2] split into two parts at every byte boundary, the chunks are the same', async () => {
    // Sanity: the body really contains multi-byte characters whose bytes get split.
    assert.ok(BYTES.length > BODY.length);
    for (let i = 0; i <= BYTES.length; i++) {
      const { items, error } = await drain(readChatStream(fromParts([BYTES.subarray(0, i), BYTES.subarray(i)])));
      assert.equal(error, undefined, `split at ${i}`);
      assert.deepEqual(contents(items), EXPECTED, `split at ${i}`);
    }
  });

  test('[G-CHAT-2] one byte per read gives the same chunks', async () => {
    const parts = Array.from(BYTES, (b) => Uint8Array.of(b));
    const { items, error } = await drain(readChatStream(fromParts(parts)));
    assert.equal(error, undefined);
    assert.deepEqual(contents(items), EXPECTED);
  });

  test('[G-CHAT-2] one long read of many events (cut into slices inside the reader) gives the same chunks as one byte per read', async () => {
    const words = Array.from({ length: 200 }, (_, i) => `${PIECES[i % PIECES.length]} ${i}`);
    const body = new TextEncoder().encode(words.map((w, i) => `data: ${chunkJson(w, i)}\n\n`).join('') + ': note\r\n\r\n' + 'data: [DONE]\n\n');
    assert.ok(body.length > 16 * 1024);
    const whole = await drain(readChatStream(fromParts([body])));
    const bytewise = await drain(readChatStream(fromParts(Array.from(body, (b) => Uint8Array.of(b)))));
    assert.equal(whole.error, undefined);
    assert.deepEqual(contents(whole.items), words);
    assert.deepEqual(contents(bytewise.items), words);
  });

  test('the first events of a long read are handed over before the rest of the read is decoded', async () => {
    const head = new TextEncoder().encode(Array.from({ length: 40 }, (_, i) => `data: ${chunkJson(`w${i}`, i)}\n\n`).join(''));
    // Not UTF-8, at the end of the same read: found only after the first chunks went out.
    const body = new Uint8Array(head.length + 3);
    body.set(head);
    body.set([0x64, 0xff, 0x0a], head.length);
    let firstAt = -1;
    const { items, error } = await drain(readChatStream(fromParts([body]), { onEnd: (_e, n) => (firstAt = n) }));
    assert.ok(items.length >= 1 && items.length < 40, `${items.length} chunks before the failure`);
    assert.equal(contents(items)[0], 'w0');
    assert.equal(error?.reason, 'protocol');
    assert.match(error?.message ?? '', /UTF-8/);
    assert.equal(firstAt, items.length);
  });

  test('nothing after [DONE] is read or yielded', async () => {
    const extra = new TextEncoder().encode(`data: ${chunkJson('after')}\n\n`);
    const { items } = await drain(readChatStream(fromParts([BYTES, extra])));
    assert.deepEqual(contents(items), EXPECTED);
  });

  test('[G-CHAT-2] lines SSE says to ignore (an unknown field, a retry that is not a number, event and id fields) do not end the reply', async () => {
    const body = new TextEncoder().encode(
      `data: ${chunkJson('a')}\n\n` +
        'x-gateway-trace: 42\nretry: soon\nfield-without-colon\n\n' +
        `event: message\nid: 7\nretry: 3000\ndata: ${chunkJson('b')}\n\n` +
        'data: [DONE]\n\n',
    );
    for (const parts of [[body], Array.from(body, (b) => Uint8Array.of(b))]) {
      const { items, error } = await drain(readChatStream(fromParts(parts)));
      assert.equal(error, undefined);
      assert.deepEqual(contents(items), ['a', 'b']);
    }
  });

  test('a stream of little but lines to ignore is stopped with a partial protocol error after the chunks before them', async () => {
    const body = new TextEncoder().encode(`data: ${chunkJson('a')}\n\n` + 'junk\n'.repeat(5000) + `data: ${chunkJson('b')}\n\ndata: [DONE]\n\n`);
    const { items, error } = await drain(readChatStream(fromParts([body]), { requestId: 'rid-9' }));
    assert.deepEqual(contents(items), ['a']);
    assert.equal(error?.reason, 'protocol');
    assert.equal(error?.partial, true);
    assert.equal(error?.requestId, 'rid-9');
    assert.match(error?.message ?? '', /lines that are not stream events/);
  });

  test('a long read without a line break is searched once, not once per slice (work linear in its size)', async () => {
    // Counted, not timed: the bytes that Uint8Array#indexOf may look at, summed over the read. Looking
    // for a slice's end through the whole read made 1 MiB cost about 32 MiB of searching (64 slices).
    const size = 1 << 20;
    const body = new TextEncoder().encode('data: {"x":' + '1'.repeat(size - 12) + '\n');
    const indexOf = Uint8Array.prototype.indexOf;
    let searched = 0;
    Uint8Array.prototype.indexOf = function (this: Uint8Array, value: number, from?: number) {
      searched += this.length - Math.max(0, from ?? 0);
      return indexOf.call(this, value, from);
    };
    let error: GatewayError | undefined;
    try {
      ({ error } = await drain(readChatStream(fromParts([body]), { maxEventChars: 4 * size })));
    } finally {
      Uint8Array.prototype.indexOf = indexOf;
    }
    assert.equal(error?.reason, 'protocol'); // no [DONE]: cut short
    assert.ok(searched <= 2 * size, `searched ${searched} bytes for a read of ${size}`);
  });

  test('a final [DONE] without its blank line still ends the stream cleanly', async () => {
    const body = new TextEncoder().encode(`data: ${chunkJson('x')}\n\ndata: [DONE]`);
    const { items, error } = await drain(readChatStream(fromParts([body])));
    assert.equal(error, undefined);
    assert.deepEqual(contents(items), ['x']);
  });
});

describe('SSE failures keep what arrived', () => {
  test('a malformed event throws a partial protocol error after the good chunks', async () => {
    const body = new TextEncoder().encode(`data: ${chunkJson('a')}\n\ndata: ${chunkJson('b')}\n\ndata: {not json\n\ndata: ${chunkJson('c')}\n\n`);
    const { items, error } = await drain(readChatStream(fromParts([body]), { requestId: 'rid-1' }));
    assert.deepEqual(contents(items), ['a', 'b']);
    assert.equal(error?.reason, 'protocol');
    assert.equal(error?.partial, true);
    assert.equal(error?.requestId, 'rid-1');
  });

  test('events of one read are judged in order: a malformed event wins over a later oversized one, and [DONE] after a failure does not complete', async () => {
    const big = 'x'.repeat(400);
    const body = new TextEncoder().encode(`data: ${chunkJson('a')}\n\ndata: {not json\n\ndata: ${big}\n\ndata: [DONE]\n\n`);
    const ends: boolean[] = [];
    const { items, error } = await drain(readChatStream(fromParts([body]), { maxEventChars: 300, onEnd: (_e, _n, complete) => void ends.push(complete) }));
    assert.deepEqual(contents(items), ['a']);
    assert.equal(error?.reason, 'protocol');
    assert.match(error?.message ?? '', /malformed/);
    assert.deepEqual(ends, [false]);
  });

  test('nothing after [DONE] in the same read counts, not even an oversized event', async () => {
    const body = new TextEncoder().encode(`data: ${chunkJson('a')}\n\ndata: [DONE]\n\ndata: ${'x'.repeat(400)}\n\n`);
    const { items, error } = await drain(readChatStream(fromParts([body]), { maxEventChars: 300 }));
    assert.deepEqual(contents(items), ['a']);
    assert.equal(error, undefined);
  });

  test('nothing after [DONE] in the same read counts: neither an oversized unfinished event nor lines to ignore', async () => {
    for (const after of [`data: ${'x'.repeat(400)}`, `data: ${'x'.repeat(40_000)}`, 'junk\n'.repeat(1500)]) {
      const body = new TextEncoder().encode(`data: ${chunkJson('a')}\n\ndata: [DONE]\n\n${after}`);
      const ends: boolean[] = [];
      const { items, error } = await drain(readChatStream(fromParts([body]), { maxEventChars: 300, onEnd: (_e, _n, complete) => void ends.push(complete) }));
      assert.deepEqual(contents(items), ['a']);
      assert.equal(error, undefined);
      assert.deepEqual(ends, [true]);
    }
  });

  test('a chunk is handed over before the later events of its read are parsed (the first token does not wait for the rest of the read)', async () => {
    const body = new TextEncoder().encode(`data: ${chunkJson('a')}\n\ndata: ${chunkJson('b')}\n\ndata: {not json\n\ndata: [DONE]\n\n`);
    const parse = JSON.parse;
    let parses = 0;
    const seen: number[] = [];
    JSON.parse = ((text: string, reviver?: (key: string, value: unknown) => unknown) => {
      parses++;
      return parse(text, reviver);
    }) as typeof JSON.parse;
    try {
      const ends: Array<string | undefined> = [];
      for await (const c of readChatStream(fromParts([body]), { onEnd: (e) => void ends.push(e?.reason) })) {
        seen.push(parses);
        assert.deepEqual(contents([c]), ['a']);
        break;
      }
      assert.deepEqual(seen, [1]);
      assert.deepEqual(ends, [undefined]);
    } finally {
      JSON.parse = parse;
    }
  });

  test('a stream that ends without [DONE] throws a partial error after its chunks', async () => {
    const body = new TextEncoder().encode(`data: ${chunkJson('a')}\n\ndata: ${chunkJson('b')}\n\n`);
    const { items, error } = await drain(readChatStream(fromParts([body])));
    assert.deepEqual(contents(items), ['a', 'b']);
    assert.equal(error?.reason, 'protocol');
    assert.equal(error?.partial, true);
  });

  test('an error envelope sent as an event is classified like the HTTP error it names', async () => {
    const envelope = JSON.stringify({ error: { message: 'the request was blocked by the content policy', type: 'content_policy_violation', code: 403, request_id: 'r9' } });
    const body = new TextEncoder().encode(`data: ${chunkJson('a')}\n\ndata: ${envelope}\n\n`);
    const { items, error } = await drain(readChatStream(fromParts([body]), { requestId: 'r9' }));
    assert.deepEqual(contents(items), ['a']);
    assert.equal(error?.reason, 'content_policy');
    assert.equal(error?.status, 403);
    assert.equal(error?.partial, true);
  });

  test('a body failure goes through mapError and is marked partial', async () => {
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode(`data: ${chunkJson('a')}\n\n`);
      throw Object.assign(new Error('reset'), { code: 'ECONNRESET' });
    }
    const { items, error } = await drain(readChatStream(broken()));
    assert.deepEqual(contents(items), ['a']);
    assert.equal(error?.reason, 'network');
    assert.equal(error?.partial, true);
  });

  test('onEnd reports the outcome once, also when the consumer stops early', async () => {
    const ends: Array<[string | undefined, number]> = [];
    const onEnd = (e: { reason: string } | undefined, n: number): void => void ends.push([e?.reason, n]);
    await drain(readChatStream(fromParts([BYTES]), { onEnd }));
    for await (const c of readChatStream(fromParts([BYTES]), { onEnd })) {
      assert.ok(c);
      break;
    }
    assert.deepEqual(ends, [
      [undefined, EXPECTED.length],
      [undefined, 1],
    ]);
  });
});

describe('SSE reader as an iterator (it behaves like an async generator)', () => {
  /** A body that records how far it was read and whether it was closed. */
  function tracked(parts: Uint8Array[]): { body: AsyncIterable<Uint8Array>; pulls: () => number; closed: () => boolean } {
    let pulls = 0;
    let closed = false;
    async function* gen(): AsyncGenerator<Uint8Array> {
      try {
        for (const p of parts) {
          pulls++;
          yield p;
        }
      } finally {
        closed = true;
      }
    }
    return { body: gen(), pulls: () => pulls, closed: () => closed };
  }

  test('calls made without waiting settle in order, each with its own chunk, then done', async () => {
    const parts = Array.from(BYTES, (b) => Uint8Array.of(b));
    const it = readChatStream(fromParts(parts));
    const results = await Promise.all(Array.from({ length: EXPECTED.length + 2 }, () => it.next()));
    assert.deepEqual(
      results.map((r) => (r.done ? 'done' : contents([r.value])[0])),
      [...EXPECTED, 'done', 'done'],
    );
  });

  test('return() before the first next() opens nothing and reports nothing; next() is then done', async () => {
    const t = tracked([BYTES]);
    const ends: number[] = [];
    const it = readChatStream(t.body, { onEnd: (_e, n) => void ends.push(n) });
    assert.deepEqual(await it.return?.(), { value: undefined, done: true });
    assert.deepEqual(await it.next(), { value: undefined, done: true });
    assert.equal(t.pulls(), 0);
    assert.deepEqual(ends, []);
  });

  test('return() after a chunk closes the body and reports the early stop once', async () => {
    const t = tracked([BYTES]);
    const ends: Array<[string | undefined, number, boolean]> = [];
    const it = readChatStream(t.body, { onEnd: (e, n, complete) => void ends.push([e?.reason, n, complete]) });
    assert.equal((await it.next()).done, false);
    assert.deepEqual(await it.return?.(), { value: undefined, done: true });
    assert.deepEqual(await it.return?.(), { value: undefined, done: true });
    assert.equal(t.closed(), true);
    assert.deepEqual(ends, [[undefined, 1, false]]);
  });

  test('throw() after a chunk ends the stream with a partial typed error, closes the body, reports it once', async () => {
    const t = tracked([BYTES]);
    const ends: Array<string | undefined> = [];
    const it = readChatStream(t.body, { onEnd: (e) => void ends.push(e?.reason) });
    assert.equal((await it.next()).done, false);
    await assert.rejects(it.throw?.(new Error('consumer gave up')) ?? Promise.resolve(), (e: unknown) => e instanceof GatewayError && e.partial === true && e.reason === 'network');
    assert.deepEqual(await it.next(), { value: undefined, done: true });
    assert.equal(t.closed(), true);
    assert.deepEqual(ends, ['network']);
  });

  test('throw() before the first next() rejects with the given error and opens nothing', async () => {
    const t = tracked([BYTES]);
    const it = readChatStream(t.body);
    const given = new Error('early');
    await assert.rejects(it.throw?.(given) ?? Promise.resolve(), (e: unknown) => e === given);
    assert.equal(t.pulls(), 0);
  });

  test('[DONE] closes the body without reading past it', async () => {
    const t = tracked([BYTES, new TextEncoder().encode(`data: ${chunkJson('after')}\n\n`)]);
    const { items, error } = await drain(readChatStream(t.body));
    assert.equal(error, undefined);
    assert.deepEqual(contents(items), EXPECTED);
    assert.equal(t.pulls(), 1);
    assert.equal(t.closed(), true);
  });
});

describe('SSE over real HTTP', () => {
  const clients: GatewayClient[] = [];
  after(() => Promise.all(clients.map((c) => c.dispose())));

  test('[G-CHAT-2] a body written one byte at a time (flushed separately) gives the same chunks', async () => {
    const server = await startServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'sse-1' });
      res.flushHeaders();
      for (const b of BYTES) {
        res.write(Uint8Array.of(b));
        await new Promise((r) => setImmediate(r));
      }
      res.end();
    });
    try {
      const c = createGatewayClient({ baseUrl: server.url, getKey: async () => 'svc_pat_test_key_0000', userAgent: 't', clock: new VirtualClock(), env: {} });
      clients.push(c);
      const stream = await c.streamChatCompletion({ model: 'a/b', messages: [{ role: 'user', content: 'x' }] });
      assert.equal(stream.requestId, 'sse-1');
      const { items, error } = await drain(stream);
      assert.equal(error, undefined);
      assert.deepEqual(contents(items), EXPECTED);
      assert.equal(server.requests[0].headers.accept, 'text/event-stream');
    } finally {
      await server.close();
    }
  });

  test('a 200 that is not an event stream is a protocol error, not a silent empty stream', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'r2' });
      res.end('{}');
    });
    try {
      const c = createGatewayClient({ baseUrl: server.url, getKey: async () => 'svc_pat_test_key_0000', userAgent: 't', clock: new VirtualClock(), env: {} });
      clients.push(c);
      await assert.rejects(c.streamChatCompletion({ model: 'a/b', messages: [] }), { reason: 'protocol', requestId: 'r2' });
    } finally {
      await server.close();
    }
  });
});

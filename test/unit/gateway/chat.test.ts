import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChatCompletion, ChatCompletionChunk, ModelCatalog } from '../../../src/core/gateway/types';
import { chat, envelopeOf, readEvents, sseData, useGateway, userSays } from './helpers';

function chunksOf(text: string): { chunks: ChatCompletionChunk[]; last: string | undefined } {
  const data = sseData(text);
  return { chunks: data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d) as ChatCompletionChunk), last: data.at(-1) };
}

describe('local gateway: chat completions', () => {
  const gw = useGateway({ chunkSize: 7 });

  test('[G-CHAT-1] a whole completion is chat.completion with an assistant message, finish_reason stop and usage', async () => {
    const res = await chat(gw(), userSays('Explain `let`'));
    assert.equal(res.status, 200);
    const body = (await res.json()) as ChatCompletion;
    assert.equal(body.object, 'chat.completion');
    assert.equal(body.model, 'openai/gpt-5.1');
    assert.equal(typeof body.id, 'string');
    assert.ok(Number.isInteger(body.created));
    assert.equal(body.choices.length, 1);
    assert.equal(body.choices[0]?.message.role, 'assistant');
    assert.equal(body.choices[0]?.finish_reason, 'stop');
    const content = body.choices[0]?.message.content ?? '';
    assert.ok(content.includes('You said: "Explain `let`"'), 'quotes the last user message');
    assert.match(content, /```ts\n[\s\S]*\n```/, 'contains a fenced code block');
  });

  test('[G-CHAT-1] the reply is deterministic for the same request', async () => {
    const a = (await (await chat(gw(), userSays('same'))).json()) as ChatCompletion;
    const b = (await (await chat(gw(), userSays('same'))).json()) as ChatCompletion;
    assert.equal(a.choices[0]?.message.content, b.choices[0]?.message.content);
    assert.deepEqual(a.usage, b.usage);
  });

  test('[G-CHAT-2] a stream is chat.completion.chunk events ending with data: [DONE], same content as the whole reply', async () => {
    const whole = (await (await chat(gw(), userSays('stream me 🙂'))).json()) as ChatCompletion;
    const res = await chat(gw(), userSays('stream me 🙂', 'openai/gpt-5.1', { stream: true }));
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const text = await res.text();
    assert.ok(text.endsWith('data: [DONE]\n\n'));
    const { chunks, last } = chunksOf(text);
    assert.equal(last, '[DONE]');
    assert.ok(chunks.length > 3);
    for (const c of chunks) assert.equal(c.object, 'chat.completion.chunk');
    assert.equal(chunks[0]?.choices[0]?.delta.role, 'assistant');
    assert.equal(chunks.at(-1)?.choices[0]?.finish_reason, 'stop');
    const joined = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    assert.equal(joined, whole.choices[0]?.message.content);
    // chunkSize 7 code points: no content delta is longer.
    for (const c of chunks) assert.ok(Array.from(c.choices[0]?.delta.content ?? '').length <= 7);
  });

  test('the reply keeps a character outside the BMP, one a machine without a colour emoji font still draws (no missing-glyph box)', async () => {
    // Headless Chromium on a machine with DejaVu only (the sandbox, the journeys) drew 🙂 (U+1F642, Unicode 7)
    // as a box at the end of every reply; DejaVu Sans draws Unicode 6.0's emoticons, U+1F600 to U+1F640.
    const body = (await (await chat(gw(), userSays('hello'))).json()) as ChatCompletion;
    const astral = Array.from(body.choices[0]?.message.content ?? '').filter((c) => c.codePointAt(0)! > 0xffff);
    assert.ok(astral.length > 0, 'the reply still carries a surrogate pair through the stream');
    for (const c of astral) {
      const cp = c.codePointAt(0)!;
      assert.ok(cp >= 0x1f600 && cp <= 0x1f640, `U+${cp.toString(16).toUpperCase()} needs a colour emoji font`);
    }
  });

  test('[G-CHAT-2] chunk size is configurable at run time through the control endpoint', async () => {
    const set = await fetch(`${gw().url}/__control/config`, { method: 'POST', body: JSON.stringify({ chunkSize: 1000 }) });
    assert.equal(set.status, 200);
    try {
      const { chunks } = chunksOf(await (await chat(gw(), userSays('one piece', 'openai/gpt-5.1', { stream: true }))).text());
      assert.equal(chunks.filter((c) => (c.choices[0]?.delta.content ?? '') !== '').length, 1);
    } finally {
      gw().configure({ chunkSize: 7 });
    }
  });

  test('[G-CHAT-3] usage has every field; on reasoning models total_tokens exceeds prompt + completion', async () => {
    const { data } = (await (await fetch(`${gw().url}/v1/models`)).json()) as ModelCatalog;
    const reasoning = data.find((m) => m.capabilities?.includes('reasoning') && m.capabilities.includes('chat') && m.removal_date === undefined);
    const plain = data.find((m) => m.capabilities?.includes('chat') && !m.capabilities.includes('reasoning') && m.removal_date === undefined);
    assert.ok(reasoning && plain);
    const r = (await (await chat(gw(), userSays('think', reasoning.id))).json()) as ChatCompletion;
    const u = r.usage;
    assert.ok(u);
    const reasoningTokens = u.completion_tokens_details?.reasoning_tokens ?? 0;
    assert.ok(reasoningTokens > 0);
    assert.equal(u.total_tokens, u.prompt_tokens + u.completion_tokens + reasoningTokens);
    assert.ok(u.total_tokens > u.prompt_tokens + u.completion_tokens);
    const p = (await (await chat(gw(), userSays('think', plain.id))).json()) as ChatCompletion;
    assert.equal(p.usage?.completion_tokens_details?.reasoning_tokens, 0);
    assert.equal(p.usage?.total_tokens, (p.usage?.prompt_tokens ?? 0) + (p.usage?.completion_tokens ?? 0));
  });

  test('[G-CHAT-3] a stream carries usage (with reasoning tokens) on its final chunk', async () => {
    const { chunks } = chunksOf(await (await chat(gw(), userSays('think', 'deepseek/deepseek-reasoner', { stream: true }))).text());
    const withUsage = chunks.filter((c) => c.usage);
    assert.equal(withUsage.length, 1);
    assert.equal(withUsage[0], chunks.at(-1));
    assert.ok((withUsage[0]?.usage?.completion_tokens_details?.reasoning_tokens ?? 0) > 0);
  });

  test('[G-CHAT-4] [[moderate]] returns 403 content_policy_violation whose message names no filter or category', async () => {
    const res = await chat(gw(), userSays('please [[moderate]] this'));
    assert.equal(res.status, 403);
    const err = await envelopeOf(res);
    assert.equal(err.type, 'content_policy_violation');
    assert.doesNotMatch(err.message, /filter|categor|violence|hate|sexual|self-harm|moderate/i);
    const off = { ...userSays('please [[moderate]] this') };
    gw().configure({ moderation: false });
    try {
      assert.equal((await chat(gw(), off)).status, 200);
    } finally {
      gw().configure({ moderation: true });
    }
  });

  test('[G-ERR-5] missing model, missing messages, bad JSON and bad roles get 400 invalid_request_error', async () => {
    const cases: unknown[] = [{ messages: [{ role: 'user', content: 'x' }] }, { model: 'openai/gpt-5.1' }, { model: 'openai/gpt-5.1', messages: [] }, '{not json', { model: 'openai/gpt-5.1', messages: [{ role: 'robot', content: 'x' }] }];
    for (const body of cases) {
      const res = await chat(gw(), body as Record<string, unknown>);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal((await envelopeOf(res)).type, 'invalid_request_error');
    }
    const missing = await envelopeOf(await chat(gw(), { messages: [{ role: 'user', content: 'x' }] }));
    assert.match(missing.message, /model/);
  });

  test('[G-ERR-1] an unknown model gets a 404 envelope', async () => {
    const res = await chat(gw(), userSays('hi', 'nobody/nothing'));
    assert.equal(res.status, 404);
    assert.equal((await envelopeOf(res)).type, 'not_found_error');
  });

  test('the chat request is logged for tests, including whether a temperature was sent', async () => {
    gw().events.clear();
    await (await chat(gw(), userSays('hi', 'openai/gpt-4.1', { temperature: 0.5 }))).arrayBuffer();
    await (await chat(gw(), userSays('hi', 'openai/gpt-4.1'))).arrayBuffer();
    const logged = gw().events.list('chat-request');
    assert.deepEqual(
      logged.map((e) => [e.model, e.hasTemperature, e.temperature]),
      [
        ['openai/gpt-4.1', true, 0.5],
        ['openai/gpt-4.1', false, undefined],
      ],
    );
  });

  test('closing the connection mid-stream is recorded as client-closed-stream with the request id', async () => {
    gw().configure({ chunkDelayMs: 20 });
    try {
      const abort = new AbortController();
      const res = await chat(gw(), userSays('long', 'openai/gpt-5.1', { stream: true }), undefined, abort.signal);
      const requestId = res.headers.get('x-request-id') ?? '';
      const first = await readEvents(res, 2);
      assert.equal(first.length >= 2, true);
      abort.abort();
      const ev = await gw().events.waitFor('client-closed-stream', (e) => e.requestId === requestId);
      assert.ok(typeof ev.chunksSent === 'number' && ev.chunksSent >= 2);
    } finally {
      gw().configure({ chunkDelayMs: 0 });
    }
  });

  test('a disconnect fault cuts the stream after afterChunks chunks, without [DONE]', async () => {
    gw().faults.add({ kind: 'disconnect', route: '/v1/chat/completions', afterChunks: 3 });
    const res = await chat(gw(), userSays('cut', 'openai/gpt-5.1', { stream: true }));
    assert.equal(res.status, 200);
    const received: string[] = [];
    const reader = res.body?.getReader();
    assert.ok(reader);
    const decoder = new TextDecoder();
    let text = '';
    await assert.rejects(async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
    });
    received.push(...sseData(text));
    assert.equal(received.length, 3);
    assert.ok(!received.includes('[DONE]'));
    // Only the next request was affected.
    assert.ok((await (await chat(gw(), userSays('whole', 'openai/gpt-5.1', { stream: true }))).text()).endsWith('data: [DONE]\n\n'));
  });

  test('[[fault:disconnect]] on a whole request resets the connection before any response', async () => {
    await assert.rejects(chat(gw(), userSays('x [[fault:disconnect]]')));
  });

  test('a stall fault stops sending mid-stream until the client leaves', async () => {
    gw().faults.add({ kind: 'stall', route: '/v1/chat/completions', afterChunks: 2 });
    const abort = new AbortController();
    const res = await chat(gw(), userSays('stall', 'openai/gpt-5.1', { stream: true }), undefined, abort.signal);
    const requestId = res.headers.get('x-request-id') ?? '';
    const events = await readEvents(res, 2);
    assert.equal(events.length, 2);
    await gw().events.waitFor('fault', (e) => e.requestId === requestId && e.kind === 'stall');
    abort.abort();
    const closed = await gw().events.waitFor('client-closed-stream', (e) => e.requestId === requestId);
    assert.equal(closed.chunksSent, 2, 'nothing was sent after the stall began');
  });

  test('[[fault:stall]] with a finite stallMs pauses, then finishes the stream normally', async () => {
    gw().configure({ stallMs: 30 });
    try {
      const text = await (await chat(gw(), userSays('[[fault:stall]]', 'openai/gpt-5.1', { stream: true }))).text();
      assert.ok(text.endsWith('data: [DONE]\n\n'));
    } finally {
      gw().configure({ stallMs: 0 });
    }
  });

  test('[G-ERR-3] [[fault:429]] answers an HTML 429; [G-ERR-4] [[fault:503]] a 503 envelope with Retry-After', async () => {
    const throttled = await chat(gw(), userSays('[[fault:429]]'));
    assert.equal(throttled.status, 429);
    assert.match(throttled.headers.get('content-type') ?? '', /^text\/html/);
    const html = await throttled.text();
    assert.match(html, /^<!DOCTYPE html>/);
    assert.throws(() => JSON.parse(html) as unknown, 'the body is not JSON');
    const unavailable = await chat(gw(), userSays('[[fault:503]]'));
    assert.equal(unavailable.status, 503);
    assert.equal(unavailable.headers.get('retry-after'), '1');
    assert.equal((await envelopeOf(unavailable)).code, 503);
  });

  test('[[slow]] streams with slowChunkDelayMs between chunks; other requests use chunkDelayMs', async () => {
    gw().configure({ slowChunkDelayMs: 5 });
    try {
      const slow = await chat(gw(), userSays('take it [[slow]]', 'openai/gpt-5.1', { stream: true }));
      const slowId = slow.headers.get('x-request-id');
      assert.ok((await slow.text()).endsWith('data: [DONE]\n\n'));
      const normal = await chat(gw(), userSays('quick', 'openai/gpt-5.1', { stream: true }));
      const normalId = normal.headers.get('x-request-id');
      await normal.text();
      const streams = gw().events.list('chat-stream');
      assert.equal(streams.find((e) => e.requestId === slowId)?.chunkDelayMs, 5);
      assert.equal(streams.find((e) => e.requestId === normalId)?.chunkDelayMs, 0);
    } finally {
      gw().configure({ slowChunkDelayMs: 200 });
    }
  });
});

describe('local gateway: chat content parts (the alt-text fallback shape)', () => {
  const gw = useGateway();
  const withParts = (content: unknown, extra: Record<string, unknown> = {}) => ({ model: 'openai/gpt-5.1', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content }], ...extra });
  const IMAGE = { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } };

  test('a user message of text and image_url parts is answered from its text parts and acknowledges the images', async () => {
    const res = await chat(gw(), withParts([{ type: 'text', text: 'Write the alt text.' }, IMAGE, { type: 'text', text: 'Next to: Our cat' }, { type: 'image_url', image_url: { url: 'https://x.test/c.png' } }]));
    assert.equal(res.status, 200);
    const content = ((await res.json()) as ChatCompletion).choices[0]?.message.content ?? '';
    assert.ok(content.includes('You said: "Write the alt text.\nNext to: Our cat"'), content);
    assert.match(content, /^- images: 2$/m);
    // String content gets no images line.
    const plain = ((await (await chat(gw(), userSays('no pictures'))).json()) as ChatCompletion).choices[0]?.message.content ?? '';
    assert.doesNotMatch(plain, /images:/);
  });

  test('content parts stream the same reply, and markers in text parts still fire', async () => {
    const whole = ((await (await chat(gw(), withParts([{ type: 'text', text: 'describe' }, IMAGE]))).json()) as ChatCompletion).choices[0]?.message.content;
    const streamed = await chat(gw(), withParts([{ type: 'text', text: 'describe' }, IMAGE], { stream: true }));
    const joined = sseData(await streamed.text())
      .filter((d) => d !== '[DONE]')
      .map((d) => (JSON.parse(d) as ChatCompletionChunk).choices[0]?.delta.content ?? '')
      .join('');
    assert.equal(joined, whole);
    const moderated = await chat(gw(), withParts([IMAGE, { type: 'text', text: '[[moderate]]' }]));
    assert.equal(moderated.status, 403);
  });

  test('[G-ERR-5] malformed content parts get a 400 naming the part; parts are refused outside user messages', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [[], /messages\[1\]\.content must not be an empty array/],
      [[{ type: 'text' }], /messages\[1\]\.content\[0\]\.text must be a string/],
      [[{ type: 'text', text: 'x' }, { type: 'image_url', image_url: { url: 'file:///etc/passwd' } }], /messages\[1\]\.content\[1\]\.image_url\.url must be an http\(s\) or data: URL/],
      [[{ type: 'image_url' }], /messages\[1\]\.content\[0\]\.image_url\.url/],
      [[{ type: 'audio', audio: {} }], /messages\[1\]\.content\[0\]\.type must be text or image_url/],
      [['just a string in an array'], /messages\[1\]\.content\[0\] must be an object/],
      [42, /messages\[1\]\.content must be a string or an array of content parts/],
    ];
    for (const [content, message] of cases) {
      const res = await chat(gw(), withParts(content));
      assert.equal(res.status, 400, JSON.stringify(content));
      const error = await envelopeOf(res);
      assert.equal(error.type, 'invalid_request_error');
      assert.match(error.message, message);
    }
    const system = await chat(gw(), { model: 'openai/gpt-5.1', messages: [{ role: 'system', content: [{ type: 'text', text: 'x' }] }, { role: 'user', content: 'hi' }] });
    assert.equal(system.status, 400);
    assert.match((await envelopeOf(system)).message, /messages\[0\]\.content must be a string$/);
  });
});

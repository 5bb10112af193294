/**
 * The local gateway's wire faults (test/localGateway/faults.ts) on their own: each does to the bytes on
 * the wire what context.ts says, on any route, and each can be armed through /__control/faults.
 * Bodies are read raw (node:http), so what is checked is what a client would receive.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, test } from 'node:test';
import type { RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS, useGateway } from '../gateway/helpers';

interface Raw {
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The connection broke (reset, or destroyed after a stall). */
  broken: boolean;
}

/** One request with node:http; resolves with whatever arrived, never rejects. */
function raw(gw: RunningGateway, method: string, path: string, body?: unknown): Promise<Raw> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const out: Raw = { body: Buffer.alloc(0), broken: false };
    const done = (broken: boolean): void => {
      out.body = Buffer.concat(chunks);
      out.broken = broken;
      resolve(out);
    };
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(`${gw.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${LOCAL_KEYS.userFull}`, ...(text !== undefined ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) } : {}) },
    });
    req.on('response', (res) => {
      out.status = res.statusCode;
      out.headers = res.headers;
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(false));
      res.on('error', () => done(true));
      res.on('aborted', () => done(true));
    });
    req.on('error', () => done(true));
    req.end(text);
  });
}

const STREAM = { model: 'openai/gpt-5.1', messages: [{ role: 'user', content: 'tell me a fairly long story please' }], stream: true };
const WHOLE = { ...STREAM, stream: false };

function events(body: Buffer): string[] {
  return body
    .toString('utf8')
    .split('\n\n')
    .filter((e) => e !== '');
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('local gateway: wire faults on any route', () => {
  const gw = useGateway({ chunkSize: 5 });

  test('reset_before_headers: the connection drops with no response, and the handler never ran', async () => {
    gw().reset();
    gw().faults.add({ kind: 'reset_before_headers', route: '/v1/chat/completions' });
    const r = await raw(gw(), 'POST', '/v1/chat/completions', WHOLE);
    assert.equal(r.broken, true);
    assert.equal(r.status, undefined);
    assert.equal(gw().events.list('chat-request').length, 0);
    assert.deepEqual(
      gw().events.list('fault').map((e) => e.kind),
      ['reset_before_headers'],
    );
  });

  test('reset_after_body: the body is read, then the connection drops with no response', async () => {
    gw().reset();
    gw().faults.add({ kind: 'reset_after_body', route: '/v1/images/alt-text' });
    const r = await raw(gw(), 'POST', '/v1/images/alt-text', { image_url: 'https://x.test/a.png' });
    assert.equal(r.broken, true);
    assert.equal(r.status, undefined);
    const [logged] = gw().events.list('request');
    assert.equal(logged?.path, '/v1/images/alt-text');
    assert.equal(logged?.status, 0);
  });

  test('stall_before_headers: nothing at all is sent until stallMs passes, then the connection drops', async () => {
    gw().reset();
    gw().configure({ stallMs: 50 });
    gw().faults.add({ kind: 'stall_before_headers', route: '/v1/models' });
    const r = await raw(gw(), 'GET', '/v1/models');
    assert.equal(r.broken, true);
    assert.equal(r.status, undefined);
  });

  test('stall_mid_body: a JSON body stops half way (headers sent, no Content-Length), then the connection drops', async () => {
    gw().reset();
    const full = await raw(gw(), 'GET', '/v1/models');
    gw().configure({ stallMs: 50 });
    gw().faults.add({ kind: 'stall_mid_body', route: '/v1/models' });
    const r = await raw(gw(), 'GET', '/v1/models');
    assert.equal(r.status, 200);
    assert.equal(r.headers?.['content-length'], undefined);
    assert.equal(r.broken, true);
    assert.ok(r.body.length > 0 && r.body.length < full.body.length);
    assert.ok(full.body.subarray(0, r.body.length).equals(r.body), 'what arrived is the start of the real body');
  });

  test('stall_mid_body: a stream stops after afterChunks events', async () => {
    gw().reset();
    gw().configure({ stallMs: 50 });
    gw().faults.add({ kind: 'stall_mid_body', route: '/v1/chat/completions', afterChunks: 3 });
    const r = await raw(gw(), 'POST', '/v1/chat/completions', STREAM);
    assert.equal(r.broken, true);
    assert.equal(events(r.body).length, 3);
  });

  test('malformed_json: a JSON body is cut in half and no longer parses; an event stream gets one bad event', async () => {
    gw().reset();
    gw().faults.add({ kind: 'malformed_json', route: '/hosting/*' });
    const hosting = await raw(gw(), 'GET', '/hosting/v1/installs/1f2e3d4c-5b6a-4978-8695-a4b3c2d1e005/cache_exclusions');
    assert.equal(hosting.broken, false);
    assert.equal(parses(hosting.body.toString('utf8')), false);
    gw().faults.add({ kind: 'malformed_json', route: '/v1/chat/completions' });
    const r = await raw(gw(), 'POST', '/v1/chat/completions', STREAM);
    const data = events(r.body).map((e) => e.replace(/^data: /, ''));
    assert.equal(parses(data[0] ?? ''), false);
    assert.ok(data.slice(1, -1).every(parses), 'only the first event is damaged');
    assert.equal(data.at(-1), '[DONE]');
  });

  test('truncated_event: event number afterChunks is cut in half and the stream ends cleanly without [DONE]', async () => {
    gw().reset();
    gw().faults.add({ kind: 'truncated_event', route: '/v1/chat/completions', afterChunks: 2 });
    const r = await raw(gw(), 'POST', '/v1/chat/completions', STREAM);
    assert.equal(r.broken, false);
    const text = r.body.toString('utf8');
    assert.equal(text.includes('[DONE]'), false);
    const parts = text.split('\n\n');
    assert.equal(parts.length, 3, 'two whole events and a tail with no terminator');
    assert.ok(parts.slice(0, 2).every((e) => parses(e.replace(/^data: /, ''))));
    assert.equal(parses(parts[2].replace(/^data: /, '')), false);
  });

  test('no_done: every event arrives whole, the [DONE] event is dropped', async () => {
    gw().reset();
    const full = events((await raw(gw(), 'POST', '/v1/chat/completions', STREAM)).body);
    gw().faults.add({ kind: 'no_done', route: '/v1/chat/completions' });
    const r = await raw(gw(), 'POST', '/v1/chat/completions', STREAM);
    const got = events(r.body);
    assert.equal(r.broken, false);
    assert.equal(got.length, full.length - 1);
    assert.equal(full.at(-1), 'data: [DONE]');
    assert.ok(got.every((e) => parses(e.replace(/^data: /, ''))));
  });

  test('invalid_utf8: the bytes C3 28 FF appear inside a JSON string, on a JSON route and in a stream', async () => {
    gw().reset();
    gw().faults.add({ kind: 'invalid_utf8', route: '/v1/models' });
    const r = await raw(gw(), 'GET', '/v1/models');
    assert.notEqual(r.body.indexOf(Buffer.from([0xc3, 0x28, 0xff])), -1);
    assert.throws(() => new TextDecoder('utf-8', { fatal: true }).decode(r.body));
    gw().faults.add({ kind: 'invalid_utf8', route: '/v1/chat/completions', afterChunks: 2 });
    const s = await raw(gw(), 'POST', '/v1/chat/completions', STREAM);
    const at = s.body.indexOf(Buffer.from([0xc3, 0x28, 0xff]));
    assert.notEqual(at, -1);
    assert.ok(s.body.subarray(0, at).toString('utf8').endsWith('"content":"'), 'inside the content string');
  });

  test('oversized_event: one event of `bytes` bytes without a newline, then the normal stream', async () => {
    gw().reset();
    gw().faults.add({ kind: 'oversized_event', route: '/v1/chat/completions', afterChunks: 1, bytes: 200_000 });
    const r = await raw(gw(), 'POST', '/v1/chat/completions', STREAM);
    const got = events(r.body);
    assert.ok(got[1].length > 200_000 && !got[1].slice(0, -1).includes('\n'));
    assert.equal(got.at(-1), 'data: [DONE]');
    gw().faults.add({ kind: 'oversized_event', route: '/v1/models', bytes: 100_000 });
    const j = await raw(gw(), 'GET', '/v1/models');
    const wrapped = JSON.parse(j.body.toString('utf8')) as { pad: string; body: { object: string } };
    assert.equal(wrapped.pad.length, 100_000);
    assert.equal(wrapped.body.object, 'list');
  });

  test('stream-only faults leave a JSON body as it was', async () => {
    gw().reset();
    const full = await raw(gw(), 'GET', '/v1/models');
    for (const kind of ['truncated_event', 'no_done'] as const) {
      gw().faults.add({ kind, route: '/v1/models' });
      const r = await raw(gw(), 'GET', '/v1/models');
      assert.equal(r.body.toString('utf8'), full.body.toString('utf8'), kind);
    }
  });

  test('the wire faults can be armed through POST /__control/faults, with bytes; bad input is refused', async () => {
    gw().reset();
    const arm = await fetch(`${gw().url}/__control/faults`, {
      method: 'POST',
      body: JSON.stringify([
        { kind: 'no_done', route: '/v1/chat/completions', count: 'infinite' },
        { kind: 'oversized_event', route: '/v1/mcp', bytes: 1024 },
      ]),
    });
    assert.equal(arm.status, 200);
    const listed = (await (await fetch(`${gw().url}/__control/faults`)).json()) as { faults: Array<{ kind: string; bytes?: number }> };
    assert.deepEqual(
      listed.faults.map((f) => [f.kind, f.bytes]),
      [
        ['no_done', undefined],
        ['oversized_event', 1024],
      ],
    );
    const r = await raw(gw(), 'POST', '/v1/chat/completions', STREAM);
    assert.equal(r.body.toString('utf8').includes('[DONE]'), false);
    const bad = await fetch(`${gw().url}/__control/faults`, { method: 'POST', body: JSON.stringify({ kind: 'oversized_event', bytes: -1 }) });
    assert.equal(bad.status, 400);
  });
});

/**
 * The content operations against the local gateway (real HTTP through the shared client): the
 * dedicated endpoints, the 404/405 chat fallback, the context-window pre-check and the scopes
 * (G-AUTH-7). The wire mappers are also checked on their own.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { setContentEndpointMissing } from '../../localGateway/content';
import { createGatewayClient, type GatewayClient } from '../../../src/core/gateway/gatewayClient';
import type { CallOptions, IGatewayClient, JsonResponse } from '../../../src/core/gateway/api';
import { generateAltText, suggestTaxonomy, summarize, type ContentDeps } from '../../../src/core/content/contentClient';
import { isContentError } from '../../../src/core/content/contentErrors';
import { isGatewayError, GatewayError } from '../../../src/core/http/errors';
import {
  fromAltTextResponse,
  fromSummarizeResponse,
  fromTaxonomyResponse,
  toAltTextRequest,
  toSummarizeRequest,
  toTaxonomyRequest,
} from '../../../src/core/content/wire';
import { parseAltTextAnswer, parseSummaryAnswer, parseTaxonomyAnswer } from '../../../src/core/content/chatFallback';
import { estimateTokens } from '../../../src/core/content/contextWindow';
import type { Logger } from '../../../src/core/log';

const SUMMARY_MODEL = { id: 'openai/gpt-5.1', context_window: 400000 };
const ALT_MODEL = { id: 'anthropic/claude-haiku-4.5' };

class Lines implements Logger {
  readonly lines: string[] = [];
  trace(m: string) {
    this.lines.push(m);
  }
  debug(m: string) {
    this.lines.push(m);
  }
  info(m: string) {
    this.lines.push(m);
  }
  warn(m: string) {
    this.lines.push(m);
  }
  error(m: string) {
    this.lines.push(m);
  }
}

let gw: RunningGateway;
const clients: GatewayClient[] = [];

function deps(key: string, model: ContentDeps['model'], signal?: AbortSignal): ContentDeps & { log: Lines } {
  const client = createGatewayClient({ baseUrl: () => gw.url, getKey: async () => key, userAgent: 'content-test', env: {}, retry: { maxAttempts: 1 } });
  clients.push(client);
  return { client, log: new Lines(), model, signal };
}

function requests(path: string) {
  return gw.events.list('request').filter((e) => e.path === path);
}

before(async () => {
  gw = await startGateway();
});
beforeEach(() => {
  gw.reset();
  for (const e of ['altText', 'summarize', 'suggestTaxonomy'] as const) setContentEndpointMissing(gw, e, undefined);
});
after(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await gw.close();
});

describe('wire mappers', () => {
  test('requests carry only the fields that are set', () => {
    assert.deepEqual(toAltTextRequest({ image: { kind: 'url', url: 'https://x.test/a.png' } }), { image_url: 'https://x.test/a.png' });
    assert.deepEqual(toAltTextRequest({ image: { kind: 'bytes', mediaType: 'image/png', base64: 'AAAA' }, model: 'm', context: 'c', language: 'en' }), {
      image_url: 'data:image/png;base64,AAAA',
      model: 'm',
      context: 'c',
      language: 'en',
    });
    assert.deepEqual(toSummarizeRequest({ text: 'T', model: 'm' }), { text: 'T', model: 'm' });
    assert.deepEqual(toTaxonomyRequest({ text: 'T' }), { text: 'T' });
    assert.deepEqual(toTaxonomyRequest({ text: 'T', existingTags: ['a'] }), { text: 'T', existing: { categories: [], tags: ['a'] } });
  });

  test('responses are read, trimmed and de-duplicated', () => {
    assert.deepEqual(fromAltTextResponse({ alt_text: '  A dog. ' }), { altText: 'A dog.' });
    assert.deepEqual(fromSummarizeResponse({ summary: 'S', extra: 1 }), { summary: 'S' });
    assert.deepEqual(fromTaxonomyResponse({ categories: ['News', ' news ', ''], tags: ['a', 'A', 'b'] }), { categories: ['News'], tags: ['a', 'b'] });
    assert.deepEqual(fromTaxonomyResponse({ tags: ['x'] }), { categories: [], tags: ['x'] });
  });

  test('a response of the wrong shape is a protocol error carrying the request id', () => {
    for (const bad of [() => fromAltTextResponse({ alt: 'x' }, 'rid'), () => fromSummarizeResponse({ summary: '  ' }, 'rid'), () => fromTaxonomyResponse({ tags: 'a,b' }, 'rid')]) {
      assert.throws(bad, (e: unknown) => isGatewayError(e) && e.reason === 'protocol' && e.requestId === 'rid');
    }
  });

  test('chat answers of the fallback are parsed out of the usual chatter', () => {
    assert.equal(parseAltTextAnswer('**Alt text:** "A red\n bicycle against a wall."'), 'A red bicycle against a wall.');
    assert.equal(parseSummaryAnswer('**Summary:**\nThe post explains X.'), 'The post explains X.');
    assert.deepEqual(parseTaxonomyAnswer('```json\n{"categories":["Travel"],"tags":["rome","food","Rome"]}\n```'), { categories: ['Travel'], tags: ['rome', 'food'] });
    assert.deepEqual(parseTaxonomyAnswer('Categories: Travel, Food\nTags: #rome; pasta'), { categories: ['Travel', 'Food'], tags: ['rome', 'pasta'] });
    assert.throws(() => parseTaxonomyAnswer('I cannot help with that.'), (e: unknown) => isGatewayError(e) && e.reason === 'protocol');
  });
});

describe('dedicated endpoints on the local gateway', () => {
  test('summarize sends the model and returns the summary', async () => {
    const d = deps(LOCAL_KEYS.userFull, SUMMARY_MODEL);
    const out = await summarize(d, { text: 'Rome in spring is lovely. More text follows here.' });
    assert.equal(out.via, 'endpoint');
    assert.equal(out.result.summary, 'Summary: Rome in spring is lovely. (9 words)');
    assert.ok(out.requestId);
    const ev = gw.events.list('content-request');
    assert.equal(ev.length, 1);
    assert.equal(ev[0].model, SUMMARY_MODEL.id);
  });

  test('suggest-taxonomy returns categories and tags', async () => {
    const out = await suggestTaxonomy(deps(LOCAL_KEYS.userFull, SUMMARY_MODEL), { text: 'Pasta recipes: pasta with tomato, pasta with basil, tomato salad.' });
    assert.deepEqual(out.result, { categories: ['Pasta', 'Tomato'], tags: ['pasta', 'tomato', 'recipes', 'basil', 'salad'] });
  });

  test('alt-text accepts an inline image and a remote URL', async () => {
    const d = deps(LOCAL_KEYS.userFull, ALT_MODEL);
    // A real PNG signature: generateAltText sends only bytes that are an accepted image.
    const inline = await generateAltText(d, { image: { kind: 'bytes', mediaType: 'image/png', base64: Buffer.from('89504e470d0a1a0a', 'hex').toString('base64') } });
    assert.equal(inline.result.altText, 'Local "test" image: inline image/png [8 bytes]');
    const remote = await generateAltText(d, { image: { kind: 'url', url: 'https://cdn.test/img/cat.jpg?x=1' } });
    assert.equal(remote.result.altText, 'Local "test" image: cat.jpg [remote]');
  });
});

describe('fallback to a chat completion when the endpoint is missing', () => {
  for (const status of [404, 405] as const) {
    test(`summarize answering ${status} falls back to the default summary model and says so in the log`, async () => {
      setContentEndpointMissing(gw, 'summarize', status);
      const d = deps(LOCAL_KEYS.userFull, SUMMARY_MODEL);
      const out = await summarize(d, { text: 'A post about gardens.' });
      assert.equal(out.via, 'chat');
      // The local chat model quotes the last user message: the prompt wrapped around our text.
      assert.match(out.result.summary, /A post about gardens\./);
      const chats = requests('/v1/chat/completions');
      assert.equal(chats.length, 1);
      assert.equal(gw.events.list('chat-request')[0].model, SUMMARY_MODEL.id);
      assert.equal(requests('/v1/content/summarize')[0].status, status);
      assert.ok(d.log.lines.some((l) => l.includes('/v1/content/summarize answered HTTP ' + status) && l.includes(SUMMARY_MODEL.id)), d.log.lines.join('\n'));
    });
  }

  test('[#33.3] the fallback on a messages-only default model goes to POST /v1/messages and reads the answer the same way', async () => {
    setContentEndpointMissing(gw, 'summarize', 404);
    const model = { id: 'anthropic/claude-sonnet-4', capabilities: ['messages', 'tools', 'vision'], max_output_tokens: 16000 };
    const out = await summarize(deps(LOCAL_KEYS.userFull, model), { text: 'A post about roses.' });
    assert.equal(out.via, 'chat');
    assert.match(out.result.summary, /A post about roses\./);
    assert.equal(requests('/v1/messages').length, 1);
    assert.equal(requests('/v1/chat/completions').length, 0);
    assert.equal(gw.events.list('messages-request')[0]?.model, model.id);
  });

  test('suggest-taxonomy answering 404 (marker) falls back and parses the JSON the chat model returns', async () => {
    // The local chat model echoes the user message, which here holds the JSON a real model would write.
    const text = '[[content:404]] {"categories":["Gardening"],"tags":["roses","soil"]}';
    const d = deps(LOCAL_KEYS.userFull, SUMMARY_MODEL);
    const out = await suggestTaxonomy(d, { text });
    assert.equal(out.via, 'chat');
    assert.deepEqual(out.result, { categories: ['Gardening'], tags: ['roses', 'soil'] });
    assert.equal(requests('/v1/content/suggest-taxonomy')[0].status, 404);
  });

  test('without a default model the fallback is refused with a clear message and no chat call', async () => {
    setContentEndpointMissing(gw, 'summarize', 404);
    await assert.rejects(summarize(deps(LOCAL_KEYS.userFull, undefined), { text: 'x' }), (e: unknown) => isContentError(e) && e.kind === 'no_model' && /no default summary model/.test(e.message));
    assert.equal(requests('/v1/chat/completions').length, 0);
  });

  test('other failures are not masked by the fallback (400 stays 400)', async () => {
    await assert.rejects(
      summarize(deps(LOCAL_KEYS.userFull, { id: 'no/such-model' }), { text: 'x' }),
      (e: unknown) => isGatewayError(e) && e.reason === 'invalid_request',
    );
    assert.equal(requests('/v1/chat/completions').length, 0);
  });

  test('the alt-text fallback sends the image as a content part to the default alt-text model', async () => {
    // A recording client: checks the exact vision request shape (the local gateway's answer to it is
    // covered by the end-to-end test below).
    const calls: Array<{ path: string; body: unknown; route?: string }> = [];
    const client: IGatewayClient = {
      async postJson<T>(path: string, body: unknown, _o?: CallOptions): Promise<JsonResponse<T>> {
        calls.push({ path, body });
        throw new GatewayError({ reason: 'method_not_allowed', status: 405, message: 'nope' });
      },
      async createChatCompletion(body: unknown, o?: CallOptions) {
        calls.push({ path: '/v1/chat/completions', body, route: o?.route?.kind });
        const completion = { id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: '"A cat."' }, finish_reason: 'stop' }] };
        return { data: completion as never, status: 200, requestId: 'r2' };
      },
      listModels: () => Promise.reject(new Error('unused')),
      getModelSchema: () => Promise.reject(new Error('unused')),
      streamChatCompletion: () => Promise.reject(new Error('unused')),
      getJson: () => Promise.reject(new Error('unused')),
    };
    const log = new Lines();
    const out = await generateAltText({ client, log, model: ALT_MODEL }, { image: { kind: 'url', url: 'https://x.test/c.png' }, context: 'Our cat' });
    assert.deepEqual(out, {
      result: { altText: 'A cat.' },
      via: 'chat',
      requestId: 'r2',
      fallback: `Made through a chat request to ${ALT_MODEL.id} instead: this gateway has no route POST /v1/images/alt-text (HTTP 405).`,
    });
    assert.equal(calls[1].path, '/v1/chat/completions');
    assert.equal(calls[1].route, 'chat', 'through the one route decision');
    const body = calls[1].body as { model: string; messages: Array<{ role: string; content: unknown }> };
    assert.equal(body.model, ALT_MODEL.id);
    assert.deepEqual((body.messages[1].content as unknown[])[1], { type: 'image_url', image_url: { url: 'https://x.test/c.png' } });
    assert.ok(log.lines.some((l) => l.includes('405') && l.includes('falling back')));
  });

  test('bytes that are not an image are refused before anything is sent, on the endpoint and the chat fallback', async () => {
    for (const missing of [undefined, 404] as const) {
      setContentEndpointMissing(gw, 'altText', missing);
      gw.reset();
      const d = deps(LOCAL_KEYS.userFull, ALT_MODEL);
      const image = { kind: 'bytes', mediaType: 'image/png', base64: Buffer.from('HOME=/root\u0000AWS_SECRET=x').toString('base64') } as const;
      await assert.rejects(generateAltText(d, { image }), (e: unknown) => isContentError(e) && e.kind === 'not_an_image');
      assert.equal(gw.events.list('request').length, 0);
    }
  });

  for (const [status, image] of [
    [404, { kind: 'url', url: 'https://x.test/c.png' }],
    [405, { kind: 'bytes', mediaType: 'image/png', base64: 'iVBORw0KGgo=' }],
  ] as const) {
    test(`the alt-text fallback works end to end: alt-text endpoint ${status}, chat with content parts answers (${image.kind} image)`, async () => {
      setContentEndpointMissing(gw, 'altText', status);
      const d = deps(LOCAL_KEYS.userFull, ALT_MODEL);
      const out = await generateAltText(d, { image, context: 'Our cat on the sofa' });
      assert.equal(out.via, 'chat');
      assert.equal(typeof out.requestId, 'string');
      // The local chat model quotes the text parts of the prompt and acknowledges the one image part.
      assert.match(out.result.altText, /Our cat on the sofa/);
      assert.match(out.result.altText, /- images: 1/);
      assert.equal(requests('/v1/images/alt-text')[0].status, status);
      const chats = requests('/v1/chat/completions');
      assert.equal(chats.length, 1);
      assert.equal(chats[0].status, 200);
      assert.equal(gw.events.list('chat-request')[0].model, ALT_MODEL.id);
      assert.ok(d.log.lines.some((l) => l.includes(`answered HTTP ${status}`) && l.includes(ALT_MODEL.id)), d.log.lines.join('\n'));
    });
  }
});

describe('context window pre-check', () => {
  test('an input over the context window is refused before anything is sent', async () => {
    const text = 'word '.repeat(2000);
    assert.ok(estimateTokens(text) > 1000);
    await assert.rejects(summarize(deps(LOCAL_KEYS.userFull, { id: 'small/model', context_window: 1000 }), { text }), (e: unknown) => isContentError(e) && e.kind === 'input_too_long' && /context window is 1,000 tokens/.test(e.message));
    await assert.rejects(suggestTaxonomy(deps(LOCAL_KEYS.userFull, { id: 'small/model', context_window: 1000 }), { text }), (e: unknown) => isContentError(e) && e.kind === 'input_too_long');
    assert.equal(gw.events.list('request').length, 0);
  });

  test('empty input is refused too', async () => {
    await assert.rejects(summarize(deps(LOCAL_KEYS.userFull, SUMMARY_MODEL), { text: ' \n ' }), (e: unknown) => isContentError(e) && e.kind === 'empty_input');
  });
});

describe('scopes of the content endpoints', () => {
  test('[G-AUTH-7] alt-text needs image write: the chat-only Restricted key gets 403 naming the image scope', async () => {
    const err = await generateAltText(deps(LOCAL_KEYS.userChatOnly, ALT_MODEL), { image: { kind: 'url', url: 'https://x.test/a.png' } }).then(
      () => assert.fail('expected a 403'),
      (e: unknown) => e,
    );
    assert.ok(isGatewayError(err));
    assert.equal(err.reason, 'permission');
    assert.equal(err.status, 403);
    assert.equal(err.permission?.scope, 'image');
    assert.equal(err.permission?.required, 'write');
    assert.equal(err.permission?.granted, 'none');
    assert.equal(requests('/v1/chat/completions').length, 0, 'a 403 is not a reason to fall back');
  });

  test('[G-AUTH-7] summarize and suggest-taxonomy need chat write: the chat-only key may, the read-only key may not', async () => {
    const ok = await summarize(deps(LOCAL_KEYS.userChatOnly, SUMMARY_MODEL), { text: 'Chat scope suffices.' });
    assert.equal(ok.via, 'endpoint');
    const ok2 = await suggestTaxonomy(deps(LOCAL_KEYS.userChatOnly, SUMMARY_MODEL), { text: 'Chat scope suffices for taxonomy too.' });
    assert.equal(ok2.via, 'endpoint');
    for (const run of [
      () => summarize(deps(LOCAL_KEYS.userReadOnly, SUMMARY_MODEL), { text: 'x' }),
      () => suggestTaxonomy(deps(LOCAL_KEYS.userReadOnly, SUMMARY_MODEL), { text: 'x' }),
    ]) {
      await assert.rejects(run(), (e: unknown) => isGatewayError(e) && e.reason === 'permission' && e.permission?.scope === 'chat' && e.permission?.required === 'write' && e.permission?.granted === 'read');
    }
  });

  test('[G-AUTH-7] alt-text with image write (Full access) succeeds, with image read (Read only) gets 403', async () => {
    const ok = await generateAltText(deps(LOCAL_KEYS.userFull, ALT_MODEL), { image: { kind: 'url', url: 'https://x.test/a.png' } });
    assert.equal(ok.via, 'endpoint');
    await assert.rejects(
      generateAltText(deps(LOCAL_KEYS.userReadOnly, ALT_MODEL), { image: { kind: 'url', url: 'https://x.test/a.png' } }),
      (e: unknown) => isGatewayError(e) && e.permission?.scope === 'image' && e.permission?.granted === 'read',
    );
  });

  test('cancelling aborts the request with reason aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(summarize(deps(LOCAL_KEYS.userFull, SUMMARY_MODEL, ac.signal), { text: 'x' }), (e: unknown) => isGatewayError(e) && e.reason === 'aborted');
  });
});

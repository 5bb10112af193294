/**
 * [#39.10] The chat fallback of the content commands runs only when the route itself is missing on the
 * gateway, and says so; a 404 that means something else (the local gateway's `model_404` mode: a 404
 * envelope "model '…' not found") is a clear error and sends nothing more.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { setContentEndpointMissing } from '../../localGateway/content';
import { createGatewayClient, type GatewayClient } from '../../../src/core/gateway/gatewayClient';
import { generateAltText, isMissingEndpoint, suggestTaxonomy, summarize, type ContentDeps } from '../../../src/core/content/contentClient';
import { GatewayError, isGatewayError } from '../../../src/core/http/errors';
import { nullLogger } from '../../../src/core/log';
import { sendEnvelope, startServer } from '../http/helpers';

const MODEL = { id: 'openai/gpt-5.1', context_window: 400000, capabilities: ['chat', 'summary', 'taxonomy', 'alt_text', 'vision'] };

let gw: RunningGateway;
const clients: GatewayClient[] = [];
before(async () => {
  gw = await startGateway();
});
after(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await gw.close();
});
beforeEach(() => {
  gw.reset();
  for (const e of ['summarize', 'suggestTaxonomy', 'altText'] as const) setContentEndpointMissing(gw, e, undefined);
});

const ALT_MODEL = { id: 'anthropic/claude-haiku-4.5' };

function deps(baseUrl: string = gw.url, model: ContentDeps['model'] = MODEL): ContentDeps {
  const client = createGatewayClient({ baseUrl, getKey: async () => LOCAL_KEYS.userFull, userAgent: 'content-test', env: {}, retry: { maxAttempts: 1 } });
  clients.push(client);
  return { client, log: nullLogger, model };
}

const posts = (path: string): number => gw.events.list('request').filter((e) => e.path === path).length;

describe('content fallback only for a missing route', () => {
  test('[#39.10] a 404 envelope meaning "model not found" is shown as it is; no chat request is made', async () => {
    setContentEndpointMissing(gw, 'summarize', 'model_404');
    const e = await summarize(deps(), { text: 'A post about gardens.' }).then(
      () => assert.fail('expected an error'),
      (err: unknown) => err,
    );
    assert.ok(isGatewayError(e));
    assert.equal(e.status, 404);
    assert.equal(e.message, "model 'openai/gpt-5.1' not found");
    assert.equal(posts('/v1/chat/completions'), 0, 'nothing billed on another route');
  });

  test('[#39.10] the same through the marker, on taxonomy and alt text', async () => {
    await assert.rejects(suggestTaxonomy(deps(), { text: '[[content:404-model]] roses' }), (e: unknown) => isGatewayError(e) && e.status === 404);
    await assert.rejects(
      generateAltText(deps(gw.url, ALT_MODEL), { image: { kind: 'url', url: 'https://x.test/a.png' }, context: '[[content:404-model]]' }),
      (e: unknown) => isGatewayError(e) && e.status === 404 && /not found/.test(e.message),
    );
    assert.equal(posts('/v1/chat/completions'), 0);
  });

  test('[#39.10] a missing route (404 naming it, or 405) falls back, and the outcome says so', async () => {
    for (const status of [404, 405] as const) {
      gw.reset();
      setContentEndpointMissing(gw, 'summarize', status);
      const out = await summarize(deps(), { text: 'A post about gardens.' });
      assert.equal(out.via, 'chat');
      assert.equal(out.fallback, `Made through a chat request to openai/gpt-5.1 instead: this gateway has no route POST /v1/content/summarize (HTTP ${status}).`);
      assert.equal(posts('/v1/chat/completions'), 1);
    }
  });

  test('[#39.10] a bare 404 without the envelope (a router that does not know the path) is a missing route', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/v1/content/summarize') {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('Not Found');
        return;
      }
      // The chat fallback: a plain chat completion.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 0, model: MODEL.id, choices: [{ index: 0, message: { role: 'assistant', content: 'A summary.' }, finish_reason: 'stop' }] }));
    });
    try {
      const out = await summarize(deps(server.url), { text: 'A post.' });
      assert.equal(out.via, 'chat');
      assert.match(out.fallback ?? '', /no route POST \/v1\/content\/summarize \(HTTP 404\)/);
    } finally {
      await server.close();
    }
  });

  test('[#39.10] a 404 envelope that does not name the route is not a missing route; an endpoint answer has no fallback label', async () => {
    const server = await startServer((_req, res) => sendEnvelope(res, 404, 'not_found_error', 'Not Found', 'req-404'));
    try {
      await assert.rejects(summarize(deps(server.url), { text: 'A post.' }), (e: unknown) => isGatewayError(e) && e.status === 404 && e.requestId === 'req-404');
      assert.equal(server.requests.length, 1, 'no second request');
    } finally {
      await server.close();
    }
    const ok = await summarize(deps(), { text: 'A post about gardens.' });
    assert.equal(ok.via, 'endpoint');
    assert.equal(ok.fallback, undefined);
  });

  test('[#39.10] isMissingEndpoint: the rule in one place', () => {
    const path = '/v1/content/summarize';
    assert.equal(isMissingEndpoint(new GatewayError({ reason: 'method_not_allowed', status: 405, message: 'x', envelope: true }), path), true);
    assert.equal(isMissingEndpoint(new GatewayError({ reason: 'not_found', status: 404, message: 'Not Found', envelope: false }), path), true);
    assert.equal(isMissingEndpoint(new GatewayError({ reason: 'not_found', status: 404, message: `no route for POST ${path}`, envelope: true }), path), true);
    assert.equal(isMissingEndpoint(new GatewayError({ reason: 'not_found', status: 404, message: "model 'x' not found", envelope: true }), path), false);
    assert.equal(isMissingEndpoint(new GatewayError({ reason: 'invalid_request', status: 400, message: path, envelope: true }), path), false);
  });
});

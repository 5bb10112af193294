import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Handler } from '../../localGateway/context';
import { parseFaultSpec } from '../../localGateway/faults';
import { Router } from '../../localGateway/router';

const a: Handler = () => undefined;
const b: Handler = () => undefined;

describe('local gateway: router and fault specs', () => {
  test('patterns bind {name}, :name and a trailing *; the first registration wins', () => {
    const r = new Router();
    r.add('GET', '/v1/models/{owner}/{model}/schema', a);
    r.add('*', '/v1/sessions/:id/*', b);
    r.add('POST', '/v1/sessions/:id/*', a);
    const schema = r.match('GET', '/v1/models/openai/gpt-5.1/schema');
    assert.equal(schema.kind, 'found');
    assert.deepEqual(schema.kind === 'found' ? schema.params : undefined, { owner: 'openai', model: 'gpt-5.1' });
    const events = r.match('POST', '/v1/sessions/s%201/events/e1');
    assert.equal(events.kind === 'found' ? events.handler : undefined, b);
    assert.deepEqual(events.kind === 'found' ? events.params : undefined, { id: 's 1', '*': 'events/e1' });
  });

  test('a known path with another method reports the allowed methods; an unknown path reports none', () => {
    const r = new Router();
    r.add('POST', '/v1/chat/completions', a);
    assert.deepEqual(r.match('GET', '/v1/chat/completions'), { kind: 'method', allow: ['POST'] });
    assert.deepEqual(r.match('GET', '/v1/chat'), { kind: 'none' });
    assert.equal(r.match('POST', '/v1/chat/completions/').kind, 'found', 'a trailing slash is tolerated');
  });

  test('fault specs from JSON are validated; null count means until cleared', () => {
    assert.deepEqual(parseFaultSpec({ kind: 'stall', route: '/v1/chat/completions', method: 'post', count: null, afterChunks: 0 }), {
      kind: 'stall',
      route: '/v1/chat/completions',
      method: 'POST',
      count: Infinity,
      afterChunks: 0,
    });
    assert.throws(() => parseFaultSpec({ kind: 'boom' }), /fault.kind must be one of/);
    assert.throws(() => parseFaultSpec({ kind: 'throttled', count: 0 }), /count/);
    assert.throws(() => parseFaultSpec({ kind: 'unavailable', retryAfter: -1 }), /retryAfter/);
  });
});

/**
 * The local gateway's scope decision (test/localGateway/scopes.ts) called directly, with grants that no
 * key the portal mints can have (G-AUTH-5 allows only Full access, Read only and Restricted on the five
 * choosable scopes). The rules only such grants reach are proven here: session_events is accepted in
 * place of agents on session events and feedback only (G-AUTH-7), and write implies read (G-AUTH-6) on a
 * single scope.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Level, Scope } from '../../localGateway/context';
import { decideScope } from '../../localGateway/scopes';

const NONE: Record<Scope, Level> = {
  chat: 'none',
  image: 'none',
  speech: 'none',
  transcribe: 'none',
  collections: 'none',
  documents: 'none',
  search: 'none',
  agents: 'none',
  session_events: 'none',
  mcp: 'none',
};

test('[G-AUTH-7] [#39.13] session events and feedback accept session_events alone, or agents alone in its place', () => {
  assert.deepEqual(decideScope({ ...NONE, session_events: 'write' }, 'session_events', 'write'), { allowed: true });
  assert.deepEqual(decideScope({ ...NONE, agents: 'write' }, 'session_events', 'write'), { allowed: true });
  assert.deepEqual(decideScope({ ...NONE, agents: 'read' }, 'session_events', 'read'), { allowed: true });
});

test('[G-AUTH-7] [#39.13] session_events is not accepted in place of agents on the agents and session routes', () => {
  assert.deepEqual(decideScope({ ...NONE, session_events: 'write' }, 'agents', 'read'), {
    allowed: false,
    status: 403,
    type: 'permission_error',
    message: "insufficient permission: scope 'agents' requires read, key has none",
  });
});

test('[G-AUTH-4] [#39.13] a refusal on session events names session_events with its own granted level', () => {
  assert.deepEqual(decideScope({ ...NONE, session_events: 'read', agents: 'read' }, 'session_events', 'write'), {
    allowed: false,
    status: 403,
    type: 'permission_error',
    message: "insufficient permission: scope 'session_events' requires write, key has read",
  });
});

test('[G-AUTH-6] [#39.13] write implies read on one scope, without read anywhere else', () => {
  assert.deepEqual(decideScope({ ...NONE, search: 'write' }, 'search', 'read'), { allowed: true });
  assert.equal(decideScope({ ...NONE, search: 'write' }, 'collections', 'read').allowed, false);
  assert.equal(decideScope({ ...NONE, search: 'read' }, 'search', 'write').allowed, false);
});

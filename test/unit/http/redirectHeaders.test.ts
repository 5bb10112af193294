/**
 * [#42.5] On a redirect to another origin only headers that describe the request travel on (an allow-list,
 * policy.ts dropForOtherOrigin, used by network.ts's redirect loop): a server's custom headers, whatever
 * their names, cookies and the MCP session id stay with the origin they were meant for.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dropForOtherOrigin, isCrossOriginSafeHeader } from '../../../src/core/http/policy';

describe('[#42.5] headers on a cross-origin redirect', () => {
  test('[#42.5] a custom header with a name no pattern would call secret (X-Api-Version-Sig) is dropped, as are the credential and session headers; the request\'s own description stays', () => {
    const headers = new Headers({
      'X-Api-Version-Sig': 'secret-sig-1',
      'X-Tenant': 'acme-prod',
      Signature: 'keyId="k",sig="s"',
      'X-Amz-Security-Token': 'tok',
      Authorization: 'Bearer t',
      'Proxy-Authorization': 'Basic p',
      Cookie: 'sid=1',
      'Mcp-Session-Id': 'session-42',
      Accept: 'application/json, text/event-stream',
      'Content-Type': 'application/json',
      'User-Agent': 'ai-gateway-vscode/1',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': 'echo',
      'Mcp-Param-Region': 'eu',
      'Last-Event-ID': 'e1',
    });
    dropForOtherOrigin(headers);
    assert.deepEqual([...headers.keys()].sort(), ['accept', 'content-type', 'last-event-id', 'mcp-method', 'mcp-name', 'mcp-param-region', 'mcp-protocol-version', 'user-agent']);
    assert.equal(headers.get('x-api-version-sig'), null);
  });

  test('[#42.5] the allow-list is exact: look-alike names are not safe', () => {
    for (const name of ['Accept', 'content-type', 'MCP-PROTOCOL-VERSION', 'mcp-param-x']) assert.equal(isCrossOriginSafeHeader(name), true, name);
    for (const name of ['mcp-session-id', 'x-accept', 'accept-token', 'content-type-sig', 'mcp-param-', 'mcp-params', 'x-mcp-method', 'user-agent-key', 'x-api-version-sig', 'forwarded', 'x-forwarded-for']) {
      assert.equal(isCrossOriginSafeHeader(name), false, name);
    }
  });
});

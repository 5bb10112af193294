// What the 2026-07-28 authorization scenarios add to the MCP sign-in (#42.3): the registration's
// application_type (SEP-837), the authorization response's iss compared exactly (RFC 9207, SEP-2468),
// and the issuer an authorization server metadata address was built from (SEP-2468).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applicationType, checkResponseIssuer, issuerOfMetadataUrl, McpSignInError } from '../../../src/core/mcp/oauth';

test('[#42.3] application_type: native for a loopback or custom-scheme redirect, web for https to another host', () => {
  assert.equal(applicationType('http://127.0.0.1:33418/callback'), 'native');
  assert.equal(applicationType('http://localhost:8080/cb'), 'native');
  assert.equal(applicationType('vscode://ai-gateway.ai-gateway-vscode/mcp-auth'), 'native');
  assert.equal(applicationType('https://code.example.com/proxy/cb'), 'web');
});

test('[#42.3] the authorization response iss must be exactly the issuer; required when the metadata promises it', () => {
  const meta = { issuer: 'https://as.example.com', authorization_response_iss_parameter_supported: true };
  const back = (q: string): URL => new URL(`http://127.0.0.1/cb?code=c&state=s${q}`);
  assert.doesNotThrow(() => checkResponseIssuer(back('&iss=https%3A%2F%2Fas.example.com'), meta));
  assert.throws(() => checkResponseIssuer(back('&iss=https%3A%2F%2Fas.example.com%2F'), meta), McpSignInError);
  assert.throws(() => checkResponseIssuer(back('&iss=https%3A%2F%2FAS.example.com'), meta), McpSignInError);
  assert.throws(() => checkResponseIssuer(back('&iss=https%3A%2F%2Fevil.example.com'), { issuer: 'https://as.example.com' }), McpSignInError);
  assert.throws(() => checkResponseIssuer(back(''), meta), McpSignInError);
  assert.doesNotThrow(() => checkResponseIssuer(back(''), { issuer: 'https://as.example.com' }));
  assert.throws(() => checkResponseIssuer(back('&iss=a&iss=a'), meta), McpSignInError);
});

test('[#42.3] the issuer a metadata address was built from (RFC 8414 insertion, OpenID Connect appending)', () => {
  assert.equal(issuerOfMetadataUrl('https://as.example.com/.well-known/oauth-authorization-server'), 'https://as.example.com');
  assert.equal(issuerOfMetadataUrl('https://as.example.com/.well-known/oauth-authorization-server/tenant1'), 'https://as.example.com/tenant1');
  assert.equal(issuerOfMetadataUrl('https://as.example.com/.well-known/openid-configuration/tenant1'), 'https://as.example.com/tenant1');
  assert.equal(issuerOfMetadataUrl('https://as.example.com/tenant1/.well-known/openid-configuration'), 'https://as.example.com/tenant1');
  assert.equal(issuerOfMetadataUrl('https://as.example.com/token'), undefined);
});

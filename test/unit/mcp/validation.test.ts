import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatIssues, validateAgainstSchema } from '../../../src/core/mcp/validation';
import { TOOLS } from '../../localGateway/mcpTools';

const kbSearch = TOOLS.find((t) => t.name === 'kb_search')?.inputSchema ?? {};

test('arguments matching the input schema are valid', () => {
  assert.deepEqual(validateAgainstSchema(kbSearch, { collection_id: 'c', query: 'q', top_k: 3 }), { valid: true, issues: [] });
});

test('arguments are checked before sending: missing required, bounds, types, unknown properties', () => {
  const r = validateAgainstSchema(kbSearch, { query: 'q', top_k: 50, min_score: 'high', extra: 1 });
  assert.equal(r.valid, false);
  const text = formatIssues(r.issues);
  assert.match(text, /missing required property "collection_id"/);
  assert.match(text, /\/top_k must be <= 20/);
  assert.match(text, /\/min_score must be number/);
  assert.match(text, /unknown property "extra"/);
});

test('draft-07 schemas are validated with the draft-07 dialect', () => {
  const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };
  assert.equal(validateAgainstSchema(schema, { a: 1 }).valid, true);
  assert.equal(validateAgainstSchema(schema, {}).valid, false);
});

test('structured content is validated against an output schema', () => {
  const out = TOOLS.find((t) => t.name === 'list_account_sites')?.outputSchema;
  assert.equal(validateAgainstSchema(out, { sites: [] }).valid, true);
  assert.equal(validateAgainstSchema(out, { sites: [{ site_id: 'x' }] }).valid, false);
});

test('an uncompilable schema does not block the call but says the value was not checked', () => {
  const r = validateAgainstSchema({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }, { a: 1 });
  assert.equal(r.valid, true);
  assert.match(r.schemaError ?? '', /not checked/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatIssues, MAX_UNFOLDED_PARTS, unfoldedParts, validateAgainstSchema } from '../../../src/core/mcp/validation';
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

/** `$defs` a0..a(n-1), each naming the one before twice: a few parts per level, 2^n with the refs written out. */
function doublingChain(levels: number): Record<string, unknown> {
  const defs: Record<string, unknown> = { a0: { type: 'string' } };
  for (let i = 1; i < levels; i++) defs[`a${i}`] = { allOf: [{ $ref: `#/$defs/a${i - 1}` }, { $ref: `#/$defs/a${i - 1}` }] };
  return { $defs: defs, type: 'object', properties: { x: { $ref: `#/$defs/a${levels - 1}` } } };
}

test('[#42.4] a small schema whose $refs double at each level is not compiled (the check would take 2^n calls): the value is let through as not checked, with the reason', () => {
  const schema = doublingChain(18);
  // Written out: every level doubles, so 18 levels are far past the bound; the schema itself has about 60 parts.
  assert.ok(unfoldedParts(schema) > MAX_UNFOLDED_PARTS);
  const r = validateAgainstSchema(schema as never, { x: 1 });
  assert.equal(r.valid, true);
  assert.match(r.schemaError ?? '', /with its \$refs written out the schema would have more than 200,000 parts/);
});

test('[#42.4] a few doubling levels and a recursive tree schema are still checked (a recursion that reads deeper into the value counts once)', () => {
  const small = doublingChain(6); // 2^6 = 64 copies of a0 written out
  assert.ok(unfoldedParts(small) < 1000, String(unfoldedParts(small)));
  const r = validateAgainstSchema(small as never, { x: 1 });
  assert.equal(r.valid, false);
  assert.equal(r.schemaError, undefined);
  const tree = { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } }, required: ['name'] };
  assert.ok(unfoldedParts(tree) < 20, String(unfoldedParts(tree)));
  const bad = validateAgainstSchema(tree as never, { name: 'a', children: [{ name: 'b', children: [{ children: [] }] }] });
  assert.equal(bad.valid, false);
  assert.match(formatIssues(bad.issues), /\/children\/0\/children\/0 missing required property "name"/);
});

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { buildFormModel, describeConstraints, formatFieldValue, initialValue, parseFieldInput, setAtPath, type FormField } from '../../../src/protocol/toolsForm';
import { TOOLS } from '../../localGateway/mcpTools';

function field(model: FormField, ...keys: string[]): FormField {
  let cur = model;
  for (const k of keys) {
    const next = cur.fields?.find((f) => f.key === k);
    assert.ok(next, `field ${k}`);
    cur = next;
  }
  return cur;
}

describe('schema to form model', () => {
  const schema = {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What to find', minLength: 2 },
      top_k: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
      min_score: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
      exact: { type: 'boolean' },
      lang: { type: 'string', enum: ['en', 'de'] },
      filters: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, maxItems: 3 } }, required: ['tags'] },
      note: { type: ['string', 'null'] },
    },
    required: ['query', 'filters'],
  };
  const model = buildFormModel(schema);

  test('maps every supported keyword to a field, in schema order', () => {
    assert.equal(model.fullyExpressible, true);
    assert.deepEqual(model.root.fields?.map((f) => [f.key, f.kind, f.required]), [
      ['query', 'string', true],
      ['top_k', 'integer', false],
      ['min_score', 'number', false],
      ['exact', 'boolean', false],
      ['lang', 'enum', false],
      ['filters', 'object', true],
      ['note', 'string', false],
    ]);
    assert.equal(field(model.root, 'query').description, 'What to find');
    assert.equal(field(model.root, 'top_k').maximum, 20);
    assert.equal(field(model.root, 'top_k').default, 5);
    assert.equal(field(model.root, 'filters', 'tags').kind, 'array');
    assert.equal(field(model.root, 'filters', 'tags').item?.kind, 'string');
    assert.equal(field(model.root, 'filters', 'tags').path, '/filters/tags');
    assert.match(describeConstraints(field(model.root, 'top_k')), /whole number, ≥ 1, ≤ 20, default 5/);
  });

  test('falls back to raw JSON for anyOf and $ref, and says so', () => {
    const m = buildFormModel({ type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'number' }] }, b: { $ref: '#/$defs/x' }, c: { type: 'string' } } });
    assert.equal(m.fullyExpressible, false);
    assert.equal(field(m.root, 'a').kind, 'json');
    assert.match(field(m.root, 'a').fallbackReason ?? '', /anyOf/);
    assert.equal(field(m.root, 'b').kind, 'json');
    assert.equal(field(m.root, 'c').kind, 'string');
  });

  test('free-form objects (run_site_ability input) are edited as JSON', () => {
    const run = TOOLS.find((t) => t.name === 'run_site_ability');
    const m = buildFormModel(run?.inputSchema);
    assert.equal(field(m.root, 'input').kind, 'json');
    assert.equal(field(m.root, 'site_id').required, true);
  });

  test('initial values come from defaults and required nested objects', () => {
    assert.deepEqual(initialValue(model.root), { filters: { tags: [] } });
    assert.equal(initialValue(field(model.root, 'top_k')), 5);
  });
});

describe('parsing what the user typed', () => {
  const int: FormField = { key: 'n', path: '/n', kind: 'integer', label: 'N', required: true, minimum: 1, maximum: 10 };
  test('integers with bounds', () => {
    assert.deepEqual(parseFieldInput(int, '7'), { ok: true, value: 7, omit: false });
    assert.equal(parseFieldInput(int, '7.5').ok, false);
    assert.equal(parseFieldInput(int, '0').ok, false);
    assert.equal(parseFieldInput(int, '11').ok, false);
    assert.equal(parseFieldInput(int, 'abc').ok, false);
    assert.equal(parseFieldInput(int, '').ok, false);
  });
  test('empty optional inputs are omitted so server defaults apply', () => {
    assert.deepEqual(parseFieldInput({ ...int, required: false }, ''), { ok: true, value: undefined, omit: true });
    assert.deepEqual(parseFieldInput({ key: 's', path: '/s', kind: 'string', label: 'S', required: false }, ''), { ok: true, value: undefined, omit: true });
  });
  test('enums round-trip values of any JSON type by index', () => {
    const e: FormField = { key: 'e', path: '/e', kind: 'enum', label: 'E', required: true, enumValues: ['a', 2, true] };
    assert.deepEqual(parseFieldInput(e, formatFieldValue(e, 2)), { ok: true, value: 2, omit: false });
    assert.equal(parseFieldInput(e, '9').ok, false);
  });
  test('JSON fields parse or explain', () => {
    const j: FormField = { key: 'j', path: '/j', kind: 'json', label: 'J', required: false };
    assert.deepEqual(parseFieldInput(j, '{"a":1}'), { ok: true, value: { a: 1 }, omit: false });
    const bad = parseFieldInput(j, '{a:1}');
    assert.equal(bad.ok, false);
  });
  test('booleans', () => {
    assert.deepEqual(parseFieldInput({ key: 'b', path: '/b', kind: 'boolean', label: 'B', required: false }, true), { ok: true, value: true, omit: false });
  });
  test('setAtPath builds nested objects and arrays, and deletes', () => {
    const o: Record<string, unknown> = {};
    setAtPath(o, ['filters', 'tags', 0], 'x');
    setAtPath(o, ['top_k'], 3);
    assert.deepEqual(o, { filters: { tags: ['x'] }, top_k: 3 });
    setAtPath(o, ['filters', 'tags', 0], undefined);
    setAtPath(o, ['top_k'], undefined);
    assert.deepEqual(o, { filters: { tags: [] } });
  });
});

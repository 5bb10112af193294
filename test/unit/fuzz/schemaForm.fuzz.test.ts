/**
 * Property tests for the schema-to-form model (src/core/mcp/schemaForm.ts). Tool input schemas come
 * from MCP servers, so any JSON at all may arrive:
 * - buildFormModel, initialValue, parseFieldInput, formatFieldValue and describeConstraints never
 *   throw (the module documents no error: what a form cannot express becomes a raw-JSON field, and bad
 *   input is an `{ok: false}` result);
 * - the work is linear: the model has at most one field per schema node, and the starting value it
 *   builds is bounded by the schema's size (counted in nodes and characters, never timed);
 * - a valid value shown in a field and read back is the same value.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildFormModel, describeConstraints, formatFieldValue, initialValue, parseFieldInput, type FormField } from '../../../src/protocol/toolsForm';

const RUNS = 10_000;

/** Schema-shaped JSON: real keywords with hostile values, nested. */
const schemaArb: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: 'xsmall', maxDepth: 4, withCrossShrink: true },
    fc.jsonValue({ maxDepth: 2 }),
    fc.record(
      {
        type: fc.oneof(fc.constantFrom('string', 'number', 'integer', 'boolean', 'object', 'array', 'null', 'weird'), fc.array(fc.constantFrom('string', 'null', 'number', 'object'), { maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })),
        properties: fc.oneof(fc.dictionary(fc.string({ maxLength: 6 }), tie('schema'), { maxKeys: 4 }), fc.jsonValue({ maxDepth: 1 })),
        items: fc.oneof(tie('schema'), fc.array(tie('schema'), { maxLength: 2 })),
        required: fc.oneof(fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })),
        enum: fc.oneof(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 4 }), fc.jsonValue({ maxDepth: 1 })),
        const: fc.jsonValue({ maxDepth: 1 }),
        default: fc.jsonValue({ maxDepth: 2 }),
        title: fc.oneof(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 })),
        description: fc.jsonValue({ maxDepth: 1 }),
        minItems: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom(1e6, 1e9, 1e12, 2 ** 32, 1.5, -0)),
        maxItems: fc.integer(),
        minimum: fc.oneof(fc.double(), fc.jsonValue({ maxDepth: 0 })),
        maximum: fc.double(),
        exclusiveMinimum: fc.double(),
        minLength: fc.integer({ min: -2, max: 10 }),
        maxLength: fc.integer({ min: -2, max: 10 }),
        pattern: fc.jsonValue({ maxDepth: 0 }),
        additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
        anyOf: fc.array(tie('schema'), { maxLength: 2 }),
        $ref: fc.string({ maxLength: 5 }),
        prefixItems: fc.array(tie('schema'), { maxLength: 1 }),
      },
      { requiredKeys: [] },
    ),
  ),
})).schema;

function fields(f: FormField): FormField[] {
  return [f, ...(f.fields ?? []).flatMap(fields), ...(f.item ? fields(f.item) : [])];
}

/** Nodes of a JSON value (every object, array and primitive). */
function nodes(v: unknown): number {
  if (Array.isArray(v)) return 1 + v.reduce((n: number, x) => n + nodes(x), 0);
  if (v !== null && typeof v === 'object') return 1 + Object.values(v).reduce((n: number, x) => n + nodes(x), 0);
  return 1;
}

test(`buildFormModel and initialValue never throw, and their output is bounded by the schema, on ${RUNS} schemas`, () => {
  fc.assert(
    fc.property(schemaArb, (schema) => {
      const model = buildFormModel(schema);
      const all = fields(model.root);
      assert.equal(model.root.path, '');
      // One field per schema node at most (+1: an absent schema stands for an empty object).
      assert.ok(all.length <= nodes(schema) + 1, `${all.length} fields for ${nodes(schema)} schema nodes`);
      const start = initialValue(model.root);
      // The starting value is made of defaults (copied from the schema) and a bounded number of
      // pre-created array items per schema node.
      const size = start === undefined ? 0 : JSON.stringify(start).length;
      assert.ok(size <= 2 * JSON.stringify(schema ?? {}).length + 200 * all.length, `starting value of ${size} characters`);
      for (const f of all) {
        assert.equal(typeof describeConstraints(f), 'string');
        assert.equal(typeof formatFieldValue(f, f.default), 'string');
      }
    }),
    { numRuns: RUNS },
  );
});

test(`parseFieldInput answers ok or an error for anything typed into any field, on ${RUNS} inputs`, () => {
  fc.assert(
    fc.property(schemaArb, fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.boolean(), fc.jsonValue().map((v) => JSON.stringify(v))), (schema, raw) => {
      for (const f of fields(buildFormModel(schema).root)) {
        const r = parseFieldInput(f, raw);
        if (r.ok) assert.equal(typeof r.omit, 'boolean');
        else assert.ok(typeof r.error === 'string' && r.error.length > 0);
      }
    }),
    { numRuns: RUNS },
  );
});

/** A typed schema and a value that satisfies it. */
type Pair = [unknown, unknown];
const pair = (schema: unknown, value: unknown): Pair => [schema, value];
const fieldAndValue: fc.Arbitrary<Pair> = fc.oneof(
  fc.string({ minLength: 1, maxLength: 20 }).map((v) => pair({ type: 'string' }, v)),
  fc.tuple(fc.integer({ min: 0, max: 5 }), fc.string({ minLength: 1, maxLength: 20 })).filter(([min, v]) => v.length >= min).map(([min, v]) => pair({ type: 'string', minLength: min, maxLength: 20 }, v)),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((v) => !Object.is(v, -0)).map((v) => pair({ type: 'number' }, v)),
  fc.integer().filter((v) => !Object.is(v, -0)).map((v) => pair({ type: 'integer', minimum: -(2 ** 31), maximum: 2 ** 31 }, v)),
  fc.boolean().map((v) => pair({ type: 'boolean' }, v)),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { minLength: 1, maxLength: 5 }).chain((values) => fc.nat({ max: values.length - 1 }).map((i) => pair({ enum: values }, values[i]))),
  fc.jsonValue().map((v) => pair({ anyOf: [{}] }, v)),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 4 }).map((v) => pair({ type: 'array', items: {} }, v)),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 }).map((v) => pair({ type: 'object' }, v)),
);

test(`a valid value shown in its field and read back is the same value, on ${RUNS} fields`, () => {
  fc.assert(
    fc.property(fieldAndValue, fc.boolean(), ([schema, value], required) => {
      const field = { ...buildFormModel(schema).root, required };
      const text = formatFieldValue(field, value);
      const back = parseFieldInput(field, field.kind === 'boolean' ? text === 'true' : text);
      assert.ok(back.ok, `${JSON.stringify(value)} shown as ${JSON.stringify(text)}: ${back.ok ? '' : back.error}`);
      assert.equal(back.omit, false);
      // JSON equality: the form speaks JSON, where -0 and 0 are the same number.
      assert.equal(JSON.stringify(back.value), JSON.stringify(value));
    }),
    { numRuns: RUNS },
  );
});

test('a huge minItems does not build a huge starting value', () => {
  for (const minItems of [1e6, 1e9, 2 ** 32]) {
    const model = buildFormModel({ type: 'object', required: ['list'], properties: { list: { type: 'array', minItems, items: { type: 'array', minItems, items: { type: 'string' } } } } });
    const start = initialValue(model.root) as { list: unknown[][] };
    assert.ok(JSON.stringify(start).length < 10_000, String(minItems));
  }
});

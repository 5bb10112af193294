/**
 * JSON Schema validation of tool arguments (before sending) and of structuredContent (against the
 * tool's outputSchema). Runs in the extension host / core only: ajv compiles validators with
 * `new Function`, which the webview's CSP forbids.
 */
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from './types';

export interface ValidationIssue {
  /** JSON Pointer of the offending value ('' for the root). */
  path: string;
  message: string;
}

export interface ValidationResult {
  valid: boolean;
  issues: ValidationIssue[];
  /** Set when the schema itself could not be compiled: the value was not checked. */
  schemaError?: string;
}

// Server schemas are foreign input: strict mode off (unknown keywords are common), formats not
// enforced (no ajv-formats; an unknown format must not block a call), all errors reported at once.
const options = { strict: false, allErrors: true, validateFormats: false } as const;
let draft7: Ajv | undefined;
let draft2020: Ajv2020 | undefined;
const cache = new WeakMap<object, ValidateFunction>();

function compilerFor(schema: JsonSchema): Ajv | Ajv2020 {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-0[4-7]/.test(declared)) return (draft7 ??= new Ajv(options));
  // MCP 2025-11-25 makes JSON Schema 2020-12 the default dialect for tool schemas.
  return (draft2020 ??= new Ajv2020(options));
}

function compile(schema: JsonSchema): ValidateFunction {
  const hit = cache.get(schema);
  if (hit) return hit;
  // $schema/$id are dropped: ajv would look the meta-schema up by URI and fail on unknown drafts, and
  // two tools with the same $id would collide in the shared instance.
  const { $schema: _s, $id: _i, ...rest } = schema;
  const fn = compilerFor(schema).compile(rest);
  cache.set(schema, fn);
  return fn;
}

function toIssues(errors: ErrorObject[] | null | undefined): ValidationIssue[] {
  return (errors ?? []).map((e) => {
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') message = `missing required property "${String((e.params as { missingProperty?: string }).missingProperty)}"`;
    else if (e.keyword === 'additionalProperties') message = `unknown property "${String((e.params as { additionalProperty?: string }).additionalProperty)}"`;
    else if (e.keyword === 'enum') message = `must be one of ${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)}`;
    return { path: e.instancePath, message };
  });
}

export function validateAgainstSchema(schema: JsonSchema | undefined, value: unknown): ValidationResult {
  if (!schema || typeof schema !== 'object') return { valid: true, issues: [] };
  let fn: ValidateFunction;
  try {
    fn = compile(schema);
  } catch (e) {
    return { valid: true, issues: [], schemaError: `The schema could not be compiled, so the value was not checked: ${e instanceof Error ? e.message : String(e)}` };
  }
  const valid = fn(value) === true;
  return { valid, issues: valid ? [] : toIssues(fn.errors) };
}

/** One line per issue, for error messages: `/limit must be <= 100`. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => `${i.path || '(arguments)'} ${i.message}`).join('\n');
}

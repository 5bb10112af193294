/**
 * JSON Schema validation of tool arguments (before sending) and of structuredContent (against the
 * tool's outputSchema). Runs in the extension host / core only: ajv compiles validators with
 * `new Function`, which the webview's CSP forbids.
 */
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from './types';
import { isRecord } from '../guards';
import * as l10n from '../l10n';

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
  /**
   * Set when the schema has regular expressions (`pattern`, `patternProperties`): those parts were
   * not checked. Says which, for the result view.
   */
  unchecked?: string;
}

// Server schemas are foreign input: strict mode off (unknown keywords are common), formats not
// enforced (no ajv-formats; an unknown format must not block a call, and format regexes are not run
// on server data), all errors reported at once.
const options = { strict: false, allErrors: true, validateFormats: false } as const;
let draft7: Ajv | undefined;
let draft2020: Ajv2020 | undefined;
interface Compiled {
  fn: ValidateFunction;
  unchecked?: string;
}
const cache = new WeakMap<object, Compiled>();

/**
 * Regular expressions in a server's schema are never run. JavaScript's engine backtracks, so a
 * pattern like `^(a+)+$` takes time exponential in the length of the value it is run on (28
 * characters froze the host for half a second, doubling per character), and both the pattern and the
 * value come from the server. `pattern` is dropped; `patternProperties` is dropped together with the
 * `additionalProperties`/`unevaluatedProperties` of the same object (which property names its
 * patterns would match is unknown, so those checks would give false errors). The result says so.
 */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_ONE = new Set(['items', 'additionalItems', 'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else']);
/** Deeper schemas are refused: walking and compiling them would overflow the stack. */
export const MAX_SCHEMA_DEPTH = 64;

export class SchemaTooDeepError extends Error {
  constructor() {
    super(`the schema nests deeper than ${MAX_SCHEMA_DEPTH} levels`);
  }
}

/** A copy of `schema` without regular expressions, and the JSON Pointers of what was dropped. */
export function withoutPatterns(schema: unknown): { schema: unknown; dropped: string[] } {
  const dropped: string[] = [];
  const walk = (node: unknown, path: string, depth: number): unknown => {
    if (depth > MAX_SCHEMA_DEPTH) throw new SchemaTooDeepError();
    if (Array.isArray(node)) return node.map((n, i) => walk(n, `${path}/${i}`, depth + 1));
    if (typeof node !== 'object' || node === null) return node;
    const src = node as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    const hasPatternProps = src.patternProperties !== undefined;
    for (const [key, value] of Object.entries(src)) {
      const at = `${path}/${escapePointer(key)}`;
      if (key === 'pattern' && typeof value === 'string') {
        dropped.push(at);
        continue;
      }
      if (key === 'patternProperties') {
        dropped.push(at);
        continue;
      }
      if (hasPatternProps && (key === 'additionalProperties' || key === 'unevaluatedProperties')) {
        dropped.push(at);
        continue;
      }
      if (SCHEMA_MAPS.has(key) && isRecord(value)) {
        const map: Record<string, unknown> = {};
        for (const [name, sub] of Object.entries(value)) map[name] = walk(sub, `${at}/${escapePointer(name)}`, depth + 1);
        out[key] = map;
      } else if (key === 'dependencies' && isRecord(value)) {
        const map: Record<string, unknown> = {};
        for (const [name, sub] of Object.entries(value)) map[name] = Array.isArray(sub) ? sub : walk(sub, `${at}/${escapePointer(name)}`, depth + 1);
        out[key] = map;
      } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
        out[key] = value.map((sub, i) => walk(sub, `${at}/${i}`, depth + 1));
      } else if (SCHEMA_ONE.has(key)) {
        out[key] = walk(value, at, depth + 1);
      } else {
        // Values (enum, const, default, examples...) and unknown keywords are kept as they are.
        out[key] = value;
      }
    }
    return out;
  };
  return { schema: walk(schema, '', 0), dropped };
}

function escapePointer(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

function uncheckedNote(dropped: readonly string[]): string | undefined {
  if (dropped.length === 0) return undefined;
  const shown = dropped.slice(0, 5).map((p) => p || '/').join(', ');
  return `Not checked against the schema's regular expressions (${shown}${dropped.length > 5 ? `, and ${dropped.length - 5} more` : ''}): server patterns are not run in the editor.`;
}

function compilerFor(schema: JsonSchema): Ajv | Ajv2020 {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-0[4-7]/.test(declared)) return (draft7 ??= new Ajv(options));
  // MCP 2025-11-25 makes JSON Schema 2020-12 the default dialect for tool schemas.
  return (draft2020 ??= new Ajv2020(options));
}

function compile(schema: JsonSchema): Compiled {
  const hit = cache.get(schema);
  if (hit) return hit;
  // $schema/$id are dropped: ajv would look the meta-schema up by URI and fail on unknown drafts, and
  // two tools with the same $id would collide in the shared instance.
  const { $schema: _s, $id: _i, ...rest } = schema;
  const safe = withoutPatterns(rest);
  const compiled: Compiled = { fn: compilerFor(schema).compile(safe.schema as JsonSchema), unchecked: uncheckedNote(safe.dropped) };
  cache.set(schema, compiled);
  return compiled;
}

function toIssues(errors: ErrorObject[] | null | undefined): ValidationIssue[] {
  return (errors ?? []).map((e) => {
    // The common cases in our words (translated); any other keyword keeps ajv's English message.
    let message = e.message ?? l10n.t('is invalid');
    if (e.keyword === 'required') message = l10n.t('missing required property "{0}"', String((e.params as { missingProperty?: string }).missingProperty));
    else if (e.keyword === 'additionalProperties') message = l10n.t('unknown property "{0}"', String((e.params as { additionalProperty?: string }).additionalProperty));
    else if (e.keyword === 'enum') message = l10n.t('must be one of {0}', JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues));
    return { path: e.instancePath, message };
  });
}

export function validateAgainstSchema(schema: JsonSchema | undefined, value: unknown): ValidationResult {
  if (!schema || typeof schema !== 'object') return { valid: true, issues: [] };
  let compiled: Compiled;
  try {
    compiled = compile(schema);
  } catch (e) {
    return { valid: true, issues: [], schemaError: `The schema could not be compiled, so the value was not checked: ${e instanceof Error ? e.message : String(e)}` };
  }
  const { fn, unchecked } = compiled;
  const valid = fn(value) === true;
  return { valid, issues: valid ? [] : toIssues(fn.errors), ...(unchecked ? { unchecked } : {}) };
}

/** One line per issue, for error messages: `/limit must be <= 100`. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => `${i.path || l10n.t('(arguments)')} ${i.message}`).join('\n');
}

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

/** Larger schemas (objects and lists counted) are not compiled: the work on a server's schema stays bounded (#42.4). */
export const MAX_SCHEMA_NODES = 20_000;

export class SchemaTooLargeError extends Error {
  constructor() {
    super(`the schema has more than ${MAX_SCHEMA_NODES.toLocaleString('en-US')} parts`);
  }
}

/** A `$ref` chain that comes back to where it started without reading any part of the value: validating it would never end. */
export class SchemaRefLoopError extends Error {
  constructor(at: string) {
    super(`its $ref at ${at || '/'} leads back to itself without checking any part of the value`);
  }
}

/** A copy of `schema` without regular expressions, and the JSON Pointers of what was dropped. */
export function withoutPatterns(schema: unknown): { schema: unknown; dropped: string[] } {
  const dropped: string[] = [];
  let nodes = 0;
  const walk = (node: unknown, path: string, depth: number): unknown => {
    if (depth > MAX_SCHEMA_DEPTH) throw new SchemaTooDeepError();
    if (typeof node === 'object' && node !== null && ++nodes > MAX_SCHEMA_NODES) throw new SchemaTooLargeError();
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

/** The schema node a local JSON Pointer `$ref` ("#", "#/$defs/a") names, or undefined. */
function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/') || ref.length > 2000) return undefined;
  let cur: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (typeof cur !== 'object' || cur === null || !Object.prototype.hasOwnProperty.call(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Keywords whose subschemas apply to the same value (so a loop through them reads nothing). */
const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;
const IN_PLACE_ONE = ['not', 'if', 'then', 'else'] as const;

/**
 * The pointer of a `$ref` that leads back to itself through subschemas applied to the same value
 * (`{"$ref": "#"}`, two `$defs` naming each other, a `$ref` inside its own `allOf`), or undefined.
 * ajv would recurse on such a schema until the stack overflows, at compile or on every call.
 * Linear in the schema's size (each node is entered once, iteratively).
 */
export function findRefLoop(root: unknown): string | undefined {
  const paths = new Map<object, string>();
  // Every schema node with its pointer (the same keywords as withoutPatterns).
  const stack: Array<[unknown, string]> = [[root, '']];
  while (stack.length) {
    const [node, path] = stack.pop()!;
    if (typeof node !== 'object' || node === null || Array.isArray(node) || paths.has(node)) continue;
    paths.set(node, path);
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      const at = `${path}/${escapePointer(key)}`;
      if (SCHEMA_MAPS.has(key) && isRecord(value)) for (const [name, sub] of Object.entries(value)) stack.push([sub, `${at}/${escapePointer(name)}`]);
      else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) value.forEach((sub, i) => stack.push([sub, `${at}/${i}`]));
      else if (SCHEMA_ONE.has(key)) stack.push([value, at]);
    }
  }
  const next = (node: object): object[] => {
    const n = node as Record<string, unknown>;
    const out: unknown[] = [];
    for (const key of ['$ref', '$dynamicRef', '$recursiveRef']) if (typeof n[key] === 'string') out.push(resolveLocalRef(root, n[key] as string));
    for (const key of IN_PLACE_LISTS) if (Array.isArray(n[key])) out.push(...(n[key] as unknown[]));
    for (const key of IN_PLACE_ONE) out.push(n[key]);
    return out.filter((x): x is object => typeof x === 'object' && x !== null && !Array.isArray(x));
  };
  const state = new Map<object, 1 | 2>(); // 1: on the current path, 2: done
  for (const start of paths.keys()) {
    if (state.has(start)) continue;
    const path: Array<{ node: object; edges: object[]; i: number }> = [{ node: start, edges: next(start), i: 0 }];
    state.set(start, 1);
    while (path.length) {
      const top = path[path.length - 1];
      if (top.i >= top.edges.length) {
        state.set(top.node, 2);
        path.pop();
        continue;
      }
      const to = top.edges[top.i++];
      const s = state.get(to);
      if (s === 1) return paths.get(top.node) ?? '';
      if (s === undefined) {
        state.set(to, 1);
        path.push({ node: to, edges: next(to), i: 0 });
      }
    }
  }
  return undefined;
}

/**
 * A schema whose subschemas, with every `$ref` written out in place, come to more than this many parts is
 * not compiled: ajv keeps a referenced schema as a function it calls from every place that names it, so
 * `$defs` that each name the one before twice (`allOf: [{$ref: a1}, {$ref: a1}]`) cost twice as much per
 * level, about 2^40 calls at 40 levels for any value, although the schema itself is small (#42.4).
 */
export const MAX_UNFOLDED_PARTS = 200_000;

export class SchemaUnfoldsTooFarError extends Error {
  constructor() {
    super(`with its $refs written out the schema would have more than ${MAX_UNFOLDED_PARTS.toLocaleString('en-US')} parts`);
  }
}

/**
 * How many parts the schema has with each `$ref` written out in place (a ref back to a schema being
 * written out counts once: that recursion reads a deeper part of the value each time). Saturates just
 * above MAX_UNFOLDED_PARTS; linear in the schema's size (each node is summed once, iteratively).
 */
export function unfoldedParts(root: unknown): number {
  const cap = MAX_UNFOLDED_PARTS + 1;
  const kids = (node: object): object[] => {
    const n = node as Record<string, unknown>;
    const out: unknown[] = [];
    for (const [key, value] of Object.entries(n)) {
      if (SCHEMA_MAPS.has(key) && isRecord(value)) out.push(...Object.values(value));
      else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out.push(...(value as unknown[]));
      else if (SCHEMA_ONE.has(key)) out.push(value);
    }
    for (const key of ['$ref', '$dynamicRef', '$recursiveRef']) if (typeof n[key] === 'string') out.push(resolveLocalRef(root, n[key] as string));
    return out.filter((x): x is object => typeof x === 'object' && x !== null && !Array.isArray(x));
  };
  if (typeof root !== 'object' || root === null || Array.isArray(root)) return 1;
  const total = new Map<object, number>();
  const open = new Set<object>();
  const stack: Array<{ node: object; edges: object[]; i: number; sum: number }> = [{ node: root, edges: kids(root), i: 0, sum: 1 }];
  open.add(root);
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top.i >= top.edges.length) {
      stack.pop();
      open.delete(top.node);
      total.set(top.node, top.sum);
      if (stack.length) {
        const parent = stack[stack.length - 1];
        parent.sum = Math.min(cap, parent.sum + top.sum);
      }
      continue;
    }
    const to = top.edges[top.i++];
    const known = total.get(to);
    if (known !== undefined) top.sum = Math.min(cap, top.sum + known);
    else if (open.has(to)) top.sum = Math.min(cap, top.sum + 1);
    else {
      open.add(to);
      stack.push({ node: to, edges: kids(to), i: 0, sum: 1 });
    }
  }
  return total.get(root) ?? cap;
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
  const loop = findRefLoop(safe.schema);
  if (loop !== undefined) throw new SchemaRefLoopError(loop);
  if (unfoldedParts(safe.schema) > MAX_UNFOLDED_PARTS) throw new SchemaUnfoldsTooFarError();
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
  let valid: boolean;
  try {
    valid = fn(value) === true;
  } catch (e) {
    // A value nested deeper than the stack allows, or a recursion the loop check cannot see ($ref by anchor).
    return { valid: true, issues: [], schemaError: `The value could not be checked against the schema: ${e instanceof Error ? e.message : String(e)}` };
  }
  return { valid, issues: valid ? [] : toIssues(fn.errors), ...(unchecked ? { unchecked } : {}) };
}

/** One line per issue, for error messages: `/limit must be <= 100`. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => `${i.path || l10n.t('(arguments)')} ${i.message}`).join('\n');
}

/**
 * Turns a tool's input JSON Schema into a form model, and form input back into typed arguments.
 *
 * Pure and dependency-free on purpose (but for src/core/l10n.ts, its words' translation, #30.2): the
 * tools webview bundles this file too (it renders the model and parses what the user types), and
 * plain-Node tests cover it. What a form cannot express
 * (anyOf/oneOf/allOf/$ref/not/conditionals, union types, free-form maps) becomes a `json` field: a
 * raw-JSON editor for that subtree. Validation against the full schema happens in the host
 * (src/core/mcp/validation.ts), never here. It lives in src/protocol because the webview and the host
 * both use it (the tools protocol's other half: src/protocol/toolsProtocol.ts).
 */
import * as l10n from '../core/l10n';

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'object' | 'array' | 'json';

export interface FormField {
  /** Property name; '' for the root. */
  key: string;
  /** JSON Pointer of the value inside the arguments object ('' for the root). */
  path: string;
  kind: FieldKind;
  label: string;
  description?: string;
  required: boolean;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  /** For kind 'enum': the allowed values, in schema order. */
  enumValues?: unknown[];
  /** For kind 'object': its properties, in schema order. */
  fields?: FormField[];
  /** For kind 'array': the model of one item. */
  item?: FormField;
  minItems?: number;
  maxItems?: number;
  /** For kind 'json': why the form fell back to raw JSON. */
  fallbackReason?: string;
}

export interface FormModel {
  root: FormField;
  /** False when any part of the schema is edited as raw JSON. */
  fullyExpressible: boolean;
}

type Schema = Record<string, unknown>;

const UNSUPPORTED_KEYWORDS = ['anyOf', 'oneOf', 'allOf', '$ref', 'not', 'if', 'then', 'else', 'patternProperties', 'dependentSchemas'];

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function humanize(key: string): string {
  if (!key) return 'Arguments';
  const s = key.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function buildFormModel(schema: unknown): FormModel {
  let fallback = false;
  const visit = (s: unknown, key: string, path: string, required: boolean, depth: number): FormField => {
    const sch: Schema = s && typeof s === 'object' && !Array.isArray(s) ? (s as Schema) : {};
    const base: FormField = {
      key,
      path,
      kind: 'json',
      label: str(sch.title) ?? humanize(key),
      description: str(sch.description),
      required,
    };
    if (sch.default !== undefined) base.default = sch.default;
    const asJson = (reason: string): FormField => {
      fallback = true;
      return { ...base, kind: 'json', fallbackReason: reason };
    };
    const unsupported = UNSUPPORTED_KEYWORDS.find((k) => sch[k] !== undefined);
    if (unsupported) return asJson(l10n.t('uses {0}', unsupported));
    if (depth > 8) return asJson(l10n.t('nested too deeply'));
    if (Array.isArray(sch.enum) || sch.const !== undefined) {
      return { ...base, kind: 'enum', enumValues: Array.isArray(sch.enum) ? [...(sch.enum as unknown[])] : [sch.const] };
    }
    let type = sch.type;
    if (Array.isArray(type)) {
      // ["string", "null"] is the common way to say "optional": treat it as the non-null type.
      const nonNull = type.filter((t) => t !== 'null');
      if (nonNull.length !== 1) return asJson(l10n.t('has several types ({0})', type.join(', ')));
      type = nonNull[0];
    }
    if (type === undefined && sch.properties) type = 'object';
    switch (type) {
      case 'string':
        return {
          ...base,
          kind: 'string',
          minLength: num(sch.minLength),
          maxLength: num(sch.maxLength),
          pattern: str(sch.pattern),
          format: str(sch.format),
        };
      case 'number':
      case 'integer':
        return {
          ...base,
          kind: type,
          minimum: num(sch.minimum),
          maximum: num(sch.maximum),
          exclusiveMinimum: num(sch.exclusiveMinimum),
          exclusiveMaximum: num(sch.exclusiveMaximum),
          multipleOf: num(sch.multipleOf),
        };
      case 'boolean':
        return { ...base, kind: 'boolean' };
      case 'object': {
        const props = sch.properties && typeof sch.properties === 'object' ? (sch.properties as Record<string, unknown>) : {};
        const req = new Set(Array.isArray(sch.required) ? (sch.required as unknown[]).map(String) : []);
        if (Object.keys(props).length === 0 && sch.additionalProperties !== undefined && sch.additionalProperties !== false) {
          return asJson(l10n.t('is a free-form map'));
        }
        return {
          ...base,
          kind: 'object',
          fields: Object.entries(props).map(([k, v]) => visit(v, k, `${path}/${escapePointer(k)}`, req.has(k), depth + 1)),
        };
      }
      case 'array': {
        if (Array.isArray(sch.items) || sch.prefixItems !== undefined) return asJson(l10n.t('is a tuple'));
        const item = visit(sch.items ?? {}, '', `${path}/-`, true, depth + 1);
        item.label = l10n.t({ message: 'Item', comment: ['an element of a list in a tool form'] });
        return { ...base, kind: 'array', item, minItems: num(sch.minItems), maxItems: num(sch.maxItems) };
      }
      default:
        return asJson(type === undefined ? l10n.t('has no type') : l10n.t('has type {0}', String(type)));
    }
  };
  const root = visit(schema ?? { type: 'object' }, '', '', true, 0);
  return { root, fullyExpressible: !fallback };
}

export type ParsedInput = { ok: true; value: unknown; omit: boolean } | { ok: false; error: string };

/**
 * Converts what the user typed into one field into a typed value. Empty optional inputs are omitted
 * (not sent), so the server's defaults apply. Bounds are checked here too, for immediate feedback;
 * the host validates the whole object again before sending.
 */
export function parseFieldInput(field: FormField, raw: string | boolean): ParsedInput {
  if (field.kind === 'boolean') return { ok: true, value: raw === true || raw === 'true', omit: false };
  const text = typeof raw === 'string' ? raw : String(raw);
  if (text.trim() === '' && field.kind !== 'string') {
    return field.required ? { ok: false, error: l10n.t('{0} is required', field.label) } : { ok: true, value: undefined, omit: true };
  }
  switch (field.kind) {
    case 'string': {
      if (text === '') return field.required ? { ok: false, error: l10n.t('{0} is required', field.label) } : { ok: true, value: undefined, omit: true };
      if (field.minLength !== undefined && text.length < field.minLength) return { ok: false, error: field.minLength === 1 ? l10n.t('{0} needs at least 1 character', field.label) : l10n.t('{0} needs at least {1} characters', field.label, field.minLength) };
      if (field.maxLength !== undefined && text.length > field.maxLength) return { ok: false, error: field.maxLength === 1 ? l10n.t('{0} allows at most 1 character', field.label) : l10n.t('{0} allows at most {1} characters', field.label, field.maxLength) };
      return { ok: true, value: text, omit: false };
    }
    case 'number':
    case 'integer': {
      const n = Number(text.trim());
      if (!Number.isFinite(n)) return { ok: false, error: l10n.t('{0} must be a number', field.label) };
      if (field.kind === 'integer' && !Number.isInteger(n)) return { ok: false, error: l10n.t('{0} must be a whole number', field.label) };
      if (field.minimum !== undefined && n < field.minimum) return { ok: false, error: l10n.t('{0} must be at least {1}', field.label, field.minimum) };
      if (field.maximum !== undefined && n > field.maximum) return { ok: false, error: l10n.t('{0} must be at most {1}', field.label, field.maximum) };
      if (field.exclusiveMinimum !== undefined && n <= field.exclusiveMinimum) return { ok: false, error: l10n.t('{0} must be greater than {1}', field.label, field.exclusiveMinimum) };
      if (field.exclusiveMaximum !== undefined && n >= field.exclusiveMaximum) return { ok: false, error: l10n.t('{0} must be less than {1}', field.label, field.exclusiveMaximum) };
      return { ok: true, value: n, omit: false };
    }
    case 'enum': {
      // The UI offers options by index, so values of any JSON type survive the round trip.
      const values = field.enumValues ?? [];
      const idx = Number(text);
      if (!Number.isInteger(idx) || idx < 0 || idx >= values.length) return { ok: false, error: l10n.t('{0}: choose one of the options', field.label) };
      return { ok: true, value: values[idx], omit: false };
    }
    case 'json':
    case 'object':
    case 'array': {
      try {
        return { ok: true, value: JSON.parse(text), omit: false };
      } catch (e) {
        return { ok: false, error: l10n.t('{0} is not valid JSON: {1}', field.label, e instanceof Error ? e.message : String(e)) };
      }
    }
  }
}

/**
 * The most array items a starting value pre-creates in total. minItems comes from the server: without
 * a bound, `minItems: 1e9` (or nested arrays each asking for 100) would exhaust memory. Past it, arrays
 * start shorter and the host's validation says how many items are still needed.
 */
export const MAX_INITIAL_ITEMS = 100;

/**
 * The starting value of a field: its default, else for objects the defaults of their properties,
 * for required arrays [] (plus minItems items, at most MAX_INITIAL_ITEMS in the whole value), and
 * nothing otherwise.
 */
export function initialValue(field: FormField, budget: { items: number } = { items: MAX_INITIAL_ITEMS }): unknown {
  if (field.default !== undefined) return structuredClone(field.default);
  if (field.kind === 'object') {
    const out: Record<string, unknown> = {};
    for (const f of field.fields ?? []) {
      if (!f.required && f.kind !== 'object') continue;
      const v = initialValue(f, budget);
      if (v !== undefined) out[f.key] = v;
    }
    return Object.keys(out).length > 0 || field.required ? out : undefined;
  }
  if (field.kind === 'array' && field.required) {
    const n = Math.max(0, Math.min(Math.floor(field.minItems ?? 0), budget.items));
    budget.items -= n;
    return Array.from({ length: n }, () => (field.item ? (initialValue(field.item, budget) ?? null) : null));
  }
  if (field.kind === 'boolean' && field.required) return false;
  return undefined;
}

/** Text shown in an input for a value (the inverse of parseFieldInput). */
export function formatFieldValue(field: FormField, value: unknown): string {
  if (value === undefined) return '';
  if (field.kind === 'enum') {
    const i = (field.enumValues ?? []).findIndex((v) => JSON.stringify(v) === JSON.stringify(value));
    return i < 0 ? '' : String(i);
  }
  if (field.kind === 'json' || field.kind === 'object' || field.kind === 'array') return JSON.stringify(value, null, 2);
  return String(value);
}

/** Sets (or with value undefined, deletes) a value at a path of property names / indexes. */
export function setAtPath(root: Record<string, unknown>, segments: ReadonlyArray<string | number>, value: unknown): void {
  let cur: Record<string, unknown> | unknown[] = root;
  for (let i = 0; i < segments.length - 1; i++) {
    const seg = segments[i];
    const next = (cur as Record<string | number, unknown>)[seg];
    if (next === null || typeof next !== 'object') {
      const created: Record<string, unknown> | unknown[] = typeof segments[i + 1] === 'number' ? [] : {};
      (cur as Record<string | number, unknown>)[seg] = created;
      cur = created;
    } else {
      cur = next as Record<string, unknown> | unknown[];
    }
  }
  const last = segments[segments.length - 1];
  if (value === undefined) {
    if (Array.isArray(cur) && typeof last === 'number') cur.splice(last, 1);
    else delete (cur as Record<string | number, unknown>)[last];
  } else {
    (cur as Record<string | number, unknown>)[last] = value;
  }
}

/** One line summarising a field's constraints, for the form's hint text. */
export function describeConstraints(field: FormField): string {
  const parts: string[] = [];
  if (field.kind === 'integer') parts.push(l10n.t('whole number'));
  if (field.minimum !== undefined) parts.push(`≥ ${field.minimum}`);
  if (field.exclusiveMinimum !== undefined) parts.push(`> ${field.exclusiveMinimum}`);
  if (field.maximum !== undefined) parts.push(`≤ ${field.maximum}`);
  if (field.exclusiveMaximum !== undefined) parts.push(`< ${field.exclusiveMaximum}`);
  if (field.multipleOf !== undefined) parts.push(l10n.t('multiple of {0}', field.multipleOf));
  if (field.minLength !== undefined) parts.push(field.minLength === 1 ? l10n.t('at least 1 character') : l10n.t('at least {0} characters', field.minLength));
  if (field.maxLength !== undefined) parts.push(field.maxLength === 1 ? l10n.t('at most 1 character') : l10n.t('at most {0} characters', field.maxLength));
  if (field.pattern) parts.push(l10n.t('pattern {0}', field.pattern));
  if (field.format) parts.push(field.format);
  if (field.minItems !== undefined) parts.push(field.minItems === 1 ? l10n.t('at least 1 item') : l10n.t('at least {0} items', field.minItems));
  if (field.maxItems !== undefined) parts.push(field.maxItems === 1 ? l10n.t('at most 1 item') : l10n.t('at most {0} items', field.maxItems));
  if (field.default !== undefined) parts.push(l10n.t('default {0}', JSON.stringify(field.default)));
  return parts.join(', ');
}

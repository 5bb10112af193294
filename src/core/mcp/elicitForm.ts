/**
 * The form behind an MCP server's elicitation request (#42.2), vscode-free: which requested schemas a
 * form here can ask (MCP 2025-11-25's restricted schema: a flat object of string, number, integer,
 * boolean, single-select and multi-select enum properties), what is wrong with a value typed or chosen
 * for one field, and the host's last check of the whole answer before it goes to the server
 * (`problemWithContent`): the answer never carries a value the requested schema does not allow.
 *
 * Single select: `enum` (with the legacy `enumNames` as labels) or `oneOf`/`anyOf` of `{ const, title }`.
 * Multi select: `type: "array"` with `items: { type: "string", enum }` or `items: { anyOf: [{ const, title }] }`
 * (also `oneOf`), with `minItems` / `maxItems` and a default list. String formats email, uri, date and
 * date-time are checked here (linear-time checks, no regular expression from the server is ever run);
 * `password` only masks the box. Any other format, or a keyword that constrains a value in a way not
 * checked here (pattern, multipleOf, …), makes the whole form declined, with the reason in the user's
 * language (`fieldsOf` returns it as a string).
 *
 * Used by src/platform/mcpElicit.ts (the steps in the editor); tested in plain Node.
 */
import * as l10n from '../l10n';

export const MAX_FIELDS = 20;
export const MAX_MESSAGE_CHARS = 500;
/** Most choices of one enum (single or multi select). */
export const MAX_OPTIONS = 100;
/** Longest title, description or enum label shown. */
export const MAX_LABEL_CHARS = 120;
/** Longest text value checked or sent for a string field without its own maxLength. */
export const MAX_TEXT_CHARS = 10_000;

/** Server text made fit to show: control characters gone, whitespace folded, cut to `max`. */
export function shown(text: unknown, max = MAX_MESSAGE_CHARS): string {
  // eslint-disable-next-line no-control-regex
  const s = String(text ?? '').slice(0, max * 4).replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ').replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi';
export type StringFormat = 'email' | 'uri' | 'date' | 'date-time';
const FORMATS: ReadonlySet<string> = new Set<StringFormat>(['email', 'uri', 'date', 'date-time']);

export interface Field {
  name: string;
  kind: FieldKind;
  title: string;
  description?: string;
  required: boolean;
  secret: boolean;
  default?: unknown;
  /** enum and multi: the values and their labels. */
  options?: Array<{ value: string; label: string }>;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  /** string: a format checked here. */
  format?: StringFormat;
  /** multi: bounds on how many are chosen. */
  minItems?: number;
  maxItems?: number;
}

const SECRET_NAME = /pass(word|phrase)?|token|secret|api[-_]?key|credential|pin$/i;
/** Keywords that constrain a value in a way this form does not check: a field carrying one is not offered. */
const UNCHECKED_KEYWORDS = ['pattern', 'multipleOf', 'exclusiveMinimum', 'exclusiveMaximum', 'const', 'not', 'allOf', 'if', 'then', 'else', 'contains', 'minContains', 'maxContains', 'prefixItems', 'additionalItems', '$ref', 'dependentRequired', 'dependentSchemas'];

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
function count(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
}
function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Choices from `enum` (+ `enumNames`) or a list of `{ const, title }`; a string reason when they are not 1 to MAX_OPTIONS distinct strings. */
function optionsOf(p: Record<string, unknown>, name: string): Field['options'] | string | undefined {
  const bad = l10n.t('Field {0} has choices this form cannot offer.', name);
  let options: NonNullable<Field['options']>;
  if (Array.isArray(p.enum)) {
    if (p.enum.length === 0 || p.enum.length > MAX_OPTIONS || !p.enum.every((v) => typeof v === 'string')) return bad;
    const names = Array.isArray(p.enumNames) ? p.enumNames : [];
    options = (p.enum as string[]).map((value, i) => ({ value, label: shown(typeof names[i] === 'string' && names[i] ? names[i] : value, MAX_LABEL_CHARS) }));
  } else {
    const list = Array.isArray(p.oneOf) ? p.oneOf : Array.isArray(p.anyOf) ? p.anyOf : undefined;
    if (list === undefined) return undefined;
    if (list.length === 0 || list.length > MAX_OPTIONS || !list.every((o) => isPlain(o) && typeof o.const === 'string')) return bad;
    options = (list as Array<{ const: string; title?: unknown }>).map((o) => ({ value: o.const, label: shown(typeof o.title === 'string' && o.title ? o.title : o.const, MAX_LABEL_CHARS) }));
  }
  if (new Set(options.map((o) => o.value)).size !== options.length) return bad;
  return options;
}

/** The schema's fields, or the reason (in the user's language, naming no value) why no form is offered. */
export function fieldsOf(schema: Record<string, unknown>): Field[] | string {
  if (schema.type !== undefined && schema.type !== 'object') return l10n.t('The requested form is not a list of fields.');
  const props = schema.properties ?? {};
  if (!isPlain(props)) return l10n.t('The requested form is not a list of fields.');
  const entries = Object.entries(props);
  if (entries.length > MAX_FIELDS) return l10n.t('The requested form has {0} fields; at most {1} are asked.', entries.length, MAX_FIELDS);
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((x): x is string => typeof x === 'string') : []);
  const fields: Field[] = [];
  for (const [rawName, raw] of entries) {
    const name = shown(rawName, 40);
    if (!isPlain(raw)) return l10n.t('Field {0} has type {1}, which this form cannot ask.', name, 'null');
    const p = raw;
    const unchecked = UNCHECKED_KEYWORDS.find((k) => Object.hasOwn(p, k));
    if (unchecked) return l10n.t('Field {0} has a rule ({1}) that this form cannot check.', name, unchecked);
    let kind: FieldKind;
    let options = optionsOf(p, name);
    if (typeof options === 'string') return options;
    let minItems: number | undefined;
    let maxItems: number | undefined;
    if (options) {
      if (p.type !== undefined && p.type !== 'string') return l10n.t('Field {0} has choices this form cannot offer.', name);
      kind = 'enum';
    } else if (p.type === 'array') {
      const items = p.items;
      if (!isPlain(items)) return l10n.t('Field {0} is a list without choices, which this form cannot ask.', name);
      const itemUnchecked = UNCHECKED_KEYWORDS.find((k) => Object.hasOwn(items, k));
      if (itemUnchecked) return l10n.t('Field {0} has a rule ({1}) that this form cannot check.', name, itemUnchecked);
      if (items.type !== undefined && items.type !== 'string') return l10n.t('Field {0} has choices this form cannot offer.', name);
      options = optionsOf(items, name);
      if (typeof options === 'string') return options;
      if (!options) return l10n.t('Field {0} is a list without choices, which this form cannot ask.', name);
      minItems = count(p.minItems);
      maxItems = count(p.maxItems);
      if ((p.minItems !== undefined && minItems === undefined) || (p.maxItems !== undefined && maxItems === undefined)) return l10n.t('Field {0} has bounds on its choices that no answer can meet.', name);
      // A bound no choice can meet: the form could never be sent.
      if ((minItems ?? 0) > Math.min(maxItems ?? Infinity, options.length)) return l10n.t('Field {0} has bounds on its choices that no answer can meet.', name);
      kind = 'multi';
    } else if (p.type === 'string' || p.type === 'number' || p.type === 'integer' || p.type === 'boolean') {
      kind = p.type;
    } else {
      // Nested objects and anything else are not part of a flat form.
      return l10n.t('Field {0} has type {1}, which this form cannot ask.', name, shown(JSON.stringify(p.type ?? null), 40));
    }
    let format: StringFormat | undefined;
    if (p.format !== undefined && p.format !== 'password') {
      if (kind !== 'string' || typeof p.format !== 'string' || !FORMATS.has(p.format)) return l10n.t('Field {0} has a rule ({1}) that this form cannot check.', name, `format ${shown(JSON.stringify(p.format), 40)}`);
      format = p.format as StringFormat;
    }
    const f: Field = {
      name: rawName,
      kind,
      title: shown(typeof p.title === 'string' && p.title ? p.title : rawName, MAX_LABEL_CHARS),
      required: required.has(rawName),
      secret: kind === 'string' && !format && (p.format === 'password' || p.writeOnly === true || SECRET_NAME.test(rawName)),
    };
    if (typeof p.description === 'string' && p.description) f.description = shown(p.description, MAX_MESSAGE_CHARS);
    if (p.default !== undefined) f.default = p.default;
    if (options) f.options = options;
    if (format) f.format = format;
    const min = num(p.minimum);
    const max = num(p.maximum);
    const minLen = num(p.minLength);
    const maxLen = num(p.maxLength);
    if (min !== undefined) f.minimum = min;
    if (max !== undefined) f.maximum = max;
    if (minLen !== undefined) f.minLength = minLen;
    if (maxLen !== undefined) f.maxLength = maxLen;
    if (minItems !== undefined) f.minItems = minItems;
    if (maxItems !== undefined) f.maxItems = maxItems;
    fields.push(f);
  }
  return fields;
}

// ---------------------------------------------------------------------------------------------------
// String formats. Each check is linear in the text (fixed-width pieces, no nested repetition) and the
// text is bounded first; nothing from the server is compiled into a regular expression.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
// eslint-disable-next-line no-control-regex
const LOCAL_PART = /^[^\s@"(),:;<>[\\\]\u0000-\u001f\u007f]+$/;

function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]!;
  return d <= days;
}

function isDateTime(text: string): boolean {
  const m = DATE_TIME.exec(text);
  if (!m || !isDate(m[1]!)) return false;
  if (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4]) > 59) return false;
  return m[5] === undefined || (Number(m[6]) <= 23 && Number(m[7]) <= 59);
}

function isEmail(text: string): boolean {
  if (text.length > 254) return false;
  const at = text.indexOf('@');
  if (at <= 0 || at !== text.lastIndexOf('@') || at > 64) return false;
  const local = text.slice(0, at);
  if (!LOCAL_PART.test(local) || local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  const labels = text.slice(at + 1).split('.');
  return labels.length >= 2 && labels.every((l) => DOMAIN_LABEL.test(l)) && !/^\d+$/.test(labels.at(-1)!);
}

function isUri(text: string): boolean {
  // An absolute URI (RFC 3986: a scheme, then no spaces or control characters), which the URL parser reads.
  // eslint-disable-next-line no-control-regex
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:[^\s\u0000-\u001f\u007f<>"{}|\\^`]*$/.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** Whether `text` is a value of `format`. */
export function matchesFormat(format: StringFormat, text: string): boolean {
  if (text.length > MAX_TEXT_CHARS) return false;
  switch (format) {
    case 'email':
      return isEmail(text);
    case 'uri':
      return isUri(text);
    case 'date':
      return isDate(text);
    case 'date-time':
      return isDateTime(text);
  }
}

/** What to type for a format, shown beside the field's title (an example, not a value). */
export function formatHint(format: StringFormat): string {
  switch (format) {
    case 'email':
      return l10n.t('an email address, such as name@example.com');
    case 'uri':
      return l10n.t('an address with its scheme, such as https://example.com/page');
    case 'date':
      return l10n.t('a date as YYYY-MM-DD, such as 2026-11-29');
    case 'date-time':
      return l10n.t('a date and time as YYYY-MM-DDTHH:MM:SS with Z or an offset, such as 2026-11-29T14:00:00Z');
  }
}

function formatProblem(format: StringFormat): string {
  return l10n.t({ message: 'Enter {0}.', args: [formatHint(format)], comment: ['{0} is what to type, such as "an email address, such as name@example.com"'] });
}

/** Length as JSON Schema counts it: in code points. */
function chars(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Why a number is not a value of the field, or undefined. */
function numberProblem(f: Field, n: number): string | undefined {
  if (!Number.isFinite(n)) return l10n.t('Enter a number.');
  if (f.kind === 'integer' && !Number.isInteger(n)) return l10n.t('Enter a whole number.');
  if (f.minimum !== undefined && n < f.minimum) return l10n.t('Enter at least {0}.', f.minimum);
  if (f.maximum !== undefined && n > f.maximum) return l10n.t('Enter at most {0}.', f.maximum);
  return undefined;
}

/** Why a text is not a value of a string field, or undefined. */
function textProblem(f: Field, text: string): string | undefined {
  if (text.length > MAX_TEXT_CHARS && f.maxLength === undefined) return l10n.t('Enter at most {0} characters.', MAX_TEXT_CHARS);
  const n = chars(text);
  if (f.minLength !== undefined && n < f.minLength) return l10n.t('Enter at least {0} characters.', f.minLength);
  if (f.maxLength !== undefined && n > f.maxLength) return l10n.t('Enter at most {0} characters.', f.maxLength);
  if (f.format && !matchesFormat(f.format, text)) return formatProblem(f.format);
  return undefined;
}

/** Why the text typed for a text or number field is not a valid value, or undefined when it is (empty: left out, unless required). */
export function problemWith(f: Field, text: string): string | undefined {
  if (text === '') return f.required ? l10n.t('{0} is required.', f.title) : undefined;
  if (f.kind === 'number' || f.kind === 'integer') return text.trim() === '' ? l10n.t('Enter a number.') : numberProblem(f, Number(text.trim()));
  return textProblem(f, text);
}

/**
 * Whether a multi-select with nothing chosen is left out of the answer (the server's default applies)
 * rather than sent as an empty list: only when the field is optional and an empty list is not allowed.
 */
export function leftOutWhenEmpty(f: Field): boolean {
  return !f.required && (f.minItems ?? 0) > 0;
}

/** Why a multi-select's choices cannot be sent, or undefined when they can. */
export function problemWithChoices(f: Field, values: readonly string[]): string | undefined {
  if (values.length === 0 && leftOutWhenEmpty(f)) return undefined;
  const min = f.minItems ?? 0;
  if (values.length < min) return l10n.t('Choose at least {0}.', min);
  if (f.maxItems !== undefined && values.length > f.maxItems) return l10n.t('Choose at most {0}.', f.maxItems);
  return undefined;
}

/** The default choices of a multi-select that are among its options (others are ignored). */
export function defaultChoices(f: Field): string[] {
  if (!Array.isArray(f.default)) return [];
  const known = new Set((f.options ?? []).map((o) => o.value));
  return [...new Set(f.default.filter((v): v is string => typeof v === 'string' && known.has(v)))];
}

/**
 * The host's last check of an accepted answer before it is sent: every key a field of the form, every
 * value of its field's type and within its bounds, choices among the options, formats matched, and
 * every required field answered or left to its default. The reason (naming the field, never the
 * value) when something is wrong, else undefined.
 */
export function problemWithContent(fields: readonly Field[], content: unknown): string | undefined {
  if (!isPlain(content)) return l10n.t('The requested form is not a list of fields.');
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const key of Object.keys(content)) if (!byName.has(key)) return l10n.t('The value of {0} does not match the form.', shown(key, 40));
  for (const f of fields) {
    const name = shown(f.name, 40);
    if (!Object.hasOwn(content, f.name)) {
      if (f.required && f.default === undefined) return l10n.t('{0} is required.', name);
      continue;
    }
    const v = content[f.name];
    const wrong = l10n.t('The value of {0} does not match the form.', name);
    switch (f.kind) {
      case 'string':
        if (typeof v !== 'string' || textProblem(f, v) !== undefined) return wrong;
        break;
      case 'number':
      case 'integer':
        if (typeof v !== 'number' || numberProblem(f, v) !== undefined) return wrong;
        break;
      case 'boolean':
        if (typeof v !== 'boolean') return wrong;
        break;
      case 'enum':
        if (typeof v !== 'string' || !f.options!.some((o) => o.value === v)) return wrong;
        break;
      case 'multi': {
        if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && f.options!.some((o) => o.value === x)) || new Set(v).size !== v.length) return wrong;
        const min = f.minItems ?? 0;
        if (v.length < min || (f.maxItems !== undefined && v.length > f.maxItems)) return wrong;
        break;
      }
    }
  }
  return undefined;
}

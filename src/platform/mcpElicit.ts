/**
 * Elicitation in the editor (#42.2): answers an MCP server's elicitation/create request (core
 * mcpClient.ts ElicitHandler) for a server the user added. Loaded with import() on the first
 * connection to such a server, never at activation.
 *
 * Form mode: a first step shows the server's name and message with "Answer" and "Decline"; then one
 * input step per field of the requested schema (a flat object of string, number, integer, boolean and
 * enum properties, as MCP allows), pre-filled with the schema's defaults and checked against its type,
 * bounds and enum. Escape anywhere answers `cancel`, Decline answers `decline`, the last step `accept`.
 * A field the schema marks as a password (format "password", or named like password/token/secret) is
 * asked in a password box, and no value is ever logged. Fields left empty are left out, so the client
 * fills in their defaults (SEP-1034).
 *
 * URL mode: a modal names the URL's host with "Don't Open" as the default; only an http(s) URL is
 * opened, and only after the user chooses Open (`accept`); anything else is `decline`.
 *
 * Hostile input: the message is cut to MAX_MESSAGE_CHARS and stripped of control characters; a schema
 * with more than MAX_FIELDS fields, a nested object, an array or an unknown type is declined with a
 * note in the log (no form shown).
 */
import * as vscode from 'vscode';
import { judgeToolLink } from '../core/mcp/toolLink';
import type { ElicitAnswer, ElicitHandler, ElicitRequest } from '../core/mcp/mcpClient';
import type { Logger } from '../core/log';
import { confirmRisky } from './safeDialog';
import { inputStep, pickStep } from './stepInput';

export const MAX_FIELDS = 20;
export const MAX_MESSAGE_CHARS = 500;
/** Longest title, description or enum label shown. */
const MAX_LABEL_CHARS = 120;

/** Server text made fit to show: control characters gone, whitespace folded, cut to `max`. */
export function shown(text: unknown, max = MAX_MESSAGE_CHARS): string {
  // eslint-disable-next-line no-control-regex
  const s = String(text ?? '').slice(0, max * 4).replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ').replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum';

export interface Field {
  name: string;
  kind: FieldKind;
  title: string;
  description?: string;
  required: boolean;
  secret: boolean;
  default?: unknown;
  /** enum: the values and their labels. */
  options?: Array<{ value: string; label: string }>;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}

const SECRET_NAME = /pass(word|phrase)?|token|secret|api[-_]?key|credential|pin$/i;

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** The schema's fields, or a reason (for the log, never shown with values) why no form is offered. */
export function fieldsOf(schema: Record<string, unknown>): Field[] | string {
  if (schema.type !== undefined && schema.type !== 'object') return 'the requested schema is not an object';
  const props = schema.properties ?? {};
  if (typeof props !== 'object' || props === null || Array.isArray(props)) return 'the requested schema has no properties object';
  const entries = Object.entries(props as Record<string, unknown>);
  if (entries.length > MAX_FIELDS) return `the requested schema has ${entries.length} fields (at most ${MAX_FIELDS} are asked)`;
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((x): x is string => typeof x === 'string') : []);
  const fields: Field[] = [];
  for (const [name, raw] of entries) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return `field ${shown(name, 40)} has no schema`;
    const p = raw as Record<string, unknown>;
    let kind: FieldKind;
    let options: Field['options'];
    if (Array.isArray(p.enum)) {
      if (p.enum.length === 0 || p.enum.length > 100 || !p.enum.every((v) => typeof v === 'string')) return `field ${shown(name, 40)} has an enum that is not 1 to 100 strings`;
      const names = Array.isArray(p.enumNames) ? p.enumNames : [];
      options = (p.enum as string[]).map((value, i) => ({ value, label: shown(typeof names[i] === 'string' ? names[i] : value, MAX_LABEL_CHARS) }));
      kind = 'enum';
    } else if (Array.isArray(p.oneOf)) {
      const opts = p.oneOf as unknown[];
      if (opts.length === 0 || opts.length > 100 || !opts.every((o) => typeof o === 'object' && o !== null && typeof (o as { const?: unknown }).const === 'string')) return `field ${shown(name, 40)} has a oneOf that is not 1 to 100 string constants`;
      options = (opts as Array<{ const: string; title?: unknown }>).map((o) => ({ value: o.const, label: shown(typeof o.title === 'string' ? o.title : o.const, MAX_LABEL_CHARS) }));
      kind = 'enum';
    } else if (p.type === 'string' || p.type === 'number' || p.type === 'integer' || p.type === 'boolean') {
      kind = p.type;
    } else {
      // Nested objects, arrays (multi-select) and anything else are not part of a flat form.
      return `field ${shown(name, 40)} has type ${shown(JSON.stringify(p.type ?? null), 40)}, which a form here does not ask`;
    }
    const f: Field = {
      name,
      kind,
      title: shown(typeof p.title === 'string' && p.title ? p.title : name, MAX_LABEL_CHARS),
      required: required.has(name),
      secret: kind === 'string' && (p.format === 'password' || p.writeOnly === true || SECRET_NAME.test(name)),
    };
    if (typeof p.description === 'string' && p.description) f.description = shown(p.description, MAX_MESSAGE_CHARS);
    if (p.default !== undefined) f.default = p.default;
    if (options) f.options = options;
    const min = num(p.minimum);
    const max = num(p.maximum);
    const minLen = num(p.minLength);
    const maxLen = num(p.maxLength);
    if (min !== undefined) f.minimum = min;
    if (max !== undefined) f.maximum = max;
    if (minLen !== undefined) f.minLength = minLen;
    if (maxLen !== undefined) f.maxLength = maxLen;
    fields.push(f);
  }
  return fields;
}

/** Why the text typed for a field is not a valid value, or undefined when it is (empty: see `required`). */
export function problemWith(f: Field, text: string): string | undefined {
  if (text === '') return f.required ? vscode.l10n.t('{0} is required.', f.title) : undefined;
  if (f.kind === 'number' || f.kind === 'integer') {
    const n = Number(text.trim());
    if (text.trim() === '' || !Number.isFinite(n)) return vscode.l10n.t('Enter a number.');
    if (f.kind === 'integer' && !Number.isInteger(n)) return vscode.l10n.t('Enter a whole number.');
    if (f.minimum !== undefined && n < f.minimum) return vscode.l10n.t('Enter at least {0}.', f.minimum);
    if (f.maximum !== undefined && n > f.maximum) return vscode.l10n.t('Enter at most {0}.', f.maximum);
    return undefined;
  }
  if (f.minLength !== undefined && text.length < f.minLength) return vscode.l10n.t('Enter at least {0} characters.', f.minLength);
  if (f.maxLength !== undefined && text.length > f.maxLength) return vscode.l10n.t('Enter at most {0} characters.', f.maxLength);
  return undefined;
}

interface Choice extends vscode.QuickPickItem {
  value: string | boolean | undefined;
}

/** Elicitation requests are asked one at a time: a second quick input would hide (cancel) the first. */
let queue: Promise<unknown> = Promise.resolve();

/** The handler for one server the user added (`serverName` is its label from settings). */
export function elicitHandlerFor(serverName: string, log: Logger): ElicitHandler {
  return (request, signal) => {
    const next = queue.then(() => (signal.aborted ? ({ action: 'cancel' } as const) : answer(serverName, request, signal, log)));
    queue = next.catch(() => undefined);
    return next;
  };
}

async function answer(serverName: string, request: ElicitRequest, signal: AbortSignal, log: Logger): Promise<ElicitAnswer> {
  return request.mode === 'url' ? answerUrl(serverName, request, log) : answerForm(serverName, request, signal, log);
}

async function answerUrl(serverName: string, request: Extract<ElicitRequest, { mode: 'url' }>, log: Logger): Promise<ElicitAnswer> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    log.warn(`MCP: ${serverName} asked to open a URL that does not parse; declined.`);
    return { action: 'decline' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    log.warn(`MCP: ${serverName} asked to open a ${shown(url.protocol, 20)} URL; only http(s) is opened; declined.`);
    return { action: 'decline' };
  }
  // The same judgement as a link in a tool's result (toolLink.ts): credentials in the URL are refused, and a
  // host on this computer or a private network, or plain http, is named in the question.
  const verdict = judgeToolLink(request.url);
  if (verdict.kind !== 'confirm') {
    log.warn(`MCP: ${serverName} asked to open a URL that is not opened (${verdict.kind === 'refuse' ? verdict.reason : 'not a web link'}); declined.`);
    return { action: 'decline' };
  }
  const message = shown(request.message);
  const go = await confirmRisky({
    message: vscode.l10n.t('{0} asks you to open {1}', shown(serverName, MAX_LABEL_CHARS), url.host),
    detail: [verdict.warning, message, shown(url.href, 300)].filter(Boolean).join('\n\n'),
    safe: vscode.l10n.t("Don't Open"),
    action: vscode.l10n.t('Open in Browser'),
  });
  if (!go) return { action: 'decline' };
  // As text (see mcpOAuth.ts authorize): a vscode.Uri would be re-encoded on the way and mangle a query that carries a URL.
  const opened = await vscode.env.openExternal(url.href as unknown as vscode.Uri);
  return opened ? { action: 'accept' } : { action: 'decline' };
}

async function answerForm(serverName: string, request: Extract<ElicitRequest, { mode: 'form' }>, signal: AbortSignal, log: Logger): Promise<ElicitAnswer> {
  const fields = fieldsOf(request.requestedSchema);
  if (typeof fields === 'string') {
    log.warn(`MCP: ${serverName} asked for input with a form that is not offered (${fields}); declined.`);
    return { action: 'decline' };
  }
  const title = vscode.l10n.t('{0} asks for input', shown(serverName, MAX_LABEL_CHARS));
  const totalSteps = fields.length + 1;
  const message = shown(request.message);
  const respond: Choice = { label: vscode.l10n.t({ message: 'Answer', comment: ['a verb: fill in the form an MCP server asks for'] }), description: fields.length === 0 ? undefined : fields.length === 1 ? vscode.l10n.t('1 field') : vscode.l10n.t('{0} fields', fields.length), value: true };
  const decline: Choice = { label: vscode.l10n.t('Decline'), description: vscode.l10n.t('Tell the server no'), value: false };
  const first = await pickStep([respond, decline], { title, step: 1, totalSteps, placeHolder: message, active: respond, signal });
  if (first === undefined) return { action: 'cancel' };
  if (first === decline) return { action: 'decline' };
  const content: Record<string, unknown> = {};
  for (const [i, f] of fields.entries()) {
    const step = i + 2;
    const prompt = [f.title + (f.required ? '' : ` ${vscode.l10n.t('(optional)')}`), f.description].filter(Boolean).join(': ');
    if (f.kind === 'boolean' || f.kind === 'enum') {
      const items: Choice[] =
        f.kind === 'boolean'
          ? [
              { label: vscode.l10n.t({ message: 'Yes', comment: ['the value true of a yes/no field in a form'] }), value: true },
              { label: vscode.l10n.t({ message: 'No', comment: ['the value false of a yes/no field in a form'] }), value: false },
            ]
          : f.options!.map((o) => ({ label: o.label, ...(o.label !== o.value ? { description: shown(o.value, MAX_LABEL_CHARS) } : {}), value: o.value }));
      if (!f.required) items.push({ label: vscode.l10n.t('Leave Out'), description: vscode.l10n.t('the server uses its default'), value: undefined });
      const active = items.find((c) => c.value !== undefined && c.value === f.default);
      const picked = await pickStep(items, { title, step, totalSteps, placeHolder: prompt, ...(active ? { active } : {}), signal });
      if (picked === undefined) return { action: 'cancel' };
      if (picked.value !== undefined) content[f.name] = picked.value;
      continue;
    }
    const initial = typeof f.default === 'string' || typeof f.default === 'number' ? String(f.default) : '';
    const text = await inputStep({
      title,
      step,
      totalSteps,
      prompt,
      value: initial,
      password: f.secret,
      validateInput: (v) => problemWith(f, v),
      signal,
    });
    if (text === undefined) return { action: 'cancel' };
    if (text === '') continue;
    content[f.name] = f.kind === 'string' ? text : Number(text.trim());
  }
  // Field names only: values (some of them secrets) are never logged.
  log.info(`MCP: answered ${serverName}'s request for input (${shown(Object.keys(content).join(', '), 300) || 'no fields'}).`);
  return { action: 'accept', content };
}

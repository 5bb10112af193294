/**
 * Elicitation in the editor (#42.2): answers an MCP server's elicitation/create request (core
 * mcpClient.ts ElicitHandler) for a server the user added. Loaded with import() on the first
 * connection to such a server, never at activation.
 *
 * Form mode: a first step shows the server's name and message with "Answer" and "Decline"; then one
 * input step per field of the requested schema (a flat object of string, number, integer, boolean,
 * enum and multi-select properties, as MCP allows; which ones: src/core/mcp/elicitForm.ts), pre-filled
 * with the schema's defaults and checked against its type, bounds, enum, format and minItems/maxItems
 * (a multi-select is a pick with check boxes). Escape anywhere answers `cancel`, Decline answers
 * `decline`, the last step `accept`, after the whole answer is checked once more against the form
 * (`problemWithContent`): nothing the requested schema does not allow is sent.
 * A field the schema marks as a password (format "password", or named like password/token/secret) is
 * asked in a password box, and no value is ever logged. Fields left empty are left out, so the client
 * fills in their defaults (SEP-1034).
 *
 * URL mode: a modal names the URL's host with "Don't Open" as the default; only an http(s) URL is
 * opened, and only after the user chooses Open (`accept`); anything else is `decline`.
 *
 * Hostile input: the message is cut to MAX_MESSAGE_CHARS and stripped of control characters; a schema
 * with more than MAX_FIELDS fields, a nested object, a list without choices, a format or rule not
 * checked here, or an unknown type is declined without a form, and the user is told why (a warning
 * naming the server and the reason; the same in the log).
 */
import * as vscode from 'vscode';
import { judgeToolLink } from '../core/mcp/toolLink';
import type { ElicitAnswer, ElicitHandler, ElicitRequest } from '../core/mcp/mcpClient';
import type { Logger } from '../core/log';
import { defaultChoices, fieldsOf, formatHint, leftOutWhenEmpty, MAX_LABEL_CHARS, problemWith, problemWithChoices, problemWithContent, shown } from '../core/mcp/elicitForm';
import { confirmRisky } from './safeDialog';
import { inputStep, multiPickStep, pickStep } from './stepInput';

export { fieldsOf, MAX_FIELDS, MAX_MESSAGE_CHARS, problemWith, shown, type Field } from '../core/mcp/elicitForm';

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
    void vscode.window.showWarningMessage(vscode.l10n.t('{0} asked for input with a form this editor cannot show, so the server was told no. {1}', shown(serverName, MAX_LABEL_CHARS), fields));
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
    if (f.kind === 'multi') {
      const items: Choice[] = f.options!.map((o) => ({ label: o.label, ...(o.label !== o.value ? { description: shown(o.value, MAX_LABEL_CHARS) } : {}), value: o.value }));
      const defaults = new Set(defaultChoices(f));
      const hint = vscode.l10n.t('Down Arrow, then Space checks; Enter goes on.');
      const picked = await multiPickStep(items, {
        title,
        step,
        totalSteps,
        placeHolder: `${prompt} (${hint})`,
        selected: items.filter((c) => defaults.has(c.value as string)),
        validate: (chosen) => problemWithChoices(f, chosen.map((c) => c.value as string)),
        signal,
      });
      if (picked === undefined) return { action: 'cancel' };
      if (picked.length === 0 && leftOutWhenEmpty(f)) continue;
      content[f.name] = picked.map((c) => c.value as string);
      continue;
    }
    const initial = typeof f.default === 'string' || typeof f.default === 'number' ? String(f.default) : '';
    const text = await inputStep({
      title,
      step,
      totalSteps,
      prompt,
      ...(f.format ? { placeHolder: formatHint(f.format) } : {}),
      value: initial,
      password: f.secret,
      validateInput: (v) => problemWith(f, v),
      signal,
    });
    if (text === undefined) return { action: 'cancel' };
    if (text === '') continue;
    content[f.name] = f.kind === 'string' ? text : Number(text.trim());
  }
  // The host's own check before anything is sent: a value the requested schema does not allow never leaves.
  const problem = problemWithContent(fields, content);
  if (problem !== undefined) {
    log.warn(`MCP: the answer to ${serverName}'s request for input does not match its form (${problem}); declined.`);
    void vscode.window.showWarningMessage(vscode.l10n.t('The answer to {0} does not match the form it asked for, so the server was told no. {1}', shown(serverName, MAX_LABEL_CHARS), problem));
    return { action: 'decline' };
  }
  // Field names only: values (some of them secrets) are never logged.
  log.info(`MCP: answered ${serverName}'s request for input (${shown(Object.keys(content).join(', '), 300) || 'no fields'}).`);
  return { action: 'accept', content };
}

/**
 * The `@gateway` chat participant's handler (imported on the first request; the stub that VS Code
 * calls is src/participant/registerParticipant.ts). Its commands run on the file attached to the
 * chat request (a file, or a selection in one, from the workspace only), else on the active editor,
 * or on the selection when there is one:
 *   /alt      alt text for the images without it, offered as one diff to apply
 *   /summary  a summary of the selection or the document
 *   /tags     categories and tags; in Markdown offered as a front matter diff to apply
 *   /sites    the account's sites (the gateway's MCP tool list_account_sites)
 *   /spend    today's spend and the budgets
 *
 * The same work, confirmations and costs as the palette commands: the budget guard and the cost
 * before sending (src/platform/contentSend.ts), the content operations of src/core/content, priced
 * replies recorded in the spend ledger (src/platform/recordingClient.ts). Edits are never applied
 * here: the response gets a button that opens the diff (src/platform/proposedChange.ts), where the
 * user accepts or discards. The request's token cancels the request; errors are answered in words
 * with the button that helps.
 *
 * Model: when the model picked in that chat is one of the gateway's (vendor ai-gateway) and can do
 * the operation, its id goes to the gateway; otherwise the configured default model does and the
 * answer says so. The editor-side pieces come in through ParticipantDeps so the handler is tested
 * with fakes (test/unit/participant/participantHandler.test.ts).
 */
import * as vscode from 'vscode';
import { altTextEdit, classifySrc, surroundingContext, type OffsetEdit } from '../core/content/altText';
import { generateAltText, suggestTaxonomy, summarize, type ContentCapability, type ContentDeps, type ContentModel } from '../core/content/contentClient';
import { mergeTaxonomy, newFrontMatter, readTaxonomy, type Taxonomy } from '../core/content/frontMatter';
import { resolveJsxImportedSrc, scanImagesNeedingAlt, syntaxForLanguage, type ImageRef } from '../core/content/imageRefs';
import { requestText } from '../core/content/placement';
import type { ImageSource } from '../core/content/wire';
import type { IGatewayClient } from '../core/gateway/api';
import type { ModelPricing, Usage } from '../core/gateway/types';
import { isGatewayError } from '../core/http/errors';
import { LM_VENDOR } from '../core/lm/vendor';
import type { Logger } from '../core/log';
import { formatCredits, usageCostNano } from '../core/pricing';
import { readChatUsage } from '../core/gateway/usage';
import { signalFromToken, type CancellationTokenLike } from '../platform/cancellation';
import { markStepDone } from '../platform/walkthroughProgress';

export type ParticipantCommand = 'alt' | 'summary' | 'tags' | 'sites' | 'spend';
export const PARTICIPANT_COMMANDS: readonly ParticipantCommand[] = ['alt', 'summary', 'tags', 'sites', 'spend'];

/** The document a command works on: the file attached to the request, or the active editor. */
export interface EditorSnapshot {
  uri: vscode.Uri;
  languageId: string;
  text: string;
  version: number;
  /** Offsets of a non-empty selection. */
  selection?: { start: number; end: number };
}

export interface SiteRow {
  site_id: string;
  name: string;
  url: string;
  cms_connection_status?: string;
}

export interface SpendState {
  dayNano: bigint;
  monthNano: bigint;
  dailyNano?: bigint;
  monthlyNano?: bigint;
  source: 'gateway' | 'ledger';
}

export type CatalogModel = ContentModel & { pricing?: ModelPricing; display_name?: string };

/** The file attached to a chat request, read (participantEditor.ts), or why it is not used. */
export type AttachedDocument = { kind: 'none' } | { kind: 'document'; editor: EditorSnapshot } | { kind: 'refused'; message: string };

export interface ParticipantDeps {
  activeEditor(): EditorSnapshot | undefined;
  /**
   * The first file (or selection in a file) attached to the request (VS Code's chat `references`),
   * opened: `none` when nothing usable is attached, `refused` (with the words why) for a file outside
   * the workspace or one that cannot be read as text. Absent: attachments are not looked at.
   */
  attachedDocument?(references: readonly unknown[]): Promise<AttachedDocument>;
  /** The catalog's model with this id, if the catalog has one. */
  catalogModel(id: string): CatalogModel | undefined;
  /** The configured default model for the capability (setting, else the catalog's first fit). */
  defaultModel(capability: ContentCapability): Promise<ContentModel | undefined>;
  /** Budget guard and cost before sending; false when the user stopped. */
  confirmSend(operation: string, modelId: string | undefined, promptText?: string): Promise<boolean>;
  /** The gateway client, recording priced replies in the spend ledger. */
  client(capability: ContentCapability): Promise<IGatewayClient>;
  imageFor(editor: EditorSnapshot, ref: ImageRef): Promise<ImageSource>;
  /** Restricted Mode: may `count` local image files be read and sent? True in a trusted workspace. */
  confirmReadLocal(count: number): Promise<boolean>;
  /** Keeps the edits for the preview and returns the command of the button that opens it. */
  offerEdit(editor: EditorSnapshot, edits: OffsetEdit[], title: string): vscode.Command;
  listSites(signal: AbortSignal): Promise<SiteRow[]>;
  spendToday(): Promise<SpendState>;
  log: Pick<Logger, 'info' | 'warn'>;
}

/** The parts of vscode.ChatResponseStream the handler uses (a fake one in the unit tests). */
export type ResponseStream = Pick<vscode.ChatResponseStream, 'markdown' | 'button' | 'progress'>;

export interface ParticipantRequest {
  command?: string;
  prompt: string;
  /** The chat request's references (`ChatPromptReference`s: attached files, selections, variables). */
  references?: readonly unknown[];
  model?: { vendor: string; id: string; name?: string };
}

export interface ParticipantResult extends vscode.ChatResult {
  metadata?: { command?: string; edit?: boolean };
}

const md = (text: string): vscode.MarkdownString => {
  const m = new vscode.MarkdownString(text);
  m.supportHtml = false;
  return m;
};

/** Plain text inside Markdown: nothing the gateway or a document says becomes markup or a link. */
function escapeMd(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}

function fileName(uri: vscode.Uri): string {
  return uri.path.split('/').pop() || uri.path;
}

class Cancelled extends Error {}

/** Wraps the client so the handler learns the price of every reply that reports its tokens. */
function meteredClient(client: IGatewayClient, pricingOf: (model: string) => ModelPricing | undefined, onCost: (nano: bigint | undefined) => void): IGatewayClient {
  // `wire`: a postJson answer, whose usage is still the chat-completions wire's (gateway/usage.ts reads it).
  const seen = (body: unknown, data: unknown, wire = false): void => {
    const raw = (data as { usage?: unknown } | null)?.usage;
    const usage = wire ? readChatUsage(raw) : (raw as Usage | undefined);
    if (!usage || typeof usage !== 'object') return;
    const model = (data as { model?: unknown } | null)?.model ?? (body as { model?: unknown } | null)?.model;
    const pricing = typeof model === 'string' ? pricingOf(model) : undefined;
    onCost(pricing ? usageCostNano(pricing, usage) : undefined);
  };
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === 'postJson') {
        return async (path: string, body: unknown, options?: Parameters<IGatewayClient['postJson']>[2]) => {
          const res = await target.postJson<unknown>(path, body, options);
          seen(body, res.data, true);
          return res;
        };
      }
      if (prop === 'createChatCompletion') {
        return async (request: Parameters<IGatewayClient['createChatCompletion']>[0], options?: Parameters<IGatewayClient['createChatCompletion']>[1]) => {
          const res = await target.createChatCompletion(request, options);
          seen(request, res.data);
          return res;
        };
      }
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

interface Run {
  deps: ParticipantDeps;
  request: ParticipantRequest;
  stream: ResponseStream;
  token: CancellationTokenLike;
  signal: AbortSignal;
}

/**
 * The model for `capability`: the chat's model when it is one of the gateway's that can do it, else
 * the default (and a sentence saying so).
 */
async function modelFor(run: Run, capability: ContentCapability): Promise<{ model: ContentModel | undefined; note?: string }> {
  const picked = run.request.model;
  const fallback = await run.deps.defaultModel(capability);
  const fallbackName = fallback?.id ?? vscode.l10n.t('the default model');
  if (picked && picked.vendor === LM_VENDOR) {
    const m = run.deps.catalogModel(picked.id);
    if (m && (m.capabilities === undefined || m.capabilities.includes(capability))) return { model: { id: m.id, context_window: m.context_window, capabilities: m.capabilities, max_output_tokens: m.max_output_tokens } };
    return { model: fallback, note: vscode.l10n.t('{0} cannot do this, so your default model {1} did.', picked.id, fallbackName) };
  }
  const name = picked?.name ?? picked?.id ?? vscode.l10n.t('the picked model');
  return { model: fallback, note: vscode.l10n.t('{0} is not one of the AI Gateway models, so your default model {1} did this. Pick an AI Gateway model in the chat to use it instead.', name, fallbackName) };
}

async function contentDeps(run: Run, capability: ContentCapability, model: ContentModel | undefined, costs: Array<bigint | undefined>): Promise<ContentDeps> {
  const client = meteredClient(await run.deps.client(capability), (id) => run.deps.catalogModel(id)?.pricing, (nano) => costs.push(nano));
  return { client, log: run.deps.log as Logger, model, signal: run.signal };
}

function checkCancelled(run: Run): void {
  if (run.token.isCancellationRequested || run.signal.aborted) throw new Cancelled();
}

/** "Cost: 0.000123 credits on openai/gpt-5.1." or the sentence for a reply without token counts. */
function costLine(run: Run, costs: ReadonlyArray<bigint | undefined>, modelId: string | undefined, note?: string): void {
  const priced = costs.filter((c): c is bigint => c !== undefined);
  let line: string;
  if (priced.length > 0 && priced.length === costs.length) {
    const total = priced.reduce((a, b) => a + b, 0n);
    line = vscode.l10n.t('Cost: {0} on {1} (in your spend and budgets).', formatCredits(total), modelId ?? '?');
  } else {
    line = vscode.l10n.t('Model: {0}. The gateway does not report the cost of this request here; it counts in your usage (see @gateway /spend).', modelId ?? '?');
  }
  run.stream.markdown(md(`\n\n_${escapeMd(line)}_${note ? `\n\n${escapeMd(note)}` : ''}\n`));
}

/**
 * What the command works on: the file attached in the chat first (the user pointed at it), else the
 * active editor. A refused attachment (outside the workspace) is said, and nothing else is used.
 */
async function needEditor(run: Run): Promise<EditorSnapshot | undefined> {
  const refs = run.request.references ?? [];
  if (refs.length > 0 && run.deps.attachedDocument) {
    const attached = await run.deps.attachedDocument(refs);
    if (attached.kind === 'document') return attached.editor;
    if (attached.kind === 'refused') {
      run.stream.markdown(md(escapeMd(attached.message)));
      return undefined;
    }
  }
  const editor = run.deps.activeEditor();
  if (!editor) {
    run.stream.markdown(md(vscode.l10n.t('Open a document (or select text in one) first, then ask again.')));
    run.stream.button({ command: 'workbench.action.quickOpen', title: vscode.l10n.t('Open File…') });
  }
  return editor;
}

async function altText(run: Run): Promise<ParticipantResult> {
  const editor = await needEditor(run);
  if (!editor) return { metadata: { command: 'alt' } };
  const syntax = syntaxForLanguage(editor.languageId);
  if (!syntax) {
    run.stream.markdown(md(vscode.l10n.t('Alt text works on images in Markdown, HTML, PHP and JSX files. Open one of those and ask again.')));
    return { metadata: { command: 'alt' } };
  }
  const sel = editor.selection;
  const scan = scanImagesNeedingAlt(editor.text, syntax);
  const targets = scan.problems.map((p) => p.ref).filter((r) => !sel || (r.range.start < sel.end && r.range.end > sel.start));
  if (targets.length === 0) {
    run.stream.markdown(md(sel ? vscode.l10n.t('Every image in the selection already has alt text.') : vscode.l10n.t('Every image in this file already has alt text.')));
    return { metadata: { command: 'alt' } };
  }
  const local = targets.filter((r) => classifySrc(r.src ?? resolveJsxImportedSrc(editor.text, r)).kind === 'local').length;
  if (local > 0 && !(await run.deps.confirmReadLocal(local))) {
    run.stream.markdown(md(vscode.l10n.t('Nothing was sent: the local images were not read.')));
    return { metadata: { command: 'alt' } };
  }
  const { model, note } = await modelFor(run, 'alt_text');
  checkCancelled(run);
  if (!(await run.deps.confirmSend(vscode.l10n.t('Generate alt text'), model?.id))) {
    run.stream.markdown(md(vscode.l10n.t('Nothing was sent.')));
    return { metadata: { command: 'alt' } };
  }
  const costs: Array<bigint | undefined> = [];
  const deps = await contentDeps(run, 'alt_text', model, costs);
  const edits: OffsetEdit[] = [];
  const lines: string[] = [];
  const failures: string[] = [];
  for (const [i, ref] of targets.entries()) {
    checkCancelled(run);
    run.stream.progress(vscode.l10n.t('Generating alt text: {0} of {1}', i + 1, targets.length));
    try {
      const out = await generateAltText(deps, { image: await run.deps.imageFor(editor, ref), model: model?.id, context: surroundingContext(editor.text, ref) });
      edits.push(altTextEdit(ref, out.result.altText));
      lines.push(`- \`${(ref.src ?? '?').replace(/[`\r\n]/g, '')}\`: ${escapeMd(out.result.altText)}`);
    } catch (e) {
      // Failures that will repeat for every image (cancel, key, scope, outage) stop the whole run, as in the palette command.
      if (run.signal.aborted) throw new Cancelled();
      if (isGatewayError(e) && e.reason !== 'invalid_request' && e.reason !== 'protocol' && e.reason !== 'content_policy') throw e;
      failures.push(`${ref.src ?? '?'}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  checkCancelled(run);
  if (edits.length > 0) markStepDone('altText');
  if (edits.length > 0) {
    run.stream.markdown(md(edits.length === 1 ? vscode.l10n.t('Alt text for 1 image in {0}:', fileName(editor.uri)) : vscode.l10n.t('Alt text for {0} images in {1}:', edits.length, fileName(editor.uri))));
    run.stream.markdown(md(`\n\n${lines.join('\n')}\n`));
  }
  for (const f of failures) {
    run.deps.log.warn(`@gateway /alt: no alt text for ${f}`);
  }
  if (failures.length > 0) run.stream.markdown(md(`\n\n${escapeMd(vscode.l10n.t('{0} of {1} images got no alt text. First: {2}', failures.length, targets.length, failures[0]))}\n`));
  costLine(run, costs, model?.id, note);
  if (edits.length > 0) {
    run.stream.markdown(md(`\n\n${vscode.l10n.t('Nothing is changed until you apply it in the preview.')}\n`));
    run.stream.button(run.deps.offerEdit(editor, edits, edits.length === 1 ? vscode.l10n.t('alt text for 1 image') : vscode.l10n.t('alt text for {0} images', edits.length)));
  }
  return { metadata: { command: 'alt', edit: edits.length > 0 } };
}

async function summary(run: Run): Promise<ParticipantResult> {
  const editor = await needEditor(run);
  if (!editor) return { metadata: { command: 'summary' } };
  const input = requestText(editor.text, editor.selection, editor.languageId === 'markdown');
  const { model, note } = await modelFor(run, 'summary');
  const operation = input.wholeDocument ? vscode.l10n.t('Summarise the document') : vscode.l10n.t('Summarise the selection');
  if (!(await run.deps.confirmSend(operation, model?.id, input.text))) {
    run.stream.markdown(md(vscode.l10n.t('Nothing was sent.')));
    return { metadata: { command: 'summary' } };
  }
  checkCancelled(run);
  run.stream.progress(input.wholeDocument ? vscode.l10n.t('Summarising the document…') : vscode.l10n.t('Summarising the selection…'));
  const costs: Array<bigint | undefined> = [];
  const out = await summarize(await contentDeps(run, 'summary', model, costs), { text: input.text, model: model?.id });
  checkCancelled(run);
  run.stream.markdown(md(`${escapeMd(out.result.summary)}\n`));
  costLine(run, costs, model?.id, note);
  return { metadata: { command: 'summary' } };
}

async function tags(run: Run): Promise<ParticipantResult> {
  const editor = await needEditor(run);
  if (!editor) return { metadata: { command: 'tags' } };
  const isMarkdown = editor.languageId === 'markdown';
  const input = requestText(editor.text, editor.selection, isMarkdown);
  const existing: Taxonomy = isMarkdown ? readTaxonomy(editor.text) : { categories: [], tags: [] };
  const { model, note } = await modelFor(run, 'taxonomy');
  if (!(await run.deps.confirmSend(vscode.l10n.t('Suggest categories and tags'), model?.id, input.text))) {
    run.stream.markdown(md(vscode.l10n.t('Nothing was sent.')));
    return { metadata: { command: 'tags' } };
  }
  checkCancelled(run);
  run.stream.progress(vscode.l10n.t('Suggesting categories and tags…'));
  const costs: Array<bigint | undefined> = [];
  const out = await suggestTaxonomy(await contentDeps(run, 'taxonomy', model, costs), { text: input.text, model: model?.id, existingCategories: existing.categories, existingTags: existing.tags });
  checkCancelled(run);
  const terms = out.result;
  if (terms.categories.length === 0 && terms.tags.length === 0) {
    run.stream.markdown(md(vscode.l10n.t('The gateway suggested no categories or tags for this text.')));
    costLine(run, costs, model?.id, note);
    return { metadata: { command: 'tags' } };
  }
  const list = (xs: string[]): string => (xs.length ? xs.map((x) => `\`${x.replace(/[`\r\n]/g, '')}\``).join(', ') : '—');
  run.stream.markdown(md(`${vscode.l10n.t('Categories:')} ${list(terms.categories)}\n\n${vscode.l10n.t('Tags:')} ${list(terms.tags)}\n`));
  costLine(run, costs, model?.id, note);
  if (isMarkdown) {
    const merged = mergeTaxonomy(editor.text, terms);
    const edit = merged ? merged.edit : { start: 0, end: 0, newText: newFrontMatter(terms, editor.text.includes('\r\n') ? '\r\n' : '\n') };
    if (!edit) {
      run.stream.markdown(md(vscode.l10n.t('Those terms are already in the front matter.')));
      return { metadata: { command: 'tags' } };
    }
    // Choose Changes in the preview keeps only some of them.
    run.stream.markdown(md(`\n\n${vscode.l10n.t('Nothing is changed until you apply it in the preview.')}\n`));
    run.stream.button(run.deps.offerEdit(editor, [edit], merged ? vscode.l10n.t('categories and tags in the front matter') : vscode.l10n.t('front matter with categories and tags')));
    return { metadata: { command: 'tags', edit: true } };
  }
  return { metadata: { command: 'tags' } };
}

/** The command a site's button runs (participantEditor.ts): opens GET /v1/sites/{site_identifier}. */
export const SHOW_SITE_DETAILS = 'aiGateway.participant.showSiteDetails';
const MAX_SITE_BUTTONS = 10;

async function sites(run: Run): Promise<ParticipantResult> {
  run.stream.progress(vscode.l10n.t('Listing the account’s sites…'));
  const rows = await run.deps.listSites(run.signal);
  checkCancelled(run);
  if (rows.length === 0) {
    run.stream.markdown(md(vscode.l10n.t('The account has no sites.')));
    return { metadata: { command: 'sites' } };
  }
  const status = (s: string | undefined): string =>
    s === 'connected' ? vscode.l10n.t('WordPress account connected') : s === 'not_connected' ? vscode.l10n.t('WordPress account not connected') : s === 'not_applicable' ? vscode.l10n.t('connection not applicable') : '';
  const lines = rows.map((s) => `- **${escapeMd(s.name)}** (\`${s.site_id.replace(/[`\r\n]/g, '')}\`) ${escapeMd(s.url)}${status(s.cms_connection_status) ? ` · ${status(s.cms_connection_status)}` : ''}`);
  run.stream.markdown(md(`${rows.length === 1 ? vscode.l10n.t('1 site:') : vscode.l10n.t('{0} sites:', rows.length)}\n\n${lines.join('\n')}\n`));
  // Each site's details from GET /v1/sites/{site_identifier} (#39.14), read-only.
  for (const s of rows.slice(0, MAX_SITE_BUTTONS)) {
    run.stream.button({ command: SHOW_SITE_DETAILS, arguments: [s.site_id], title: vscode.l10n.t('Show Site Details: {0}', s.name.slice(0, 60)) });
  }
  return { metadata: { command: 'sites' } };
}

async function spend(run: Run): Promise<ParticipantResult> {
  const s = await run.deps.spendToday();
  const source = s.source === 'gateway' ? vscode.l10n.t('as the gateway bills it') : vscode.l10n.t('from the local ledger');
  const lines = [
    `- ${
      s.dailyNano !== undefined
        ? vscode.l10n.t('Today: {0} of {1} ({2} %), {3}', formatCredits(s.dayNano), formatCredits(s.dailyNano), String(s.dailyNano === 0n ? 100n : (s.dayNano * 100n) / s.dailyNano), source)
        : vscode.l10n.t('Today: {0}, {1}', formatCredits(s.dayNano), source)
    }`,
    `- ${s.monthlyNano !== undefined ? vscode.l10n.t('This month: {0} of {1}', formatCredits(s.monthNano), formatCredits(s.monthlyNano)) : vscode.l10n.t('This month: {0}', formatCredits(s.monthNano))}`,
  ];
  if (s.dailyNano === undefined && s.monthlyNano === undefined) lines.push(`- ${vscode.l10n.t('No budget is set.')}`);
  run.stream.markdown(md(`${lines.join('\n')}\n`));
  run.stream.button({ command: 'aiGateway.usage.show', title: vscode.l10n.t('Open Usage') });
  run.stream.button({ command: 'workbench.action.openSettings', arguments: ['aiGateway.budget'], title: vscode.l10n.t('Set Budgets') });
  return { metadata: { command: 'spend' } };
}

/** The help for a bare `@gateway` (or an unknown command). */
function help(run: Run): ParticipantResult {
  run.stream.markdown(
    md(
      [
        vscode.l10n.t('I run the AI Gateway content tools on the active editor (or its selection):'),
        '',
        `- \`/alt\`: ${vscode.l10n.t('alt text for the images without it, as a change to preview and apply')}`,
        `- \`/summary\`: ${vscode.l10n.t('a summary of the selection or the document')}`,
        `- \`/tags\`: ${vscode.l10n.t('categories and tags (in Markdown, as a front matter change to preview)')}`,
        `- \`/sites\`: ${vscode.l10n.t('the sites of your account')}`,
        `- \`/spend\`: ${vscode.l10n.t('today’s spend and your budgets')}`,
        '',
        vscode.l10n.t('Pick an AI Gateway model in the chat to use it; otherwise your default models are used.'),
      ].join('\n'),
    ),
  );
  return { metadata: {} };
}

/** Answers a failure in words with the button that helps; nothing for a cancel. */
async function answerError(run: Run, e: unknown, command: string): Promise<ParticipantResult> {
  const { describeError } = await import('../core/errorText');
  const text = describeError(e, { context: `@gateway /${command}` });
  run.deps.log.warn(`@gateway /${command} failed: ${e instanceof Error ? e.message : String(e)}`);
  run.stream.markdown(md(`${escapeMd(text.message)}${text.requestId ? ` ${escapeMd(vscode.l10n.t('(request {0})', text.requestId))}` : ''}\n`));
  if (text.actions.includes('setApiKey')) run.stream.button({ command: 'aiGateway.switchApiKey', title: vscode.l10n.t('Set API Key') });
  if (text.actions.includes('openSettings')) run.stream.button({ command: 'workbench.action.openSettings', arguments: [text.settingKey ?? 'aiGateway.baseUrl'], title: vscode.l10n.t('Open Settings') });
  run.stream.button({ command: 'aiGateway.showLog', title: vscode.l10n.t('Show Log') });
  return { metadata: { command }, errorDetails: { message: text.message } };
}

export async function handleParticipantRequest(deps: ParticipantDeps, request: ParticipantRequest, stream: ResponseStream, token: CancellationTokenLike): Promise<ParticipantResult> {
  const bridge = signalFromToken(token);
  const run: Run = { deps, request, stream, token, signal: bridge.signal };
  const command = request.command ?? '';
  try {
    switch (command) {
      case 'alt':
        return await altText(run);
      case 'summary':
        return await summary(run);
      case 'tags':
        return await tags(run);
      case 'sites':
        return await sites(run);
      case 'spend':
        return await spend(run);
      default:
        return help(run);
    }
  } catch (e) {
    if (e instanceof Cancelled || run.signal.aborted || (e instanceof Error && e.name === 'Canceled')) {
      stream.markdown(md(vscode.l10n.t('Stopped. Nothing was changed.')));
      return { metadata: { command } };
    }
    return answerError(run, e, command);
  } finally {
    if (!run.signal.aborted) markStepDone('vscodeChat'); // @gateway answered in VS Code's chat
    bridge.dispose();
  }
}

/** Followups after an answer: the other commands, worded as the user would ask. */
export function participantFollowups(result: ParticipantResult): vscode.ChatFollowup[] {
  const last = result.metadata?.command;
  const all: vscode.ChatFollowup[] = [
    { command: 'alt', prompt: '', label: vscode.l10n.t('Alt text for the images') },
    { command: 'summary', prompt: '', label: vscode.l10n.t('Summarise it') },
    { command: 'tags', prompt: '', label: vscode.l10n.t('Suggest categories and tags') },
    { command: 'spend', prompt: '', label: vscode.l10n.t('Today’s spend') },
  ];
  return all.filter((f) => f.command !== last).slice(0, 3);
}

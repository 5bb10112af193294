/**
 * The content tools of VS Code's agent mode (#43.1), imported on the first prepare or invoke of any of
 * them (src/tools/registerTools.ts registers the stubs). Every tool holds to the rules of the content
 * commands:
 *  - prepareInvocation asks for confirmation with the cost before any billed request (the exact
 *    per-image price for images; for text, the prompt's tokens counted by the gateway times the input
 *    rate, and the most the longest replies can cost); the day's spend bills nothing and asks nothing;
 *  - invoke goes through the budget guard (src/platform/budgetService.ts): refused, the tool's result
 *    says so and nothing is sent;
 *  - a change to a file is the same diff the commands propose (src/platform/proposedChange.ts):
 *    nothing is written until the user accepts it; a generated image is saved only on Save;
 *  - a file is read only when it resolves (after symlinks) inside a workspace folder, and in
 *    Restricted Mode local images are read only after the same question the commands ask.
 * Refusals are the tool's result (text the model reads), never an exception: agent mode shows them.
 */
import * as vscode from 'vscode';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { applyEdits } from '../core/diff/lineDiff';
import { altTextEdit, classifySrc, surroundingContext, type OffsetEdit } from '../core/content/altText';
import { generateAltText, suggestTaxonomy, summarize, type ContentCapability, type ContentDeps } from '../core/content/contentClient';
import { finishChecked } from '../core/content/finishCheck';
import { mergeTaxonomy, readTaxonomy } from '../core/content/frontMatter';
import { resolveJsxImportedSrc, scanImagesNeedingAlt, syntaxForLanguage, type ImageRef } from '../core/content/imageRefs';
import { requestText } from '../core/content/placement';
import { isLexicallyInside, isPathInside, isWorkspaceFileError, realRoots, resolveInsideWorkspace } from '../core/content/workspaceFile';
import { costBeforeSending } from '../core/spend/costEstimate';
import { estimateTokens } from '../core/lm/tokenCount';
import { checkImageRequest, generateImage } from '../core/media/mediaClient';
import { imageCost, mediaSpendEntry, type MediaCost } from '../core/media/mediaCost';
import { createDownloader, createRawGateway } from '../core/media/mediaTransport';
import { formatCredits, formatRate } from '../core/pricing';
import { formatCount } from '../core/words';
import type { Model } from '../core/gateway/types';
import { withTokenSignal } from '../platform/cancellation';
import { effectiveBaseUrl, settings } from '../platform/config';
import { confirmReadLocalImages, imageForRef, workspaceRoots } from '../platform/contentSend';
import { counterFor } from '../platform/costConfirm';
import { contentModel } from '../platform/defaultModel';
import { bindProposals, proposeChange } from '../platform/proposedChange';
import { recordingClient } from '../platform/recordingClient';
import type { ContentToolName, ToolsServices } from './registerTools';

type Input = Record<string, unknown>;
type Tool = vscode.LanguageModelTool<Input>;

const result = (text: string): vscode.LanguageModelToolResult => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

// ---------------------------------------------------------------------------------------------------
// The workspace boundary.

export type Resolved = { ok: true; uri: vscode.Uri; shown: string } | { ok: false; refusal: string };

/**
 * The file `filePath` names (absolute, or relative to a workspace folder) when it really is inside a
 * workspace folder (after symlinks); otherwise the refusal the tool answers with. Nothing outside is read.
 */
export async function resolveWorkspaceFile(filePath: unknown): Promise<Resolved> {
  const p = str(filePath);
  if (!p) return { ok: false, refusal: vscode.l10n.t('No file was named: pass filePath, a path inside the workspace.') };
  const roots = workspaceRoots();
  if (roots.length === 0) return { ok: false, refusal: vscode.l10n.t('No workspace folder is open: these tools work only on files inside the workspace folders. Nothing was read or sent.') };
  let candidate = path.isAbsolute(p) ? path.normalize(p) : undefined;
  if (!candidate) {
    const options = roots.map((r) => path.resolve(r, p));
    candidate = (await firstExisting(options)) ?? options[0];
  }
  try {
    const real = await resolveInsideWorkspace(candidate, roots);
    return { ok: true, uri: vscode.Uri.file(real), shown: vscode.workspace.asRelativePath(vscode.Uri.file(real)) };
  } catch (e) {
    if (isWorkspaceFileError(e) && e.kind === 'not_found') return { ok: false, refusal: vscode.l10n.t('{0} does not exist in the workspace. Nothing was read or sent.', p) };
    if (isWorkspaceFileError(e) && e.kind === 'outside_workspace') return { ok: false, refusal: vscode.l10n.t('{0} is outside the workspace folders: these tools read and change only files inside them. Nothing was read or sent.', p) };
    return { ok: false, refusal: vscode.l10n.t('{0} could not be read: {1} Nothing was sent.', p, e instanceof Error ? e.message : String(e)) };
  }
}

async function firstExisting(paths: readonly string[]): Promise<string | undefined> {
  for (const p of paths) {
    if (await fs.stat(p).then(() => true, () => false)) return p;
  }
  return undefined;
}

/**
 * Where a generated image may be written: inside a workspace folder after symlinks, its folder
 * existing, the name neither a symlink nor a folder. The real path, or the refusal.
 */
export async function checkImageTarget(saveAs: unknown): Promise<{ ok: true; real: string; shown: string } | { ok: false; refusal: string }> {
  const p = str(saveAs);
  const roots = workspaceRoots();
  if (!p) return { ok: false, refusal: vscode.l10n.t('No file was named: pass saveAs, a path inside the workspace for the image.') };
  if (roots.length === 0) return { ok: false, refusal: vscode.l10n.t('No workspace folder is open: these tools work only on files inside the workspace folders. Nothing was read or sent.') };
  const target = path.isAbsolute(p) ? path.normalize(p) : path.resolve(roots[0], p);
  const outside = vscode.l10n.t('{0} is outside the workspace folders: these tools read and change only files inside them. Nothing was read or sent.', p);
  if (!isLexicallyInside(target, roots)) return { ok: false, refusal: outside };
  if (!/\.(png|jpe?g|webp|gif)$/i.test(target)) return { ok: false, refusal: vscode.l10n.t('{0} is not an image file name (.png, .jpg, .webp or .gif). Nothing was sent.', p) };
  const realDir = await fs.realpath(path.dirname(target)).catch(() => undefined);
  if (!realDir) return { ok: false, refusal: vscode.l10n.t('The folder of {0} does not exist. Nothing was sent.', p) };
  const reals = await realRoots(roots);
  if (!reals.some((r) => r === realDir || isPathInside(r, realDir))) return { ok: false, refusal: outside };
  const real = path.join(realDir, path.basename(target));
  const st = await fs.lstat(real).catch(() => undefined);
  if (st && (st.isSymbolicLink() || !st.isFile())) return { ok: false, refusal: vscode.l10n.t('{0} exists and is not a regular file; it is never overwritten. Nothing was sent.', p) };
  return { ok: true, real, shown: vscode.workspace.asRelativePath(vscode.Uri.file(real)) };
}

// ---------------------------------------------------------------------------------------------------
// Costs before sending.

/**
 * The cost line of a confirmation: the prompt's tokens (counted by the gateway when it can, else the
 * local estimate, and the line says which) times the input rate, and the most `requests` replies can
 * cost at the model's longest reply.
 */
export async function textCost(services: ToolsServices, model: Model | undefined, text: string, requests: number): Promise<string> {
  if (!model) return vscode.l10n.t('No model in the catalog offers this; the request will fail without being billed.');
  let tokens = estimateTokens(text);
  let counted = false;
  try {
    const c = await counterFor(services).countWithSource(model.id, text, undefined, 0);
    tokens = c.tokens;
    counted = c.source === 'gateway';
  } catch (e) {
    services.log.info(`Tool cost: tokens not counted (${e instanceof Error ? e.message : String(e)}); using the local estimate.`);
  }
  const cost = costBeforeSending(tokens, counted, model.pricing, model.max_output_tokens);
  if (!cost) return vscode.l10n.t('{0} publishes no credit rates, so the cost cannot be shown before sending; the gateway bills it all the same.', model.id);
  const prompt = counted
    ? vscode.l10n.t('Prompt: {0} ({1} tokens, counted by the gateway) on {2}.', formatCredits(cost.inputNano), formatCount(tokens), model.id)
    : vscode.l10n.t('Prompt: {0} (about {1} tokens, estimated) on {2}.', formatCredits(cost.inputNano), formatCount(tokens), model.id);
  if (cost.maxOutputNano === undefined) return `${prompt} ${vscode.l10n.t('The reply is billed on top, at the output rate.')}`;
  const upTo = cost.inputNano + cost.maxOutputNano * BigInt(requests);
  return `${prompt} ${requests === 1 ? vscode.l10n.t('At most {0} in all with the longest reply {1} can give.', formatCredits(upTo), model.id) : vscode.l10n.t('At most {0} in all with the longest replies {1} can give ({2} requests).', formatCredits(upTo), model.id, requests)}`;
}

const mediaCostLine = (cost: MediaCost): string => (cost.known ? vscode.l10n.t('Cost: {0}.', cost.summary) : vscode.l10n.t('The cost cannot be computed: {0} The gateway bills it all the same.', cost.reason));

function confirmation(title: string, lines: string[]): vscode.PreparedToolInvocation['confirmationMessages'] {
  const md = new vscode.MarkdownString();
  md.appendText(lines.join('\n\n'));
  return { title, message: md };
}

// ---------------------------------------------------------------------------------------------------
// Shared run.

const budgetRefusal = (operation: string): string =>
  vscode.l10n.t('{0} was not sent: the AI Gateway budget is used up and the user did not choose to send anyway. Nothing was sent or billed.', operation);

/** The content model and its catalog entry (for the rates). */
async function modelFor(services: ToolsServices, capability: ContentCapability): Promise<Model | undefined> {
  const m = await contentModel(services, capability);
  return m ? services.catalog.getModel(m.id) : undefined;
}

/** Runs `work` with the content deps of `capability` (spend recorded, how each reply ended checked). */
async function runContent<T>(services: ToolsServices, capability: ContentCapability, token: vscode.CancellationToken, work: (deps: ContentDeps) => Promise<T>): Promise<{ value: T; cutOff: boolean }> {
  return withTokenSignal(token, async (signal) => {
    const [gateway, model] = await Promise.all([services.getClient(), contentModel(services, capability)]);
    const checked = finishChecked(recordingClient(gateway, services, capability));
    const value = await work({ client: checked.client, log: services.log, model, signal });
    return { value, cutOff: checked.ends().length > 0 };
  });
}

const failure = (what: string, e: unknown): vscode.LanguageModelToolResult => result(vscode.l10n.t('{0} failed: {1}', what, e instanceof Error ? e.message : String(e)));

/** Proposes the edits as the commands' diff; resolves to what the user did. */
async function propose(services: ToolsServices, doc: vscode.TextDocument, edits: readonly OffsetEdit[], title: string): Promise<'accepted' | 'discarded' | 'unchanged'> {
  bindProposals(services);
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  return proposeChange(doc, applyEdits(doc.getText(), sorted), { title });
}

// ---------------------------------------------------------------------------------------------------
// The tools.

interface AltPlan {
  doc: vscode.TextDocument;
  shown: string;
  targets: ImageRef[];
  local: number;
}

async function altPlan(filePath: unknown): Promise<AltPlan | string> {
  const file = await resolveWorkspaceFile(filePath);
  if (!file.ok) return file.refusal;
  const doc = await vscode.workspace.openTextDocument(file.uri);
  const syntax = syntaxForLanguage(doc.languageId);
  if (!syntax) return vscode.l10n.t('{0} is not a Markdown, HTML, PHP or JSX file; alt text works on images in those. Nothing was sent.', file.shown);
  const text = doc.getText();
  const targets = scanImagesNeedingAlt(text, syntax).problems.map((p) => p.ref);
  const local = targets.filter((r) => classifySrc(r.src ?? resolveJsxImportedSrc(text, r)).kind === 'local').length;
  return { doc, shown: file.shown, targets, local };
}

function altTextTool(services: ToolsServices): Tool {
  const what = vscode.l10n.t('Generate Alt Text');
  return {
    async prepareInvocation(options) {
      const plan = await altPlan(options.input.filePath);
      if (typeof plan === 'string' || plan.targets.length === 0) return { invocationMessage: vscode.l10n.t('Checking images for alt text') };
      const model = await modelFor(services, 'alt_text');
      const context = plan.targets.map((r) => surroundingContext(plan.doc.getText(), r)).join('\n');
      const cost = await textCost(services, model, context, plan.targets.length);
      const images = model?.pricing?.input_per_million ? vscode.l10n.t('Each image is billed on top as input tokens at {0}.', formatRate(model.pricing.input_per_million)) : '';
      const title = plan.targets.length === 1 ? vscode.l10n.t('Generate alt text for 1 image in {0}?', plan.shown) : vscode.l10n.t('Generate alt text for {0} images in {1}?', plan.targets.length, plan.shown);
      return {
        invocationMessage: vscode.l10n.t('Generating alt text for {0}', plan.shown),
        confirmationMessages: confirmation(title, [cost, images, vscode.l10n.t('The alt text is proposed as a diff; nothing is written until you accept it.')].filter(Boolean)),
      };
    },
    async invoke(options, token) {
      const plan = await altPlan(options.input.filePath);
      if (typeof plan === 'string') return result(plan);
      if (plan.targets.length === 0) return result(vscode.l10n.t('Every image in {0} already has alt text. Nothing was sent.', plan.shown));
      if (!vscode.workspace.isTrusted && plan.local > 0 && !(await confirmReadLocalImages(plan.local, true))) {
        return result(vscode.l10n.t('The workspace is in Restricted Mode and the user chose not to read its image files. Nothing was read or sent.'));
      }
      if (!(await services.budget.allowSend(what))) return result(budgetRefusal(what));
      const { doc } = plan;
      const version = doc.version;
      const text = doc.getText();
      const failures: string[] = [];
      let out: { value: OffsetEdit[]; cutOff: boolean };
      try {
        out = await runContent(services, 'alt_text', token, async (deps) => {
          const edits: OffsetEdit[] = [];
          for (const ref of plan.targets) {
            if (deps.signal?.aborted) throw new vscode.CancellationError();
            try {
              const r = await generateAltText(deps, { image: await imageForRef(doc, ref), model: deps.model?.id, context: surroundingContext(text, ref) });
              edits.push(altTextEdit(ref, r.result.altText));
            } catch (e) {
              if (deps.signal?.aborted) throw e;
              failures.push(`${ref.src ?? '?'}: ${e instanceof Error ? e.message : String(e)}`);
            }
          }
          return edits;
        });
      } catch (e) {
        return failure(what, e);
      }
      const failed = failures.length > 0 ? ` ${vscode.l10n.t('No alt text for: {0}.', failures.join('; '))}` : '';
      if (out.cutOff) return result(vscode.l10n.t('A reply was cut off by the output limit, so nothing was proposed for {0}.', plan.shown) + failed);
      if (out.value.length === 0) return result(vscode.l10n.t('No alt text was generated for {0}.', plan.shown) + failed);
      if (doc.version !== version) return result(vscode.l10n.t('{0} changed while the alt text was being generated, so nothing was changed. Ask again.', plan.shown));
      const outcome = await propose(services, doc, out.value, out.value.length === 1 ? vscode.l10n.t('alt text for 1 image') : vscode.l10n.t('alt text for {0} images', out.value.length));
      const alts = out.value.map((e) => e.newText.trim()).join(' | ');
      if (outcome === 'accepted') return result(vscode.l10n.t('The user accepted the alt text; {0} was changed ({1} images): {2}', plan.shown, out.value.length, alts) + failed);
      return result(vscode.l10n.t('The user did not accept the proposed alt text; {0} is unchanged. Do not retry unless asked.', plan.shown) + failed);
    },
  };
}

async function textPlan(filePath: unknown): Promise<{ doc: vscode.TextDocument; shown: string; text: string; isMarkdown: boolean } | string> {
  const file = await resolveWorkspaceFile(filePath);
  if (!file.ok) return file.refusal;
  const doc = await vscode.workspace.openTextDocument(file.uri);
  const isMarkdown = doc.languageId === 'markdown';
  const text = requestText(doc.getText(), undefined, isMarkdown).text;
  if (!text.trim()) return vscode.l10n.t('{0} has no text to work on. Nothing was sent.', file.shown);
  return { doc, shown: file.shown, text, isMarkdown };
}

function summarizeTool(services: ToolsServices): Tool {
  const what = vscode.l10n.t('Summarise');
  return {
    async prepareInvocation(options) {
      const plan = await textPlan(options.input.filePath);
      if (typeof plan === 'string') return { invocationMessage: vscode.l10n.t('Summarising') };
      const cost = await textCost(services, await modelFor(services, 'summary'), plan.text, 1);
      return { invocationMessage: vscode.l10n.t('Summarising {0}', plan.shown), confirmationMessages: confirmation(vscode.l10n.t('Summarise {0}?', plan.shown), [cost]) };
    },
    async invoke(options, token) {
      const plan = await textPlan(options.input.filePath);
      if (typeof plan === 'string') return result(plan);
      if (!(await services.budget.allowSend(what))) return result(budgetRefusal(what));
      try {
        const out = await runContent(services, 'summary', token, (deps) => summarize(deps, { text: plan.text, model: deps.model?.id }));
        const cut = out.cutOff ? ` ${vscode.l10n.t('(The reply was cut off by the output limit: the summary may be incomplete.)')}` : '';
        return result(vscode.l10n.t('Summary of {0}: {1}', plan.shown, out.value.result.summary) + cut);
      } catch (e) {
        return failure(what, e);
      }
    },
  };
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim()).slice(0, 200) : []);

function taxonomyTool(services: ToolsServices): Tool {
  const what = vscode.l10n.t('Suggest Categories and Tags');
  return {
    async prepareInvocation(options) {
      const plan = await textPlan(options.input.filePath);
      if (typeof plan === 'string') return { invocationMessage: vscode.l10n.t('Suggesting categories and tags') };
      const cost = await textCost(services, await modelFor(services, 'taxonomy'), plan.text, 1);
      const lines = [cost, plan.isMarkdown ? vscode.l10n.t('The terms are proposed as a diff of the front matter; nothing is written until you accept it.') : ''];
      return { invocationMessage: vscode.l10n.t('Suggesting categories and tags for {0}', plan.shown), confirmationMessages: confirmation(vscode.l10n.t('Suggest categories and tags for {0}?', plan.shown), lines.filter(Boolean)) };
    },
    async invoke(options, token) {
      const plan = await textPlan(options.input.filePath);
      if (typeof plan === 'string') return result(plan);
      if (!(await services.budget.allowSend(what))) return result(budgetRefusal(what));
      const existing = plan.isMarkdown ? readTaxonomy(plan.doc.getText()) : { categories: [], tags: [] };
      const siteCategories = strings(options.input.existingCategories);
      const siteTags = strings(options.input.existingTags);
      const version = plan.doc.version;
      let out;
      try {
        out = await runContent(services, 'taxonomy', token, (deps) =>
          suggestTaxonomy(deps, {
            text: plan.text,
            model: deps.model?.id,
            existingCategories: [...new Set([...existing.categories, ...siteCategories])],
            existingTags: [...new Set([...existing.tags, ...siteTags])],
          }),
        );
      } catch (e) {
        return failure(what, e);
      }
      const terms = out.value.result;
      const listed = vscode.l10n.t('Categories: {0}. Tags: {1}.', terms.categories.join(', ') || '-', terms.tags.join(', ') || '-');
      if (!plan.isMarkdown) return result(vscode.l10n.t('Suggested for {0} (not written: only Markdown front matter is changed). {1}', plan.shown, listed));
      if (out.cutOff) return result(vscode.l10n.t('A reply was cut off by the output limit, so nothing was proposed for {0}.', plan.shown));
      if (plan.doc.version !== version) return result(vscode.l10n.t('{0} changed while the terms were being suggested, so nothing was changed. Ask again.', plan.shown));
      const merged = mergeTaxonomy(plan.doc.getText(), terms);
      if (!merged) return result(vscode.l10n.t('{0} has no YAML front matter, so nothing was written. {1}', plan.shown, listed));
      if (!merged.edit) return result(vscode.l10n.t('Those terms are already in the front matter of {0}. {1}', plan.shown, listed));
      const outcome = await propose(services, plan.doc, [merged.edit], vscode.l10n.t('categories and tags in the front matter'));
      if (outcome === 'accepted') return result(vscode.l10n.t('The user accepted the terms; the front matter of {0} was changed. {1}', plan.shown, listed));
      return result(vscode.l10n.t('The user did not accept the terms; {0} is unchanged. {1}', plan.shown, listed));
    },
  };
}

/** The model for image generation: the default-model setting when the catalog lists it, else the catalog's first. */
async function imageModel(services: ToolsServices): Promise<Model | undefined> {
  await services.catalog.ensureLoaded();
  const candidates = services.catalog.modelsFor('image_generation');
  const id = settings.defaultImageModel.get().trim();
  return candidates.find((m) => m.id === id) ?? candidates[0];
}

function imageTool(services: ToolsServices): Tool {
  const what = vscode.l10n.t('Generate Image');
  return {
    async prepareInvocation(options) {
      const target = await checkImageTarget(options.input.saveAs);
      const prompt = str(options.input.prompt);
      const model = await imageModel(services);
      if (!target.ok || !prompt || !model) return { invocationMessage: vscode.l10n.t('Generating an image') };
      const lines = [mediaCostLine(imageCost(model.pricing, 1)), vscode.l10n.t('Prompt: {0}', prompt), vscode.l10n.t('The image is saved to {0} only when you choose Save.', target.shown)];
      return { invocationMessage: vscode.l10n.t('Generating an image with {0}', model.id), confirmationMessages: confirmation(vscode.l10n.t('Generate 1 image with {0}?', model.id), lines) };
    },
    async invoke(options, token) {
      const target = await checkImageTarget(options.input.saveAs);
      if (!target.ok) return result(target.refusal);
      const prompt = str(options.input.prompt);
      const model = await imageModel(services);
      if (!model) return result(vscode.l10n.t('No model in the catalog offers image generation. Nothing was sent.'));
      try {
        checkImageRequest({ model: model.id, prompt });
      } catch (e) {
        return result(`${e instanceof Error ? e.message : String(e)} ${vscode.l10n.t('Nothing was sent.')}`);
      }
      if (!(await services.budget.allowSend(what))) return result(budgetRefusal(what));
      const cost = imageCost(model.pricing, 1);
      let image;
      try {
        image = await withTokenSignal(token, async (signal) => {
          const net = await services.network();
          const deps = {
            client: await services.getClient(),
            raw: createRawGateway({ baseUrl: () => effectiveBaseUrl().url, getKey: services.keys.getKey, net, logger: services.log }),
            download: createDownloader({ net, ownOrigins: () => [new URL(effectiveBaseUrl().url).origin] }),
            log: services.log,
            signal,
          };
          const res = await generateImage(deps, { model: model.id, prompt, count: 1 });
          const entry = mediaSpendEntry({ time: new Date(), model: model.id, operation: 'image-generation', cost, pricing: model.pricing, keyName: services.keys.active?.name, requestId: res.requestId });
          services.spend.ledger.append(entry).catch((e: unknown) => services.log.warn(`Spend ledger: could not record an image: ${e instanceof Error ? e.message : String(e)}`));
          return res.images[0];
        });
      } catch (e) {
        return failure(what, e);
      }
      if (!image) return result(vscode.l10n.t('The gateway answered with no image.'));
      const SAVE = vscode.l10n.t('Save');
      const DISCARD = vscode.l10n.t('Discard');
      const choice = await vscode.window.showInformationMessage(vscode.l10n.t('Save the generated image to {0}?', target.shown), SAVE, DISCARD);
      if (choice !== SAVE) return result(vscode.l10n.t('The user did not save the image; nothing was written.'));
      // Checked again: the folder may have changed while the image was generated.
      const again = await checkImageTarget(options.input.saveAs);
      if (!again.ok) return result(again.refusal);
      await vscode.workspace.fs.writeFile(vscode.Uri.file(again.real), image.bytes);
      return result(vscode.l10n.t('The image was saved to {0} ({1}). Reference it by that path; its alt text is still to be written.', again.shown, image.mediaType));
    },
  };
}

function spendTool(services: ToolsServices): Tool {
  return {
    prepareInvocation: () => ({ invocationMessage: vscode.l10n.t("Reading today's AI Gateway spend") }),
    async invoke() {
      const { check, limits, source, shownDayNano } = await services.budget.check();
      const lines = [
        source === 'gateway' ? vscode.l10n.t('Spent today: {0} (the gateway’s figure).', formatCredits(shownDayNano)) : vscode.l10n.t('Spent today: {0} (local ledger of this editor).', formatCredits(shownDayNano)),
        vscode.l10n.t('Spent this month: {0}.', formatCredits(check.monthNano)),
        limits.dailyNano !== undefined ? vscode.l10n.t('Daily budget: {0}.', formatCredits(limits.dailyNano)) : vscode.l10n.t('No daily budget is set.'),
        limits.monthlyNano !== undefined ? vscode.l10n.t('Monthly budget: {0}.', formatCredits(limits.monthlyNano)) : vscode.l10n.t('No monthly budget is set.'),
      ];
      if (check.level === 'over') lines.push(vscode.l10n.t('The budget is used up: billed requests ask the user before they are sent.'));
      return result(lines.join(' '));
    },
  };
}

export function createContentTools(services: ToolsServices): Record<ContentToolName, Tool> {
  return {
    aiGateway_altText: altTextTool(services),
    aiGateway_summarize: summarizeTool(services),
    aiGateway_suggestTaxonomy: taxonomyTool(services),
    aiGateway_generateImage: imageTool(services),
    aiGateway_spendToday: spendTool(services),
  };
}

/**
 * Alt text in the editor: for the image reference under the cursor (or a quick fix's image), for
 * every image missing alt in a file, and for an image file picked in the explorer. Local images are
 * read from the workspace and sent inline; remote ones are sent as URLs. The document is changed only
 * after a success, with one undoable edit.
 */
import * as vscode from 'vscode';
// This module is imported on the first command, never at activation, so it imports src/core/content freely.
import { findImageRefs, scanImagesNeedingAlt, syntaxForLanguage, type ImageRef, type ImageSyntax } from '../core/content/imageRefs';
import { isGatewayError } from '../core/http/errors';
import { showErrorNotification } from '../platform/errorNotifications';
import { markStepDone } from '../platform/walkthroughProgress';
import type { ContentServices } from './registerContent';
import { altTextEdit, classifySrc, hasAlt, mediaTypeForPath, surroundingContext } from '../core/content/altText';
import { generateAltText } from '../core/content/contentClient';
import { ContentError } from '../core/content/contentErrors';
import { resolveJsxImportedSrc } from '../core/content/imageRefs';
import { documentKind, insertAtSelection, placeBlock } from '../core/content/insertion';
import { readWorkspaceImage } from '../core/content/localImage';
import { imageMarkup, relativePath } from '../core/content/placement';
import { proposeOffsetEdits, runContentTask } from './contentRunner';
import { confirmReadLocalImages, imageForRef, workspaceRoots } from '../platform/contentSend';

/** The argument a quick fix passes: which document, and an offset inside the image reference. */
export interface ImageTarget {
  uri: vscode.Uri;
  offset: number;
}

export function isImageTarget(arg: unknown): arg is ImageTarget {
  return typeof arg === 'object' && arg !== null && (arg as ImageTarget).uri instanceof vscode.Uri && typeof (arg as ImageTarget).offset === 'number';
}

export async function isImageFile(_services: ContentServices, uri: vscode.Uri): Promise<boolean> {
  return mediaTypeForPath(uri.path) !== undefined;
}

const notSupported = (): string => vscode.l10n.t('Alt text works on images in Markdown, HTML, PHP and JSX files, or on an image file in the Explorer.');

const imageFor = imageForRef;

/** How many of `refs` name a local file (the rest are URLs, inline data or dynamic). */
function countLocal(doc: vscode.TextDocument, refs: ImageRef[]): number {
  const text = doc.getText();
  return refs.filter((r) => classifySrc(r.src ?? resolveJsxImportedSrc(text, r)).kind === 'local').length;
}

function refIndexAt(refs: ImageRef[], offset: number): number {
  return refs.findIndex((r) => offset >= r.range.start && offset <= r.range.end);
}

/**
 * The reference to edit once the result is back: the same one when the document is unchanged, else
 * the reference at the same position in the list when it still points at the same source.
 */
function currentRef(doc: vscode.TextDocument, syntax: ImageSyntax, version: number, index: number, before: ImageRef): ImageRef | undefined {
  if (doc.version === version) return before;
  const again = findImageRefs(doc.getText(), syntax)[index];
  return again && again.src === before.src && again.alt.kind === before.alt.kind ? again : undefined;
}

/** Alt text for the image under the cursor, or at `target` (quick fix). */
export async function altTextAtCursor(services: ContentServices, target?: ImageTarget): Promise<void> {
  const doc = target ? await vscode.workspace.openTextDocument(target.uri) : vscode.window.activeTextEditor?.document;
  const syntax = doc ? syntaxForLanguage(doc.languageId) : undefined;
  if (!doc || !syntax) {
    void vscode.window.showWarningMessage(notSupported());
    return;
  }
  const offset = target?.offset ?? doc.offsetAt(vscode.window.activeTextEditor?.selection.active ?? new vscode.Position(0, 0));
  const text = doc.getText();
  const refs = findImageRefs(text, syntax);
  const index = refIndexAt(refs, offset);
  if (index < 0) {
    void vscode.window.showWarningMessage(vscode.l10n.t('There is no image under the cursor. Put the cursor on ![…](…) or <img …>, or right-click an image file in the Explorer.'));
    return;
  }
  const ref = refs[index];
  if (!target && hasAlt(ref)) {
    const REPLACE = vscode.l10n.t('Replace Alt Text');
    if ((await vscode.window.showWarningMessage(vscode.l10n.t('This image already has alt text. Replace it with a generated one?'), REPLACE)) !== REPLACE) return;
  }
  const version = doc.version;
  const retry = () => altTextAtCursor(services, { uri: doc.uri, offset });
  const out = await runContentTask(
    services,
    'alt_text',
    vscode.l10n.t('Generating alt text…'),
    async (deps) => generateAltText(deps, { image: await imageFor(doc, ref), model: deps.model?.id, context: surroundingContext(text, ref) }),
    retry,
  );
  if (!out) return;
  markStepDone('altText');
  const now = currentRef(doc, syntax, version, index, ref);
  if (!now) {
    void vscode.window.showWarningMessage(vscode.l10n.t('The document changed while the alt text was being generated, so nothing was changed. Run the command again.'));
    return;
  }
  // Shown as a diff first; written (one undo) only when accepted.
  if (!(await proposeOffsetEdits(doc, [altTextEdit(now, out.result.altText)], vscode.l10n.t('alt text')))) return;
  services.log.info(`Alt text added (${out.via === 'chat' ? 'chat fallback' : 'alt-text endpoint'}${out.requestId ? `, request ${out.requestId}` : ''}).`);
  vscode.window.setStatusBarMessage(vscode.l10n.t('Alt text added.'), 3000);
}

/** Generates alt text for every image in the file that lacks it, applied together as one edit. */
export async function fixAllAltText(services: ContentServices, uri?: vscode.Uri): Promise<void> {
  const doc = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
  const syntax = doc ? syntaxForLanguage(doc.languageId) : undefined;
  if (!doc || !syntax) {
    void vscode.window.showWarningMessage(notSupported());
    return;
  }
  const text = doc.getText();
  const scan = scanImagesNeedingAlt(text, syntax);
  const targets = scan.problems.map((p) => p.ref);
  if (scan.truncated) {
    services.log.warn(
      `Generate alt text for all images: the file was looked at only up to offset ${scan.truncated.scannedChars} (${scan.truncated.reason === 'chars' ? `first ${scan.truncated.limit} characters` : `first ${scan.truncated.limit} images`}); images after that are left as they are.`,
    );
  }
  if (targets.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Every image in this file already has alt text.'));
    return;
  }
  const version = doc.version;
  const failures: string[] = [];
  if (!vscode.workspace.isTrusted) {
    // A cloned repository decides which files its Markdown names; in Restricted Mode nothing local
    // is read without a yes for this run.
    const local = countLocal(doc, targets);
    if (local > 0) {
      const read = await confirmReadLocalImages(local, true);
      if (!read) return;
    }
  }
  const edits = await runContentTask(services, 'alt_text', targets.length === 1 ? vscode.l10n.t('Generating alt text for 1 image…') : vscode.l10n.t('Generating alt text for {0} images…', targets.length), async (deps, progress) => {
    const out: Array<{ start: number; end: number; newText: string }> = [];
    for (const [i, ref] of targets.entries()) {
      progress.report({ message: vscode.l10n.t('{0} of {1}', i + 1, targets.length), increment: 100 / targets.length });
      try {
        const r = await generateAltText(deps, { image: await imageFor(doc, ref), model: deps.model?.id, context: surroundingContext(text, ref) });
        out.push(altTextEdit(ref, r.result.altText));
      } catch (e) {
        // Failures that will repeat for every image (cancel, key, scope, outage) stop the whole run.
        if (isGatewayError(e) && e.reason !== 'invalid_request' && e.reason !== 'protocol' && e.reason !== 'content_policy') throw e;
        failures.push(`${ref.src ?? vscode.l10n.t('a dynamic image')}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return out;
  });
  if (!edits) return;
  if (edits.length > 0) markStepDone('altText');
  if (doc.version !== version) {
    void vscode.window.showWarningMessage(vscode.l10n.t('The document changed while alt text was being generated, so nothing was changed. Run the command again.'));
    return;
  }
  // One diff for every image; accepted as one edit (one undo), or per change through Choose Changes.
  if (edits.length > 0 && !(await proposeOffsetEdits(doc, edits, edits.length === 1 ? vscode.l10n.t('alt text for 1 image') : vscode.l10n.t('alt text for {0} images', edits.length)))) {
    for (const f of failures) services.log.warn(`Alt text not generated for ${f}`);
    return;
  }
  for (const f of failures) services.log.warn(`Alt text not generated for ${f}`);
  if (failures.length > 0) {
    void showErrorNotification(new Error(vscode.l10n.t('{0} of {1} images got no alt text (details in the log). First: {2}', failures.length, targets.length, failures[0])), { severity: 'warning' });
  } else {
    vscode.window.setStatusBarMessage(edits.length === 1 ? vscode.l10n.t('Alt text added to 1 image.') : vscode.l10n.t('Alt text added to {0} images.', edits.length), 3000);
  }
}

/** Alt text for an image file picked in the explorer: shown, copied, or inserted as markup near the cursor. */
export async function altTextForImageFile(services: ContentServices, image: vscode.Uri): Promise<void> {
  const out = await runContentTask(services, 'alt_text', vscode.l10n.t('Generating alt text for {0}…', image.path.split('/').pop() ?? ''), async (deps) =>
    generateAltText(deps, {
      image: await (image.scheme === 'file'
        ? readWorkspaceImage(image.fsPath, { roots: workspaceRoots(image) })
        : Promise.reject(new ContentError('unresolvable_image', vscode.l10n.t('{0} is not a file on disk, so it cannot be read.', image.path.split('/').pop() ?? '')))),
      model: deps.model?.id,
    }),
  );
  if (!out) return;
  markStepDone('altText');
  const alt = out.result.altText;
  const editor = vscode.window.activeTextEditor;
  const syntax = editor ? syntaxForLanguage(editor.document.languageId) : undefined;
  const COPY = vscode.l10n.t('Copy');
  const INSERT = vscode.l10n.t('Insert Image at Cursor');
  const choice = await vscode.window.showInformationMessage(vscode.l10n.t('Alt text for {0}: {1}', image.path.split('/').pop() ?? '', alt), ...(editor && syntax ? [INSERT, COPY] : [COPY]));
  if (choice === COPY) {
    await vscode.env.clipboard.writeText(alt);
  } else if (choice === INSERT && editor && syntax) {
    const doc = editor.document;
    const src = doc.uri.scheme === image.scheme ? relativePath(doc.uri.path, image.path) : image.toString();
    // On lines of its own near the cursor, never inside front matter, a code block or a tag.
    const sel = editor.selection;
    const where = insertAtSelection(doc.offsetAt(sel.start), doc.offsetAt(sel.end), doc.offsetAt(sel.active));
    const edit = placeBlock(doc.getText(), documentKind(doc.languageId), where, imageMarkup(syntax, src, alt), doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
    await proposeOffsetEdits(doc, [edit], vscode.l10n.t('image {0} with its alt text', image.path.split('/').pop() ?? ''));
  }
}

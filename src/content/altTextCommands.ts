/**
 * Alt text in the editor: for the image reference under the cursor (or a quick fix's image), for
 * every image missing alt in a file, and for an image file picked in the explorer. Local images are
 * read from the workspace and sent inline; remote ones are sent as URLs. The document is changed only
 * after a success, with one undoable edit.
 */
import * as vscode from 'vscode';
import { confirmRisky } from '../safeDialog';
// This module is imported on the first command, never at activation, so it imports src/core/content freely.
import { findImageRefs, scanImagesNeedingAlt, syntaxForLanguage, type ImageRef, type ImageSyntax } from '../core/content/imageRefs';
import { isGatewayError } from '../core/http/errors';
import { showErrorNotification } from '../errorNotifications';
import type { Services } from '../services';
import { altTextEdit, classifySrc, hasAlt, mediaTypeForPath, surroundingContext } from '../core/content/altText';
import { generateAltText } from '../core/content/contentClient';
import { ContentError } from '../core/content/contentErrors';
import { resolveJsxImportedSrc } from '../core/content/imageRefs';
import { documentKind, insertAtSelection, placeBlock } from '../core/content/insertion';
import { readWorkspaceImage } from '../core/content/localImage';
import { imageMarkup, relativePath } from '../core/content/placement';
import { proposeOffsetEdits, runContentTask } from './contentRunner';
import { imageForRef, workspaceRoots } from '../platform/contentSend';

/** The argument a quick fix passes: which document, and an offset inside the image reference. */
export interface ImageTarget {
  uri: vscode.Uri;
  offset: number;
}

export function isImageTarget(arg: unknown): arg is ImageTarget {
  return typeof arg === 'object' && arg !== null && (arg as ImageTarget).uri instanceof vscode.Uri && typeof (arg as ImageTarget).offset === 'number';
}

export async function isImageFile(_services: Services, uri: vscode.Uri): Promise<boolean> {
  return mediaTypeForPath(uri.path) !== undefined;
}

const NOT_SUPPORTED = 'Alt text works on images in Markdown, HTML, PHP and JSX files, or on an image file in the Explorer.';

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
export async function altTextAtCursor(services: Services, target?: ImageTarget): Promise<void> {
  const doc = target ? await vscode.workspace.openTextDocument(target.uri) : vscode.window.activeTextEditor?.document;
  const syntax = doc ? syntaxForLanguage(doc.languageId) : undefined;
  if (!doc || !syntax) {
    void vscode.window.showWarningMessage(NOT_SUPPORTED);
    return;
  }
  const offset = target?.offset ?? doc.offsetAt(vscode.window.activeTextEditor?.selection.active ?? new vscode.Position(0, 0));
  const text = doc.getText();
  const refs = findImageRefs(text, syntax);
  const index = refIndexAt(refs, offset);
  if (index < 0) {
    void vscode.window.showWarningMessage('There is no image under the cursor. Put the cursor on ![…](…) or <img …>, or right-click an image file in the Explorer.');
    return;
  }
  const ref = refs[index];
  if (!target && hasAlt(ref)) {
    const REPLACE = 'Replace Alt Text';
    if ((await vscode.window.showWarningMessage('This image already has alt text. Replace it with a generated one?', REPLACE)) !== REPLACE) return;
  }
  const version = doc.version;
  const retry = () => altTextAtCursor(services, { uri: doc.uri, offset });
  const out = await runContentTask(
    services,
    'alt_text',
    'Generating alt text…',
    async (deps) => generateAltText(deps, { image: await imageFor(doc, ref), model: deps.model?.id, context: surroundingContext(text, ref) }),
    retry,
  );
  if (!out) return;
  const now = currentRef(doc, syntax, version, index, ref);
  if (!now) {
    void vscode.window.showWarningMessage('The document changed while the alt text was being generated, so nothing was changed. Run the command again.');
    return;
  }
  // Shown as a diff first; written (one undo) only when accepted.
  if (!(await proposeOffsetEdits(doc, [altTextEdit(now, out.result.altText)], 'alt text'))) return;
  services.log.info(`Alt text added (${out.via === 'chat' ? 'chat fallback' : 'alt-text endpoint'}${out.requestId ? `, request ${out.requestId}` : ''}).`);
  vscode.window.setStatusBarMessage('Alt text added.', 3000);
}

/** Generates alt text for every image in the file that lacks it, applied together as one edit. */
export async function fixAllAltText(services: Services, uri?: vscode.Uri): Promise<void> {
  const doc = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
  const syntax = doc ? syntaxForLanguage(doc.languageId) : undefined;
  if (!doc || !syntax) {
    void vscode.window.showWarningMessage(NOT_SUPPORTED);
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
    void vscode.window.showInformationMessage('Every image in this file already has alt text.');
    return;
  }
  const version = doc.version;
  const failures: string[] = [];
  if (!vscode.workspace.isTrusted) {
    // A cloned repository decides which files its Markdown names; in Restricted Mode nothing local
    // is read without a yes for this run.
    const local = countLocal(doc, targets);
    if (local > 0) {
      const READ = `Read ${local} File${local === 1 ? '' : 's'}`;
      const read = await confirmRisky({
        message: `This workspace is in Restricted Mode. Generating alt text for all images will read ${local} local image file${local === 1 ? '' : 's'} from it and send ${local === 1 ? 'it' : 'them'} to the AI Gateway. Continue?`,
        detail: 'Only files inside the workspace folders that really are PNG, JPEG, GIF, WebP, AVIF or SVG images are read.',
        safe: "Don't Read",
        action: READ,
      });
      if (!read) return;
    }
  }
  const edits = await runContentTask(services, 'alt_text', `Generating alt text for ${targets.length} image${targets.length === 1 ? '' : 's'}…`, async (deps, progress) => {
    const out: Array<{ start: number; end: number; newText: string }> = [];
    for (const [i, ref] of targets.entries()) {
      progress.report({ message: `${i + 1} of ${targets.length}`, increment: 100 / targets.length });
      try {
        const r = await generateAltText(deps, { image: await imageFor(doc, ref), model: deps.model?.id, context: surroundingContext(text, ref) });
        out.push(altTextEdit(ref, r.result.altText));
      } catch (e) {
        // Failures that will repeat for every image (cancel, key, scope, outage) stop the whole run.
        if (isGatewayError(e) && e.reason !== 'invalid_request' && e.reason !== 'protocol' && e.reason !== 'content_policy') throw e;
        failures.push(`${ref.src ?? 'a dynamic image'}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return out;
  });
  if (!edits) return;
  if (doc.version !== version) {
    void vscode.window.showWarningMessage('The document changed while alt text was being generated, so nothing was changed. Run the command again.');
    return;
  }
  // One diff for every image; accepted as one edit (one undo), or per change through Choose Changes.
  if (edits.length > 0 && !(await proposeOffsetEdits(doc, edits, `alt text for ${edits.length} image${edits.length === 1 ? '' : 's'}`))) {
    for (const f of failures) services.log.warn(`Alt text not generated for ${f}`);
    return;
  }
  for (const f of failures) services.log.warn(`Alt text not generated for ${f}`);
  if (failures.length > 0) {
    void showErrorNotification(new Error(`${failures.length} of ${targets.length} images got no alt text (details in the log). First: ${failures[0]}`), { severity: 'warning' });
  } else {
    vscode.window.setStatusBarMessage(`Alt text added to ${edits.length} image${edits.length === 1 ? '' : 's'}.`, 3000);
  }
}

/** Alt text for an image file picked in the explorer: shown, copied, or inserted as markup near the cursor. */
export async function altTextForImageFile(services: Services, image: vscode.Uri): Promise<void> {
  const out = await runContentTask(services, 'alt_text', `Generating alt text for ${image.path.split('/').pop()}…`, async (deps) =>
    generateAltText(deps, {
      image: await (image.scheme === 'file'
        ? readWorkspaceImage(image.fsPath, { roots: workspaceRoots(image) })
        : Promise.reject(new ContentError('unresolvable_image', `${image.path.split('/').pop()} is not a file on disk, so it cannot be read.`))),
      model: deps.model?.id,
    }),
  );
  if (!out) return;
  const alt = out.result.altText;
  const editor = vscode.window.activeTextEditor;
  const syntax = editor ? syntaxForLanguage(editor.document.languageId) : undefined;
  const COPY = 'Copy';
  const INSERT = 'Insert Image at Cursor';
  const choice = await vscode.window.showInformationMessage(`Alt text for ${image.path.split('/').pop()}: ${alt}`, ...(editor && syntax ? [INSERT, COPY] : [COPY]));
  if (choice === COPY) {
    await vscode.env.clipboard.writeText(alt);
  } else if (choice === INSERT && editor && syntax) {
    const doc = editor.document;
    const src = doc.uri.scheme === image.scheme ? relativePath(doc.uri.path, image.path) : image.toString();
    // On lines of its own near the cursor, never inside front matter, a code block or a tag.
    const sel = editor.selection;
    const where = insertAtSelection(doc.offsetAt(sel.start), doc.offsetAt(sel.end), doc.offsetAt(sel.active));
    const edit = placeBlock(doc.getText(), documentKind(doc.languageId), where, imageMarkup(syntax, src, alt), doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
    await proposeOffsetEdits(doc, [edit], `image ${image.path.split('/').pop()} with its alt text`);
  }
}

/**
 * Generate Image: prompt (prefilled from the selection), model with `image_generation`, a size when
 * the schema lists them, how many images (each choice with its exact cost), the exact cost before
 * sending, progress with Cancel, then a preview of every image with Save to Workspace, Insert into
 * Document and Discard acting on the chosen one. The workspace changes only on Save or Insert,
 * through checkSaveTarget (realpath inside the workspace) and an atomic write.
 */
import * as vscode from 'vscode';
import { generateAltText } from '../core/content/contentClient';
import { documentKind, insertAtSelection, placeBlock } from '../core/content/insertion';
import { checkImageRequest, generateImage, maxImageCount } from '../core/media/mediaClient';
import { imageCost, imageCountChoices } from '../core/media/mediaCost';
import { imageMarkup, relativePath } from '../core/content/placement';
import { syntaxForLanguage } from '../core/content/imageRefs';
import type { GeneratedImage } from '../core/media/mediaClient';
import type { Model } from '../core/gateway/types';
import { contentModel } from '../platform/defaultModel';
import { settings } from '../platform/config';
import { showErrorNotification } from '../platform/errorNotifications';
import type { MediaHostHandlers, MediaWebviewToHost } from '../protocol/mediaProtocol';
import { checkSaveTarget, dataUri, fileNameFromPrompt, writeFileAtomically } from './mediaFiles';
import { MediaPanel } from './mediaPanel';
import { confirmCost, mediaDeps, pickModel, recordSpend, runMediaTask, schemaOptions, showRefusal, workspaceRoots, type MediaContext } from './mediaRunner';
import { withTokenSignal } from '../platform/cancellation';

const MAX_PROMPT_PREFILL = 4000;

/** Where Insert into Document puts the image: the document and cursor when the command ran. */
interface InsertTarget {
  uri: vscode.Uri;
  offset: number;
  languageId: string;
}

export async function generateImageCommand(ctx: MediaContext): Promise<void> {
  const { services } = ctx;
  const editor = vscode.window.activeTextEditor;
  const selected = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection).trim().slice(0, MAX_PROMPT_PREFILL) : '';
  const prompt = await vscode.window.showInputBox({
    title: vscode.l10n.t('Generate Image'),
    prompt: vscode.l10n.t('What should the image show?'),
    value: selected,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Describe the image.')),
  });
  if (prompt === undefined) return;
  try {
    checkImageRequest({ model: '', prompt });
  } catch (e) {
    return showRefusal(e);
  }
  const model = await pickModel(services, 'image_generation', settings.defaultImageModel, vscode.l10n.t('image generation'));
  if (!model) return;
  const options = await schemaOptions(services, model.id);
  let size: string | undefined;
  if (options.sizes && options.sizes.length > 0) {
    const ordered = options.defaultSize ? [options.defaultSize, ...options.sizes.filter((s) => s !== options.defaultSize)] : options.sizes;
    const pick = await vscode.window.showQuickPick(
      ordered.map((s) => ({ label: s, description: s === options.defaultSize ? vscode.l10n.t('default') : undefined })),
      { title: vscode.l10n.t('Image size ({0})', model.id) },
    );
    if (!pick) return;
    size = pick.label;
  }
  // How many: 1 to the schema's maximum (capped), each choice with its exact cost; 1 is first.
  const choices = imageCountChoices(model.pricing, maxImageCount({ maxImages: options.maxImages }));
  let count = 1;
  if (choices.length > 1) {
    const pick = await vscode.window.showQuickPick(
      choices.map((c) => ({ label: c.label, description: c.costText, count: c.count })),
      { title: vscode.l10n.t('Number of images ({0})', model.id) },
    );
    if (!pick) return;
    count = pick.count;
  }
  const cost = imageCost(model.pricing, count);
  const question =
    count === 1
      ? size
        ? vscode.l10n.t('Generate 1 image ({0}) with {1}?', size, model.id)
        : vscode.l10n.t('Generate 1 image with {0}?', model.id)
      : size
        ? vscode.l10n.t('Generate {0} images ({1}) with {2}?', count, size, model.id)
        : vscode.l10n.t('Generate {0} images with {1}?', count, model.id);
  if (!(await confirmCost(question, cost))) return;
  if (!(await ctx.services.budget.allowSend(vscode.l10n.t('Media')))) return;

  const target: InsertTarget | undefined =
    editor && syntaxForLanguage(editor.document.languageId) ? { uri: editor.document.uri, offset: editor.document.offsetAt(editor.selection.active), languageId: editor.document.languageId } : undefined;
  const out = await runMediaTask(services, count === 1 ? vscode.l10n.t('Generating an image with {0}…', model.id) : vscode.l10n.t('Generating {0} images with {1}…', count, model.id), async (signal) => {
    const res = await generateImage(await mediaDeps(services, signal), { model: model.id, prompt, count, ...(size ? { size } : {}) }, { maxImages: options.maxImages });
    recordSpend(ctx, model, 'image-generation', cost, res.billedImages, res.requestId);
    return res;
  });
  if (!out || out.images.length === 0) return;
  services.log.info(`${out.images.length} image(s) generated by ${model.id} (${out.images[0].source}${out.requestId ? `, request ${out.requestId}` : ''}).`);
  showPreview(ctx, model, prompt, size, out.images, target);
}

function showPreview(ctx: MediaContext, model: Model, prompt: string, size: string | undefined, images: GeneratedImage[], target: InsertTarget | undefined): void {
  const name = target ? target.uri.path.split('/').pop() : undefined;
  // Where each image was saved, so Insert after Save does not ask again for that image.
  const savedAt = new Map<number, vscode.Uri>();
  let busy = false;
  const act = async (m: MediaWebviewToHost & { type: 'save' | 'insert' }, panel: MediaPanel): Promise<void> => {
    // The page says which image; anything but one of ours is ignored.
    const index = m.index ?? 0;
    const image = images[index];
    if (!image || busy) return;
    busy = true;
    try {
      if (m.type === 'save') {
        const saved = await saveImage(ctx, image, prompt, target?.uri);
        if (saved) {
          savedAt.set(index, saved);
          panel.status(vscode.l10n.t('Saved to {0}.', vscode.workspace.asRelativePath(saved)));
        }
      } else if (target) {
        panel.status(vscode.l10n.t('Saving and writing alt text…'), true);
        const outcome = await insertImage(ctx, image, prompt, target, savedAt.get(index));
        panel.status(outcome?.text ?? '');
        // The panel stays open after a cancel, so the user can try again or save instead.
        if (outcome?.inserted) panel.dispose();
      }
    } finally {
      busy = false;
    }
  };
  new MediaPanel(
    ctx.services.context.extensionUri,
    'mediaImage',
    vscode.l10n.t('Generated Image'),
    {
      type: 'image',
      images: images.map((image) => ({ dataUri: dataUri(image.mediaType, image.bytes), ...(image.revisedPrompt ? { revisedPrompt: image.revisedPrompt } : {}) })),
      prompt,
      model: model.id,
      ...(size ? { size } : {}),
      canInsert: target !== undefined,
      insertLabel: name ? vscode.l10n.t('Insert into {0}', name) : vscode.l10n.t('Insert into Document'),
    },
    (panel): MediaHostHandlers => ({ save: (m) => act(m, panel), insert: (m) => act(m, panel), discard: () => panel.dispose() }),
    ctx.services.log,
  );
}

/** Asks where to save (default next to the document), refuses a path outside the workspace, writes atomically. */
async function saveImage(ctx: MediaContext, image: GeneratedImage, prompt: string, near: vscode.Uri | undefined): Promise<vscode.Uri | undefined> {
  const roots = workspaceRoots(near);
  if (roots.length === 0) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Open a folder first: generated images are saved only inside the workspace folders.'));
    return undefined;
  }
  const folder = near?.scheme === 'file' ? vscode.Uri.joinPath(near, '..') : vscode.Uri.file(roots[0]);
  const picked = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Save Generated Image'),
    defaultUri: vscode.Uri.joinPath(folder, fileNameFromPrompt(prompt, image.mediaType)),
    filters: { [vscode.l10n.t('Image')]: [image.mediaType.split('/')[1] === 'jpeg' ? 'jpg' : image.mediaType.split('/')[1]] },
  });
  if (!picked) return undefined;
  try {
    if (picked.scheme !== 'file') throw new Error(vscode.l10n.t('Images are saved only to files on disk inside the workspace.'));
    const real = await checkSaveTarget(picked.fsPath, roots);
    await writeFileAtomically(real, image.bytes);
    ctx.services.log.info(`Generated image saved to ${real}.`);
    return vscode.Uri.file(real);
  } catch (e) {
    void showErrorNotification(e, { context: vscode.l10n.t('The image was not saved') });
    return undefined;
  }
}

/**
 * Saves the image (unless already saved), asks for alt text, then inserts the markup near the cursor,
 * on lines of its own, as ONE edit. Without alt text (the model failed) the image is inserted with an empty alt, and the
 * user is told. Cancelling the alt text, or an insert VS Code refuses, removes the file this insert
 * saved (a file saved earlier with Save stays): a cancelled or failed insert changes nothing.
 * Returns the status line, or undefined when nothing was inserted.
 */
async function insertImage(ctx: MediaContext, image: GeneratedImage, prompt: string, target: InsertTarget, savedAt: vscode.Uri | undefined): Promise<{ text: string; inserted: boolean } | undefined> {
  const { services } = ctx;
  const file = savedAt ?? (await saveImage(ctx, image, prompt, target.uri));
  if (!file) return undefined;
  const undoSave = async (): Promise<void> => {
    if (savedAt) return;
    await vscode.workspace.fs.delete(file, { useTrash: false }).then(undefined, (e: unknown) => services.log.warn(`Could not remove ${file.fsPath}: ${e instanceof Error ? e.message : String(e)}`));
  };
  let alt = '';
  let altProblem: string | undefined;
  let cancelled = false;
  try {
    const altOut = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Generating alt text…'), cancellable: true }, (_p, token) =>
      withTokenSignal(token, async (signal) => {
        try {
          const model = await contentModel(services, 'alt_text');
          return await generateAltText(
            { client: await services.getClient(), log: services.log, model, signal },
            { image: { kind: 'bytes', mediaType: image.mediaType, base64: Buffer.from(image.bytes).toString('base64') }, model: model?.id, context: prompt },
          );
        } finally {
          cancelled = token.isCancellationRequested;
        }
      }),
    );
    alt = altOut.result.altText;
  } catch (e) {
    altProblem = e instanceof Error ? e.message : String(e);
    services.log.warn(`Alt text for the generated image failed: ${altProblem}`);
  }
  if (cancelled) {
    await undoSave();
    return { text: vscode.l10n.t('Cancelled: nothing was inserted.'), inserted: false };
  }
  let doc: vscode.TextDocument;
  try {
    doc = await vscode.workspace.openTextDocument(target.uri);
  } catch (e) {
    await undoSave();
    void showErrorNotification(e, { context: vscode.l10n.t('The image was not inserted') });
    return undefined;
  }
  const syntax = syntaxForLanguage(doc.languageId);
  if (!syntax) {
    await undoSave();
    return undefined;
  }
  const src = doc.uri.scheme === 'file' ? relativePath(doc.uri.path, file.path) : file.toString();
  const markup = imageMarkup(syntax, src, alt);
  // Near the cursor where it is now when the document is open in an editor, else where it was; on
  // lines of its own, never inside front matter, a code block or a tag (src/core/content/insertion.ts).
  const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === doc.uri.toString());
  const sel = visible?.selection;
  const where = sel ? insertAtSelection(doc.offsetAt(sel.start), doc.offsetAt(sel.end), doc.offsetAt(sel.active)) : { at: 'cursor' as const, offset: target.offset };
  const edit = placeBlock(doc.getText(), documentKind(doc.languageId), where, markup, doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
  const we = new vscode.WorkspaceEdit();
  we.insert(doc.uri, doc.positionAt(edit.start), edit.newText);
  if (!(await vscode.workspace.applyEdit(we))) {
    await undoSave();
    void vscode.window.showErrorMessage(savedAt ? vscode.l10n.t('VS Code did not insert the image (is the file read-only?). The image stays saved at {0}.', vscode.workspace.asRelativePath(file)) : vscode.l10n.t('VS Code did not insert the image (is the file read-only?). Nothing was changed.'));
    return undefined;
  }
  if (altProblem) {
    void vscode.window.showWarningMessage(vscode.l10n.t('The image was inserted with an empty alt text because alt text could not be generated: {0}', altProblem));
    return { text: vscode.l10n.t('Inserted without alt text.'), inserted: true };
  }
  return { text: vscode.l10n.t('Inserted with alt text.'), inserted: true };
}

/**
 * What every surface that runs a content operation (the palette commands of src/content, the
 * `@gateway` chat participant of src/participant) does before and around a billed send, so both give
 * the same confirmations:
 *  - the budget guard, then, for a large input, the cost before sending (src/platform/costConfirm.ts);
 *  - the image behind an image reference: a URL, checked inline bytes, or a checked workspace file
 *    (read only from inside the workspace folders, by src/core/content/localImage.ts).
 */
import * as vscode from 'vscode';
import { classifySrc } from '../core/content/altText';
import { ContentError } from '../core/content/contentErrors';
import { resolveJsxImportedSrc, type ImageRef } from '../core/content/imageRefs';
import { checkInlineImage, readLocalImage } from '../core/content/localImage';
import type { ImageSource } from '../core/content/wire';
import type { BudgetService } from './budgetService';
import { confirmRisky } from './safeDialog';
import { confirmCostBeforeSending, type CostConfirmDeps } from './costConfirm';

/** What the confirmations before a content send need (src/services.ts composes it). */
export interface ContentSendDeps extends CostConfirmDeps {
  readonly budget: Pick<BudgetService, 'allowSend'>;
}

/**
 * The budget guard and, when `promptText` is given and large, the cost of the prompt on `modelId`.
 * True: go ahead. False: the user stopped (the dialogs said why). Working out the cost never blocks.
 */
export async function confirmContentSend(services: ContentSendDeps, operation: string, modelId: () => Promise<string | undefined>, promptText?: string): Promise<boolean> {
  if (!(await services.budget.allowSend(operation))) return false;
  if (promptText === undefined) return true;
  try {
    return await confirmCostBeforeSending(services, { operation, modelId: await modelId(), text: promptText });
  } catch (e) {
    // The cost is a courtesy: failing to work it out never blocks the command.
    services.log.warn(`Cost before sending: ${e instanceof Error ? e.message : String(e)}`);
    return true;
  }
}

/**
 * The workspace folders on disk, the document's own folder first. Images are read only from inside
 * these (after symlinks), by the checked reader in src/core/content/localImage.ts.
 */
export function workspaceRoots(doc?: vscode.Uri): string[] {
  const own = doc ? vscode.workspace.getWorkspaceFolder(doc) : undefined;
  const all = vscode.workspace.workspaceFolders ?? [];
  return [...(own ? [own] : []), ...all.filter((f) => f !== own)].filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

/** The image behind a reference of `doc`: a URL, checked inline bytes, or a checked workspace file. */
export async function imageForRef(doc: { uri: vscode.Uri; getText(): string }, ref: ImageRef): Promise<ImageSource> {
  const src = ref.src ?? resolveJsxImportedSrc(doc.getText(), ref);
  const c = classifySrc(src);
  if (c.kind === 'remote') return { kind: 'url', url: c.url };
  if (c.kind === 'inline') return checkInlineImage(c.image);
  if (c.kind === 'unsupported') throw new ContentError('unresolvable_image', c.reason);
  if (doc.uri.scheme !== 'file' && doc.uri.scheme !== 'untitled') {
    throw new ContentError('unresolvable_image', vscode.l10n.t('Images next to {0}: documents cannot be read; only files on disk are.', doc.uri.scheme));
  }
  return readLocalImage(c, doc.uri.scheme === 'file' ? doc.uri.fsPath : undefined, { roots: workspaceRoots(doc.uri) });
}

/**
 * In Restricted Mode, a yes before `count` local image files are read and sent (a cloned repository decides
 * which files its documents name). `allImages`: the question of Generate Alt Text for All Images.
 */
export function confirmReadLocalImages(count: number, allImages = false): Promise<boolean> {
  const message = allImages
    ? count === 1
      ? vscode.l10n.t('This workspace is in Restricted Mode. Generating alt text for all images will read 1 local image file from it and send it to the AI Gateway. Read and send it?')
      : vscode.l10n.t('This workspace is in Restricted Mode. Generating alt text for all images will read {0} local image files from it and send them to the AI Gateway. Read and send them?', count)
    : count === 1
      ? vscode.l10n.t('This workspace is in Restricted Mode. Generating alt text will read 1 local image file from it and send it to the AI Gateway. Read and send it?')
      : vscode.l10n.t('This workspace is in Restricted Mode. Generating alt text will read {0} local image files from it and send them to the AI Gateway. Read and send them?', count);
  return confirmRisky({
    message,
    detail: vscode.l10n.t('Only files inside the workspace folders that really are PNG, JPEG, GIF, WebP, AVIF or SVG images are read.'),
    safe: vscode.l10n.t("Don't Read"),
    action: count === 1 ? vscode.l10n.t('Read 1 File') : vscode.l10n.t('Read {0} Files', count),
  });
}

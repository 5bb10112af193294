/**
 * Messages between the media webviews (src/webview/media: image preview, read-aloud player) and the
 * host (src/media/mediaPanel.ts). The host sends the media as a data: URI of bytes it has checked; the
 * pages never load anything else. Each side checks what arrives with the guard for its direction.
 */
import { isArrayOf, isFiniteNumber, isOptional, isRecord, isString } from '../core/guards';

/** One generated image: its checked bytes as a data: URI, and the prompt as the model rewrote it. */
export type PreviewImage = { dataUri: string; revisedPrompt?: string };

export type ImageHostMessage = {
  type: 'image';
  /** Every image of the request, in the gateway's order; Save and Insert act on the chosen one. */
  images: PreviewImage[];
  prompt: string;
  model: string;
  size?: string;
  /** Whether Insert into Document is possible (a document in an image-aware language was active). */
  canInsert: boolean;
  insertLabel: string;
};

export type AudioHostMessage = { type: 'audio'; dataUri: string; model: string; voice?: string; characters: number; text: string };

/** Busy or done states the host reports back after an action. */
export type StatusMessage = { type: 'status'; text: string; busy: boolean };

export type HostToMediaWebview = ImageHostMessage | AudioHostMessage | StatusMessage;

/**
 * `index` (save, insert) is the chosen image of the preview, 0 when absent (the player's one audio).
 * The host still checks it against the images it holds.
 */
export type MediaWebviewToHost = { type: 'ready' } | { type: 'save'; index?: number } | { type: 'insert'; index?: number } | { type: 'discard' };

const isIndex = (x: unknown): boolean => x === undefined || (Number.isSafeInteger(x) && (x as number) >= 0);

/** Guard for what the host receives from a media page. */
export function isMediaWebviewToHost(m: unknown): m is MediaWebviewToHost {
  if (!isRecord(m)) return false;
  if (m.type === 'save' || m.type === 'insert') return isIndex(m.index);
  return m.type === 'ready' || m.type === 'discard';
}

const isPreviewImage = (x: unknown): x is PreviewImage => isRecord(x) && isString(x.dataUri) && isOptional(x.revisedPrompt, isString);

/** Guard for what a media page receives from the host: every field the page reads is checked. */
export function isHostToMediaWebview(m: unknown): m is HostToMediaWebview {
  if (!isRecord(m)) return false;
  switch (m.type) {
    case 'image':
      return isArrayOf(m.images, isPreviewImage) && isString(m.prompt) && isString(m.model) && isOptional(m.size, isString) && typeof m.canInsert === 'boolean' && isString(m.insertLabel);
    case 'audio':
      return isString(m.dataUri) && isString(m.model) && isOptional(m.voice, isString) && isFiniteNumber(m.characters) && isString(m.text);
    case 'status':
      return isString(m.text) && typeof m.busy === 'boolean';
    default:
      return false;
  }
}

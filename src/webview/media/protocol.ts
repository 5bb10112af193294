/**
 * Messages between the media webviews (image preview, read-aloud player) and the host. The host
 * sends the media as a data: URI of bytes it has checked; the pages never load anything else.
 */
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

export function isMediaWebviewToHost(m: unknown): m is MediaWebviewToHost {
  const t = typeof m === 'object' && m !== null ? (m as { type?: unknown }).type : undefined;
  if (t === 'save' || t === 'insert') {
    const index = (m as { index?: unknown }).index;
    return index === undefined || (Number.isSafeInteger(index) && (index as number) >= 0);
  }
  return t === 'ready' || t === 'discard';
}

export function isHostToMediaWebview(m: unknown): m is HostToMediaWebview {
  const t = typeof m === 'object' && m !== null ? (m as { type?: unknown }).type : undefined;
  return t === 'image' || t === 'audio' || t === 'status';
}

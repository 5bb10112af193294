/**
 * Messages between the media webviews (image preview, read-aloud player) and the host. The host
 * sends the media as a data: URI of bytes it has checked; the pages never load anything else.
 */
export type ImageHostMessage = {
  type: 'image';
  dataUri: string;
  prompt: string;
  model: string;
  size?: string;
  revisedPrompt?: string;
  /** Whether Insert into Document is possible (a document in an image-aware language was active). */
  canInsert: boolean;
  insertLabel: string;
};

export type AudioHostMessage = { type: 'audio'; dataUri: string; model: string; voice?: string; characters: number; text: string };

/** Busy or done states the host reports back after an action. */
export type StatusMessage = { type: 'status'; text: string; busy: boolean };

export type HostToMediaWebview = ImageHostMessage | AudioHostMessage | StatusMessage;

export type MediaWebviewToHost = { type: 'ready' } | { type: 'save' } | { type: 'insert' } | { type: 'discard' };

export function isMediaWebviewToHost(m: unknown): m is MediaWebviewToHost {
  const t = typeof m === 'object' && m !== null ? (m as { type?: unknown }).type : undefined;
  return t === 'ready' || t === 'save' || t === 'insert' || t === 'discard';
}

export function isHostToMediaWebview(m: unknown): m is HostToMediaWebview {
  const t = typeof m === 'object' && m !== null ? (m as { type?: unknown }).type : undefined;
  return t === 'image' || t === 'audio' || t === 'status';
}

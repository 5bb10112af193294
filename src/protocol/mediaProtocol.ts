/**
 * Messages between the media webviews (src/webview/media: image preview, read-aloud player) and the
 * host (src/media/mediaPanel.ts). The host sends the media as a data: URI of bytes it has checked; the
 * pages never load anything else. Each message is declared once (src/protocol/declare.ts); its type,
 * the guard each side uses for what arrives and both handler maps derive from that line.
 */
import { isRecord, isString, isOptional } from '../core/guards';
import { arr, bool, guardOf, index, num, opt, shape, str, type Handlers, type MessageOf, type MessageOfType, type Table } from './declare';

/** One generated image: its checked bytes as a data: URI, and the prompt as the model rewrote it. */
export type PreviewImage = { dataUri: string; revisedPrompt?: string };

const isPreviewImage = (x: unknown): x is PreviewImage => isRecord(x) && isString(x.dataUri) && isOptional(x.revisedPrompt, isString);

/** Every message the host sends to a media page. */
export const HOST_TO_MEDIA = {
  image: {
    /** Every image of the request, in the gateway's order; Save and Insert act on the chosen one. */
    images: arr(shape(isPreviewImage)),
    prompt: str(),
    model: str(),
    size: opt(str()),
    /** Whether Insert into Document is possible (a document in an image-aware language was active). */
    canInsert: bool,
    insertLabel: str(),
  },
  audio: { dataUri: str(), model: str(), voice: opt(str()), characters: num, text: str() },
  /** Busy or done states the host reports back after an action. */
  status: { text: str(), busy: bool },
} satisfies Table;

/**
 * Every message a media page sends. `index` (save, insert) is the chosen image of the preview, 0 when
 * absent (the player's one audio); the host still checks it against the images it holds.
 */
export const MEDIA_TO_HOST = {
  ready: {},
  save: { index: opt(index) },
  insert: { index: opt(index) },
  discard: {},
} satisfies Table;

export type HostToMediaWebview = MessageOf<typeof HOST_TO_MEDIA>;
export type MediaWebviewToHost = MessageOf<typeof MEDIA_TO_HOST>;
export type ImageHostMessage = MessageOfType<HostToMediaWebview, 'image'>;
export type AudioHostMessage = MessageOfType<HostToMediaWebview, 'audio'>;
export type StatusMessage = MessageOfType<HostToMediaWebview, 'status'>;

/**
 * The host's handlers of one media page: one per page message but `ready` (the panel answers that one
 * itself, src/media/mediaPanel.ts). A map missing one does not compile.
 */
export type MediaHostHandlers = Handlers<Exclude<MediaWebviewToHost, { type: 'ready' }>, unknown>;
/** One handler per host message, for a media page (a page ignores the other page's media message). */
export type MediaPageHandlers = Handlers<HostToMediaWebview, void>;

/** Guard for what the host receives from a media page. */
export const isMediaWebviewToHost: (m: unknown) => m is MediaWebviewToHost = guardOf(MEDIA_TO_HOST);

/** Guard for what a media page receives from the host: every field the page reads is checked. */
export const isHostToMediaWebview: (m: unknown) => m is HostToMediaWebview = guardOf(HOST_TO_MEDIA);

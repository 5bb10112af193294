/**
 * The media feature's façade: the only place in src/media that reaches the lazily loaded chunks dist/core.js
 * and dist/editor.js
 * (see src/content/contentApi.ts for why one loader and one entry module per feature).
 */
import { loadCoreChunk, loadEditorChunk, type EditorModule } from '../lazy';

/** What the media feature may call in dist/core.js (src/core/entries/media.ts). */
export type MediaApi = typeof import('../core/entries/media');

/** Loads dist/core.js on first use (later calls get Node's cached module); rejects if the chunk is missing. */
export async function mediaApi(): Promise<MediaApi> {
  return loadCoreChunk().media;
}

/** The media commands' editor glue in dist/editor.js (src/media/mediaCommands.ts); loaded on first use. */
export function mediaCommands(): EditorModule['media'] {
  return loadEditorChunk().media;
}

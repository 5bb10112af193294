/**
 * The media pages' protocol is declared once (src/protocol/mediaProtocol.ts HOST_TO_MEDIA, MEDIA_TO_HOST);
 * both guards derive from it (#40.10). What each guard must answer is written here by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  HOST_TO_MEDIA,
  isHostToMediaWebview,
  isMediaWebviewToHost,
  MEDIA_TO_HOST,
  type HostToMediaWebview,
  type MediaHostHandlers,
  type MediaPageHandlers,
  type MediaWebviewToHost,
} from '../../../src/protocol/mediaProtocol';
import { checkProtocol, type Examples } from './declarationChecks';

const PAGE_EXAMPLES: Examples<MediaWebviewToHost> = {
  ready: { type: 'ready' },
  save: { type: 'save', index: 1 },
  insert: { type: 'insert', index: 0 },
  discard: { type: 'discard' },
};

const HOST_EXAMPLES: Examples<HostToMediaWebview> = {
  image: { type: 'image', images: [{ dataUri: 'data:image/png;base64,AA==', revisedPrompt: 'a fox' }], prompt: 'fox', model: 'm', size: '1024x1024', canInsert: true, insertLabel: 'Insert' },
  audio: { type: 'audio', dataUri: 'data:audio/mpeg;base64,AA==', model: 'm', voice: 'alloy', characters: 12, text: 'Hello there.' },
  status: { type: 'status', text: 'Saved.', busy: false },
};

const OPTIONAL: Record<string, string[]> = { save: ['index'], insert: ['index'], image: ['size'], audio: ['voice'] };

checkProtocol({
  name: 'media',
  page: { table: MEDIA_TO_HOST, examples: PAGE_EXAMPLES, guard: isMediaWebviewToHost, optional: OPTIONAL },
  host: { table: HOST_TO_MEDIA, examples: HOST_EXAMPLES, guard: isHostToMediaWebview, optional: OPTIONAL },
  dispatched: [HOST_EXAMPLES.status, HOST_EXAMPLES.audio, HOST_EXAMPLES.image],
});

test('[#40.10] media: an image index is a whole number ≥ 0; an image without its bytes is refused', () => {
  for (const index of [-1, 1.5, Number.MAX_SAFE_INTEGER + 2]) assert.equal(isMediaWebviewToHost({ type: 'save', index }), false, String(index));
  assert.equal(isHostToMediaWebview({ ...HOST_EXAMPLES.image, images: [{ revisedPrompt: 'no bytes' }] }), false);
});

// What the compiler enforces of both handler maps: each `@ts-expect-error` is a mistake that must not compile.
const pageMap: MediaPageHandlers = { image: () => undefined, audio: () => undefined, status: () => undefined };
const { status: _status, ...pageWithoutStatus } = pageMap;
// @ts-expect-error -- a media page's map misses `status`
const missingOnPage: MediaPageHandlers = pageWithoutStatus;
// @ts-expect-error -- the host's map misses `discard`
const missingOnHost: MediaHostHandlers = { save: () => undefined, insert: () => undefined };
// The panel answers `ready` itself: the host's map has no handler for it.
const withReady: MediaHostHandlers = { save: () => undefined, insert: () => undefined, discard: () => undefined };
void [missingOnPage, missingOnHost, withReady];

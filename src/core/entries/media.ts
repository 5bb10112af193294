/**
 * The media feature's part of dist/core.js (reached through src/media/mediaApi.ts): images, speech and
 * transcription with their exact costs, plus the content helpers Insert into Document reuses.
 */
export { checkImageRequest, checkSpeechText, generateImage, inspectAudioFile, isMediaError, maxImageCount, synthesizeSpeech, transcribeAudioFile } from '../content/mediaClient';
export { billedCost, imageCost, imageCountChoices, mediaSpendEntry, speechCost, transcriptionCost } from '../content/mediaCost';
export { countSpeechCharacters, MEDIA_LIMITS, mediaOptionsFromSchema } from '../content/mediaWire';
export { formatBytes } from '../bytes';
export { createDownloader, createRawGateway } from '../content/mediaTransport';
export { speechTextFrom } from '../content/mediaText';
export { generateAltText } from '../content/contentClient';
export { imageMarkup, relativePath } from '../content/placement';
export { documentKind, insertAtSelection, placeBlock } from '../content/insertion';

/**
 * The content feature's part of dist/core.js (reached through src/content/contentApi.ts): request
 * mappers, chat fallback, front-matter merge (the only user of `yaml`, ~110 KB minified), placement
 * maths and image classification. Image-reference scanning (../content/imageRefs) also stays in the
 * activation bundle for the missing-alt diagnostics.
 */
export { generateAltText, summarize, suggestTaxonomy } from '../content/contentClient';
export { ContentError } from '../content/contentErrors';
export { mergeTaxonomy, newFrontMatter, readTaxonomy } from '../content/frontMatter';
export { eolOf, imageMarkup, relativePath, relocateRange, replaceRangeEdit, requestText, taxonomyAsText } from '../content/placement';
export { documentKind, insertAtSelection, placeBlock } from '../content/insertion';
export { resolveJsxImportedSrc } from '../content/imageRefs';
export { checkInlineImage, readLocalImage, readWorkspaceImage } from '../content/localImage';
export { altTextEdit, classifySrc, hasAlt, MAX_INLINE_IMAGE_BYTES, mediaTypeForPath, SITE_ROOT_FOLDERS, surroundingContext } from '../content/altText';

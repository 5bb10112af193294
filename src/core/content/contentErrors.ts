/**
 * Failures the content feature detects itself, before or instead of a gateway call. Gateway failures
 * stay GatewayError (classified by the shared client); these carry a kind the edge turns into words.
 */
export type ContentErrorKind =
  | 'input_too_long' // the text exceeds the model's context_window: nothing was sent
  | 'empty_input' // nothing to summarise or classify
  | 'no_model' // the fallback needs a model and none is set or offered for the capability
  | 'no_image' // no image reference under the cursor
  | 'unresolvable_image' // the src is dynamic (PHP echo, JSX variable) or the file cannot be found
  | 'image_too_large' // a local image exceeds the inline upload cap
  | 'outside_workspace' // a local image resolves (after symlinks) outside every workspace folder
  | 'not_an_image' // the bytes are not a PNG, JPEG, GIF, WebP, AVIF or SVG image
  | 'front_matter'; // the front matter could not be merged safely

export class ContentError extends Error {
  readonly kind: ContentErrorKind;
  constructor(kind: ContentErrorKind, message: string) {
    super(message);
    this.name = 'ContentError';
    this.kind = kind;
  }
}

export function isContentError(e: unknown): e is ContentError {
  return e instanceof ContentError;
}

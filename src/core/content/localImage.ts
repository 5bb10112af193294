/**
 * The one checked reader for images sent to a model: every local image (alt text for one image, for
 * all images in a file, for a file picked in the Explorer, and the chat fallback that sends the same
 * bytes) is read here. A file is read only when it is really inside a workspace folder
 * (workspaceFile.ts), is at most MAX_INLINE_IMAGE_BYTES, and its bytes are a PNG, JPEG, GIF, WebP,
 * AVIF or SVG image (imageBytes.ts); the media type sent is the one the bytes show. Inline data: URIs
 * get the same content check.
 */
import * as path from 'node:path';
import { MAX_INLINE_IMAGE_BYTES, SITE_ROOT_FOLDERS } from './altText';
import { ContentError } from './contentErrors';
import { ACCEPTED_IMAGE_KINDS, sniffImageType } from './imageBytes';
import type { ImageSource } from './wire';
import { isLexicallyInside, readWorkspaceFile, WorkspaceFileError } from './workspaceFile';
import { promises as fs } from 'node:fs';
import { formatBytes } from '../bytes';

export interface LocalImageOptions {
  /** Absolute paths of the workspace folders; a file must really be inside one of them. */
  roots: readonly string[];
  /** Defaults to MAX_INLINE_IMAGE_BYTES. */
  maxBytes?: number;
}

function notAnImage(shown: string): ContentError {
  return new ContentError('not_an_image', `${shown} is not a ${ACCEPTED_IMAGE_KINDS} image (judged by its content, not its name), so it was not sent.`);
}

/** Reads one image file by absolute path under the rules above. */
export async function readWorkspaceImage(filePath: string, options: LocalImageOptions): Promise<ImageSource> {
  const maxBytes = options.maxBytes ?? MAX_INLINE_IMAGE_BYTES;
  let bytes: Buffer;
  try {
    bytes = (await readWorkspaceFile(filePath, options.roots, maxBytes)).bytes;
  } catch (e) {
    throw toContentError(e);
  }
  const mediaType = sniffImageType(bytes);
  if (!mediaType) throw notAnImage(filePath);
  return { kind: 'bytes', mediaType, base64: bytes.toString('base64') };
}

/** An inline (data: URI) image, kept only when its bytes are an accepted image; the type is re-derived. */
export function checkInlineImage(image: ImageSource): ImageSource {
  if (image.kind !== 'bytes') return image;
  const bytes = Buffer.from(image.base64, 'base64');
  if (bytes.length > MAX_INLINE_IMAGE_BYTES) {
    throw new ContentError('image_too_large', `The inline image is larger than ${formatBytes(MAX_INLINE_IMAGE_BYTES)}, so it was not sent.`);
  }
  const mediaType = sniffImageType(bytes);
  if (!mediaType) throw notAnImage('The inline data: image');
  return { kind: 'bytes', mediaType, base64: image.base64 };
}

/**
 * Where a local src may be, in order: next to the document (relative src), or under each workspace
 * folder and its site-root folders (root-relative src, or a document that is not on disk yet).
 * Paths are joined lexically; the containment check happens when one is read.
 */
export function localImageCandidates(src: { path: string; rootRelative: boolean }, documentPath: string | undefined, roots: readonly string[]): string[] {
  const out: string[] = [];
  if (!src.rootRelative && documentPath !== undefined) out.push(path.resolve(path.dirname(documentPath), src.path));
  if (src.rootRelative || documentPath === undefined) {
    for (const r of roots) for (const sub of SITE_ROOT_FOLDERS) out.push(path.resolve(r, sub, src.path));
  }
  return out;
}

/**
 * Finds and reads the image a local src names. A candidate outside the workspace folders is refused
 * without touching the file system (its name is in the error); among the others, the first that
 * exists is read, and refused if it turns out (through a symlink) to lead outside.
 */
export async function readLocalImage(src: { path: string; rootRelative: boolean }, documentPath: string | undefined, options: LocalImageOptions): Promise<ImageSource> {
  const shown = src.rootRelative ? `/${src.path}` : src.path;
  const candidates = localImageCandidates(src, documentPath, options.roots);
  // A src that climbs out of the workspace from any of its candidate places is refused outright,
  // even when another candidate would land inside: no legitimate image path does that.
  const escaping = candidates.find((c) => !isLexicallyInside(c, options.roots));
  if (escaping !== undefined || candidates.length === 0) {
    throw new ContentError(
      'outside_workspace',
      options.roots.length === 0
        ? `The image ${shown} was not read: images are read only from an open workspace folder, and none is open.`
        : `The image ${shown} (${escaping}) was not read: it is outside the workspace folders.`,
    );
  }
  const inside = candidates;
  for (const c of inside) {
    // lstat, not stat: a dangling or outside symlink still "exists" here and is then refused by name.
    const found = await fs.lstat(c).then(
      () => true,
      () => false,
    );
    if (found) return readWorkspaceImage(c, options);
  }
  const looked = inside.map((c) => relativeToRoots(c, options.roots)).join(', ');
  throw new ContentError('unresolvable_image', `Could not find the image ${shown} (looked for ${looked}).`);
}

function relativeToRoots(p: string, roots: readonly string[]): string {
  for (const r of roots) {
    const rel = path.relative(r, p);
    if (!rel.startsWith('..') && !path.isAbsolute(rel)) return roots.length > 1 ? `${path.basename(r)}/${rel}` : rel;
  }
  return p;
}

function toContentError(e: unknown): unknown {
  if (!(e instanceof WorkspaceFileError)) return e;
  switch (e.kind) {
    case 'outside_workspace':
      return new ContentError('outside_workspace', `The image ${e.message}`);
    case 'too_large':
      return new ContentError('image_too_large', e.message);
    case 'not_found':
      return new ContentError('unresolvable_image', e.message);
    default:
      return new ContentError('unresolvable_image', e.message);
  }
}

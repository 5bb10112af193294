/**
 * Where the media commands may write, and how: vscode-free so it is unit-tested on its own.
 *
 * - checkSaveTarget: a path the user picked in a save dialog is accepted only when its folder, after
 *   symlinks (realpath), is inside one of the workspace folders, and the name itself is not a symlink
 *   or a folder. A dialog can be steered to a symlinked folder of a cloned repository; the realpath
 *   check is what keeps the bytes inside the workspace.
 * - writeFileAtomically: writes to a fresh hidden temporary name in the same folder, then renames it
 *   over the target; on any failure the temporary file is deleted, so no partial file is left behind.
 * - Names and markup helpers: the default file name from a prompt, the extension for a media type.
 */
import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { isLexicallyInside, isPathInside, realRoots } from '../core/content/workspaceFile';
import * as l10n from '../core/l10n';

export class SaveTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SaveTargetError';
  }
}

/** The real path to write to, or a SaveTargetError saying why `target` is refused. */
export async function checkSaveTarget(target: string, roots: readonly string[]): Promise<string> {
  if (roots.length === 0) throw new SaveTargetError(l10n.t('Open a folder first: media files are saved only inside the workspace folders.'));
  if (!isAbsolute(target)) throw new SaveTargetError(l10n.t('{0} is not an absolute path.', target));
  if (!isLexicallyInside(target, roots)) throw new SaveTargetError(l10n.t('{0} is outside the workspace folders; nothing was saved.', target));
  const name = basename(target);
  if (!name || name === '.' || name === '..') throw new SaveTargetError(l10n.t('{0} is not a file name.', target));
  let realDir: string;
  try {
    realDir = await fs.realpath(dirname(target));
  } catch {
    throw new SaveTargetError(l10n.t('The folder of {0} does not exist; nothing was saved.', target));
  }
  const reals = await realRoots(roots);
  if (!reals.some((r) => r === realDir || isPathInside(r, realDir))) {
    throw new SaveTargetError(l10n.t('{0} resolves to {1}, outside the workspace folders; nothing was saved.', target, join(realDir, name)));
  }
  const real = join(realDir, name);
  const st = await fs.lstat(real).catch(() => undefined);
  if (st?.isSymbolicLink()) throw new SaveTargetError(l10n.t('{0} is a symbolic link; it was not overwritten.', target));
  if (st && !st.isFile()) throw new SaveTargetError(l10n.t('{0} is not a regular file; it was not overwritten.', target));
  return real;
}

/** Writes `bytes` to `target` via a temporary file and a rename; on failure nothing is left behind. */
export async function writeFileAtomically(target: string, bytes: Uint8Array): Promise<void> {
  const temp = join(dirname(target), `.${basename(target).slice(0, 80)}.${randomBytes(6).toString('hex')}.partial`);
  try {
    // 'wx': never follow or reuse something that already has the temporary name.
    await fs.writeFile(temp, bytes, { flag: 'wx' });
    await fs.rename(temp, target);
  } catch (e) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw e;
  }
}

const IMAGE_EXTENSIONS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };
const AUDIO_EXTENSIONS: Readonly<Record<string, string>> = {
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
  'audio/aac': 'aac',
  'audio/mp4': 'm4a',
  'audio/webm': 'webm',
};

export function extensionForMediaType(mediaType: string): string {
  return IMAGE_EXTENSIONS[mediaType] ?? AUDIO_EXTENSIONS[mediaType] ?? 'bin';
}

/** A file name from the first words of a prompt: lower-case ASCII words joined by '-', at most 48 chars. */
export function fileNameFromPrompt(prompt: string, mediaType: string, fallback = 'generated-image'): string {
  const words = prompt
    .normalize('NFKD')
    // Accents become separate combining marks under NFKD; dropping them keeps "crème" one word.
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  let stem = '';
  for (const w of words) {
    const next = stem ? `${stem}-${w}` : w;
    if (next.length > 48) break;
    stem = next;
  }
  return `${stem || fallback}.${extensionForMediaType(mediaType)}`;
}

/** `data:` URI for bytes the host has checked (sniffed); the webviews accept nothing else. */
export function dataUri(mediaType: string, bytes: Uint8Array): string {
  return `data:${mediaType};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
}

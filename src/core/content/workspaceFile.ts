/**
 * Reading a file a document (or a chat message) names, under one rule: the file must really be inside
 * a workspace folder. "Really" means after every symlink is followed (fs.realpath) on both the file
 * and the folder, so `../`, absolute `/../`, percent-encoded dots and a symlink to `~/.ssh/…` or
 * `/proc/self/environ` are all refused before a byte is read. Reads are bounded: the file is opened,
 * checked with fstat to be a regular file (not a FIFO or a device) and read up to `maxBytes + 1`
 * bytes whatever its reported size, because /proc files report size 0.
 *
 * Plain Node fs and no vscode: the alt-text commands use it today and chat attachments can reuse it.
 * Every failure is a WorkspaceFileError whose message names the path.
 */
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { formatBytes } from '../bytes';

export type WorkspaceFileErrorKind =
  | 'outside_workspace' // resolves (after symlinks) outside every workspace folder, or there is none
  | 'not_found' // no such file
  | 'not_a_file' // a directory, FIFO, socket or device
  | 'too_large' // more than maxBytes
  | 'unreadable'; // any other file-system failure

export class WorkspaceFileError extends Error {
  readonly kind: WorkspaceFileErrorKind;
  constructor(kind: WorkspaceFileErrorKind, message: string) {
    super(message);
    this.name = 'WorkspaceFileError';
    this.kind = kind;
  }
}

export function isWorkspaceFileError(e: unknown): e is WorkspaceFileError {
  return e instanceof WorkspaceFileError;
}

/** True when `child` is strictly below `root` (both absolute and normalised). */
export function isPathInside(root: string, child: string): boolean {
  const rel = path.relative(root, child);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/** Lexical check only (no file-system access): is `candidate` under one of `roots`? */
export function isLexicallyInside(candidate: string, roots: readonly string[]): boolean {
  const p = path.resolve(candidate);
  return roots.some((r) => isPathInside(path.resolve(r), p));
}

/** The real paths of the workspace folders that exist (a missing folder contains nothing). */
export async function realRoots(roots: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const r of roots) {
    try {
      out.push(await fs.realpath(r));
    } catch {
      // A workspace folder that does not exist (deleted, unmounted) contains nothing.
    }
  }
  return out;
}

function fsError(e: unknown, shown: string): WorkspaceFileError {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new WorkspaceFileError('not_found', `${shown} does not exist.`);
  if (code === 'ELOOP') return new WorkspaceFileError('outside_workspace', `${shown} is a symbolic link that changed while it was being read; it was not read.`);
  return new WorkspaceFileError('unreadable', `${shown} could not be read (${code ?? (e instanceof Error ? e.message : String(e))}).`);
}

/**
 * The real path of `candidate` when it resolves (after symlinks) inside one of `roots`; otherwise a
 * WorkspaceFileError naming the path. Nothing outside the roots is touched when the candidate is
 * already outside them lexically.
 */
export async function resolveInsideWorkspace(candidate: string, roots: readonly string[]): Promise<string> {
  const shown = candidate;
  if (roots.length === 0) {
    throw new WorkspaceFileError('outside_workspace', `${shown} was not read: files are read only from an open workspace folder, and none is open.`);
  }
  if (!isLexicallyInside(candidate, roots)) {
    throw new WorkspaceFileError('outside_workspace', `${shown} was not read: it is outside the workspace folders.`);
  }
  let real: string;
  try {
    real = await fs.realpath(candidate);
  } catch (e) {
    throw fsError(e, shown);
  }
  const reals = await realRoots(roots);
  if (!reals.some((r) => isPathInside(r, real))) {
    throw new WorkspaceFileError('outside_workspace', `${shown} was not read: it resolves to ${real}, outside the workspace folders.`);
  }
  return real;
}

export interface WorkspaceFileRead {
  /** The file's real path (inside a workspace folder). */
  realPath: string;
  bytes: Buffer;
}

/** Read size per step; the whole read stops at maxBytes + 1. */
const CHUNK = 64 * 1024;

/**
 * Reads `candidate` when it is a regular file really inside a workspace folder and holds at most
 * `maxBytes` bytes. Never reads more than `maxBytes + 1` bytes.
 */
export async function readWorkspaceFile(candidate: string, roots: readonly string[], maxBytes: number): Promise<WorkspaceFileRead> {
  const realPath = await resolveInsideWorkspace(candidate, roots);
  const shown = candidate;
  // O_NOFOLLOW: the real path has no symlink left in its last component, so one appearing there now
  // was put there after the check. O_NONBLOCK: opening a FIFO must not hang; it is refused below.
  const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(realPath, flags);
  } catch (e) {
    throw fsError(e, shown);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new WorkspaceFileError('not_a_file', `${shown} is not a regular file; it was not read.`);
    // The file opened must still be the one that was checked (a directory renamed in between would not be).
    const again = await fs.stat(realPath).catch(() => undefined);
    if (!again || again.ino !== st.ino || again.dev !== st.dev) {
      throw new WorkspaceFileError('outside_workspace', `${shown} changed while it was being read; it was not read.`);
    }
    // On Linux the kernel says which file the descriptor really is, which also catches a directory
    // on the way swapped for a symlink after the check.
    if (process.platform === 'linux') {
      const opened = await fs.readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
      if (opened !== undefined && !(await realRoots(roots)).some((r) => isPathInside(r, opened))) {
        throw new WorkspaceFileError('outside_workspace', `${shown} was not read: it resolves to ${opened}, outside the workspace folders.`);
      }
    }
    if (st.size > maxBytes) throw tooLarge(shown, st.size, maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const want = Math.min(CHUNK, maxBytes + 1 - total);
      if (want <= 0) break;
      const buf = Buffer.alloc(want);
      const { bytesRead } = await handle.read(buf, 0, want, null);
      if (bytesRead === 0) break;
      chunks.push(bytesRead === want ? buf : buf.subarray(0, bytesRead));
      total += bytesRead;
    }
    if (total > maxBytes) throw tooLarge(shown, undefined, maxBytes);
    return { realPath, bytes: Buffer.concat(chunks, total) };
  } catch (e) {
    throw isWorkspaceFileError(e) ? e : fsError(e, shown);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function tooLarge(shown: string, size: number | undefined, maxBytes: number): WorkspaceFileError {
  return new WorkspaceFileError('too_large', `${shown} is larger than ${formatBytes(maxBytes)}${size === undefined ? '' : ` (it is ${formatBytes(size)})`}; it was not read.`);
}

/**
 * The workspace file a knowledge-base search hit names, under the one rule for files a server names:
 * it is opened only when its real path (after every symlink, a symlinked folder on the way included)
 * is a regular file inside a workspace folder. The check is content/workspaceFile.ts's, unchanged.
 *
 * vscode-free: the editor passes the workspace folders' file-system paths.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isWorkspaceFileError, resolveInsideWorkspace } from '../content/workspaceFile';
import { workspacePathOfSource } from './indexPlan';

export type HitFile =
  /** The real path of the file to open. */
  | { kind: 'file'; realPath: string }
  /** The source names a workspace path that leads outside the workspace: say so, open nothing local. */
  | { kind: 'refused'; message: string }
  /** No such file in the workspace (or the source is not a workspace path): open the KB's copy. */
  | { kind: 'none' };

export async function workspaceFileOfSource(sourceId: string, roots: readonly string[]): Promise<HitFile> {
  const rel = workspacePathOfSource(sourceId);
  if (rel === undefined || roots.length === 0) return { kind: 'none' };
  let refused: string | undefined;
  for (const root of roots) {
    const candidate = path.join(root, ...rel.split('/'));
    let realPath: string;
    try {
      realPath = await resolveInsideWorkspace(candidate, roots);
    } catch (e) {
      if (isWorkspaceFileError(e) && e.kind === 'outside_workspace') refused ??= `${rel} was not opened: ${e.message.replace(/^.* was not read: /, '')}`;
      continue;
    }
    const st = await fs.stat(realPath).catch(() => undefined);
    if (st?.isFile()) return { kind: 'file', realPath };
  }
  return refused === undefined ? { kind: 'none' } : { kind: 'refused', message: refused };
}

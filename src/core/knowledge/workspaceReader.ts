/**
 * The indexing planner's reader over a local workspace folder, under the one rule for workspace files
 * (content/workspaceFile.ts, unchanged): a file is read for upload only when its real path, after every
 * symlink (a symlinked folder on the way included), is inside a workspace folder; a folder is listed
 * only when its real path is. A file picked in a symlinked folder that points outside the workspace is
 * therefore refused ('outside_workspace' in the plan), not read.
 *
 * A symlink in the last part of a path stays what it was to the planner: a link, never followed
 * ('other', skipped as 'special'). Bytes are read by readWorkspaceFile: the real path opened with
 * O_NOFOLLOW, the opened file checked against the one resolved, bounded to maxBytes + 1.
 *
 * Plain Node fs and no vscode: the editor passes the folder's and the workspace folders' paths.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readWorkspaceFile, resolveInsideWorkspace } from '../content/workspaceFile';
import { MAX_FILE_BYTES, type DirEntry, type PlanReader } from './indexPlan';

/**
 * `root` is the workspace folder the picked paths are relative to; `roots` are every local workspace
 * folder (a file may really live in another one). Errors are WorkspaceFileErrors, which the planner
 * turns into skip reasons.
 */
export function workspacePlanReader(root: string, roots: readonly string[], maxBytes: number = MAX_FILE_BYTES): PlanReader {
  const at = (rel: string): string => (rel === '' ? root : path.join(root, ...rel.split('/')));
  return {
    async stat(rel) {
      const candidate = at(rel);
      const own = await fs.lstat(candidate).catch(() => undefined);
      if (own === undefined) return undefined;
      if (own.isSymbolicLink() || !(own.isFile() || own.isDirectory())) return { kind: 'other', size: 0 };
      // The last part is no link; a folder on the way may be one, so the whole path is resolved.
      const real = await resolveInsideWorkspace(candidate, roots);
      const st = await fs.stat(real);
      return { kind: st.isFile() ? 'file' : st.isDirectory() ? 'folder' : 'other', size: st.size };
    },
    async list(folder) {
      // The workspace folder itself is listed as it is; any folder below it only at an inside real path.
      const real = folder === '' ? root : await resolveInsideWorkspace(at(folder), roots);
      const entries = await fs.readdir(real, { withFileTypes: true });
      return entries.map((e): DirEntry => ({ name: e.name, kind: e.isSymbolicLink() ? 'other' : e.isFile() ? 'file' : e.isDirectory() ? 'folder' : 'other' }));
    },
    read: async (rel) => (await readWorkspaceFile(at(rel), roots, maxBytes)).bytes,
  };
}

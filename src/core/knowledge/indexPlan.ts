/**
 * Plans "Index into Collection…": from the files and folders the user picked to the documents to
 * send, the ones already indexed unchanged, and the files skipped with a reason. No I/O of its own:
 * the editor passes a reader over the workspace, and the existing documents of the collection.
 *
 * Guarantees: only picked files, and files below picked folders, are ever read or planned; a
 * `.gitignore` in the workspace root or any folder between it and a file applies; `.git` folders are
 * never entered; symbolic links and other special entries are skipped (the reader reports them as
 * 'other'); a file is planned only if its type is allowed, it is within the size limit and it is
 * valid UTF-8 text. A reader that refuses a path (a WorkspaceFileError, as workspaceReader.ts throws
 * for a real path outside the workspace) gets it skipped with that reason, and nothing of it is sent.
 *
 * ASSUMED (no limit is documented): at most 1 MiB per file (MAX_FILE_BYTES) and 2,000 files per run
 * (MAX_PLANNED_FILES). The source id of a workspace file is its workspace-relative posix path.
 */
import { createHash } from 'node:crypto';
import { isWorkspaceFileError } from '../content/workspaceFile';
import { isIgnoredBy, parseGitignore, GITIGNORE_LIMITS, type GitignoreRules } from './gitignore';
import type { IndexDocumentInput, KbContentType } from './kbWire';
import { hasControlChar } from './wireCommon';

export const MAX_FILE_BYTES = 1024 * 1024;
export const MAX_PLANNED_FILES = 2000;
/** Files and folders looked at per run, so a huge picked folder ends with a 'limit' skip, not a long walk. */
export const MAX_VISITED_ENTRIES = 50_000;

const TYPES: Record<string, KbContentType> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.mdx': 'text/markdown',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.txt': 'text/plain',
  '.text': 'text/plain',
};

export type SkipReason = 'outside_workspace' | 'ignored' | 'type' | 'too_large' | 'not_text' | 'unreadable' | 'invalid_path' | 'not_found' | 'special' | 'limit';

export interface DirEntry {
  name: string;
  kind: 'file' | 'folder' | 'other';
}

/** The workspace as the planner sees it. Paths are workspace-relative posix ('' is the root). */
export interface PlanReader {
  stat(path: string): Promise<{ kind: 'file' | 'folder' | 'other'; size: number } | undefined>;
  list(folder: string): Promise<DirEntry[]>;
  /** Reads at most `maxBytes + 1` bytes is enough; the planner never needs more. */
  read(path: string): Promise<Uint8Array>;
}

/** The skip reason for a reader's failure: a WorkspaceFileError says why; anything else is `fallback`. */
function reasonOf(e: unknown, fallback: SkipReason): SkipReason {
  if (!isWorkspaceFileError(e)) return fallback;
  switch (e.kind) {
    case 'outside_workspace':
      return 'outside_workspace';
    case 'not_found':
      return 'not_found';
    case 'not_a_file':
      return 'special';
    case 'too_large':
      return 'too_large';
    default:
      return fallback;
  }
}

export interface ExistingDocument {
  documentId: string;
  sourceId: string;
  contentHash: string | undefined;
}

export interface PlannedDocument extends IndexDocumentInput {
  path: string;
  /** 'new' when the collection has no document for this source, 'changed' when its hash differs. */
  status: 'new' | 'changed';
  documentId: string | undefined;
}

export interface IndexPlan {
  send: PlannedDocument[];
  unchanged: Array<{ path: string; sourceId: string; documentId: string }>;
  skipped: Array<{ path: string; reason: SkipReason }>;
}

export interface PlanOptions {
  existing?: readonly ExistingDocument[];
  maxFileBytes?: number;
  maxFiles?: number;
  maxEntries?: number;
  signal?: AbortSignal;
}

export function contentTypeOf(path: string): KbContentType | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.lastIndexOf('.');
  return dot > 0 ? TYPES[name.slice(dot)] : undefined;
}

export function contentHash(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/**
 * A workspace-relative posix path that cannot leave the workspace: no empty, '.' or '..' segment, not
 * absolute, no backslash, drive letter, scheme, NUL or control character. Returns the normalised path.
 */
export function safeRelativePath(path: string): string | undefined {
  if (path.length === 0 || path.length > 4096) return undefined;
  if (hasControlChar(path) || path.includes('\\') || path.startsWith('/') || /^[A-Za-z]:/.test(path) || /^[A-Za-z][\w+.-]*:/.test(path)) return undefined;
  const parts = path.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) return undefined;
  return parts.join('/');
}

/** The workspace file a search hit came from, or undefined when its source is not a safe workspace path. */
export function workspacePathOfSource(sourceId: string): string | undefined {
  return safeRelativePath(sourceId);
}

function parent(path: string): string {
  const i = path.lastIndexOf('/');
  return i === -1 ? '' : path.slice(0, i);
}

function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let p = parent(path); ; p = parent(p)) {
    out.unshift(p);
    if (p === '') return out;
  }
}

function titleOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function abortError(): Error {
  const e = new Error('Indexing was cancelled');
  e.name = 'AbortError';
  return e;
}

export async function planIndexing(picked: readonly string[], reader: PlanReader, options: PlanOptions = {}): Promise<IndexPlan> {
  const maxBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
  const maxFiles = options.maxFiles ?? MAX_PLANNED_FILES;
  const maxEntries = options.maxEntries ?? MAX_VISITED_ENTRIES;
  const existing = new Map((options.existing ?? []).map((d) => [d.sourceId, d]));
  const plan: IndexPlan = { send: [], unchanged: [], skipped: [] };
  const rulesCache = new Map<string, GitignoreRules | null>();
  const visited = new Set<string>();
  let files = 0;

  const check = (): void => {
    if (options.signal?.aborted) throw abortError();
  };

  const rulesIn = async (folder: string): Promise<GitignoreRules | null> => {
    if (rulesCache.has(folder)) return rulesCache.get(folder) ?? null;
    const file = folder === '' ? '.gitignore' : `${folder}/.gitignore`;
    let rules: GitignoreRules | null = null;
    try {
      const st = await reader.stat(file);
      if (st?.kind === 'file' && st.size <= GITIGNORE_LIMITS.maxBytes) {
        rules = parseGitignore(folder, new TextDecoder('utf-8').decode(await reader.read(file)));
      }
    } catch {
      rules = null;
    }
    rulesCache.set(folder, rules);
    return rules;
  };

  const rulesFor = async (path: string): Promise<GitignoreRules[]> => {
    const out: GitignoreRules[] = [];
    for (const folder of ancestors(path)) {
      const r = await rulesIn(folder);
      if (r) out.push(r);
    }
    return out;
  };

  /** Ignored itself, or below an ignored folder or a .git folder. */
  const ignored = async (path: string, isDir: boolean): Promise<boolean> => {
    const parts = path.split('/');
    if (parts.includes('.git')) return true;
    const rules = await rulesFor(path);
    for (let i = 1; i < parts.length; i++) if (isIgnoredBy(rules, parts.slice(0, i).join('/'), true)) return true;
    return isIgnoredBy(rules, path, isDir);
  };

  const planFile = async (path: string, size: number): Promise<void> => {
    const type = contentTypeOf(path);
    if (type === undefined) return void plan.skipped.push({ path, reason: 'type' });
    if (size > maxBytes) return void plan.skipped.push({ path, reason: 'too_large' });
    if (files >= maxFiles) return void plan.skipped.push({ path, reason: 'limit' });
    let bytes: Uint8Array;
    try {
      bytes = await reader.read(path);
    } catch (e) {
      return void plan.skipped.push({ path, reason: reasonOf(e, 'unreadable') });
    }
    if (bytes.byteLength > maxBytes) return void plan.skipped.push({ path, reason: 'too_large' });
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return void plan.skipped.push({ path, reason: 'not_text' });
    }
    if (text.includes('\u0000')) return void plan.skipped.push({ path, reason: 'not_text' });
    files++;
    const hash = contentHash(bytes);
    const before = existing.get(path);
    if (before !== undefined && before.contentHash === hash) {
      plan.unchanged.push({ path, sourceId: path, documentId: before.documentId });
      return;
    }
    plan.send.push({ path, sourceId: path, title: titleOf(path), contentType: type, text, contentHash: hash, status: before ? 'changed' : 'new', documentId: before?.documentId });
  };

  const walk = async (folder: string): Promise<void> => {
    const queue = [folder];
    while (queue.length > 0) {
      check();
      const dir = queue.shift() as string;
      let entries: DirEntry[];
      try {
        entries = await reader.list(dir);
      } catch (e) {
        plan.skipped.push({ path: dir, reason: reasonOf(e, 'unreadable') });
        continue;
      }
      for (const e of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        check();
        const path = safeRelativePath(dir === '' ? e.name : `${dir}/${e.name}`);
        if (path === undefined) {
          plan.skipped.push({ path: `${dir}/${e.name}`, reason: 'invalid_path' });
          continue;
        }
        if (visited.has(path)) continue;
        if (visited.size >= maxEntries) {
          plan.skipped.push({ path: dir, reason: 'limit' });
          return;
        }
        visited.add(path);
        if (e.kind === 'other') {
          plan.skipped.push({ path, reason: 'special' });
        } else if (e.kind === 'folder') {
          if (await ignored(path, true)) plan.skipped.push({ path, reason: 'ignored' });
          else queue.push(path);
        } else {
          if (await ignored(path, false)) {
            plan.skipped.push({ path, reason: 'ignored' });
            continue;
          }
          const st = await reader.stat(path).catch((e: unknown) => reasonOf(e, 'not_found'));
          if (st === undefined || typeof st === 'string') plan.skipped.push({ path, reason: st ?? 'not_found' });
          else await planFile(path, st.size);
        }
      }
    }
  };

  for (const raw of picked) {
    check();
    const isRoot = raw === '' || raw === '.';
    const path = isRoot ? '' : safeRelativePath(raw);
    if (path === undefined) {
      plan.skipped.push({ path: raw, reason: 'invalid_path' });
      continue;
    }
    if (path !== '' && visited.has(path)) continue;
    const st = path === '' ? { kind: 'folder' as const, size: 0 } : await reader.stat(path).catch((e: unknown) => reasonOf(e, 'not_found'));
    if (st === undefined || typeof st === 'string') {
      plan.skipped.push({ path, reason: st ?? 'not_found' });
      continue;
    }
    if (path !== '') visited.add(path);
    if (st.kind === 'other') {
      plan.skipped.push({ path, reason: 'special' });
    } else if (path !== '' && (await ignored(path, st.kind === 'folder'))) {
      plan.skipped.push({ path, reason: 'ignored' });
    } else if (st.kind === 'folder') {
      await walk(path);
    } else {
      await planFile(path, st.size);
    }
  }
  return plan;
}

/** Words for a skip reason, for the summary the editor shows after planning. */
export const SKIP_REASON_TEXT: Record<SkipReason, string> = {
  outside_workspace: 'reached through a symbolic link to outside the workspace (not read)',
  ignored: 'ignored by .gitignore',
  type: 'not Markdown, HTML or plain text',
  too_large: `larger than the per-file limit`,
  not_text: 'not UTF-8 text',
  unreadable: 'could not be read',
  invalid_path: 'not a path inside the workspace',
  not_found: 'no longer exists',
  special: 'a link or special file',
  limit: 'over the limit of files per run',
};

/**
 * The editor side of context by typing (#29.4): the `#` completion's candidates (workspace files,
 * symbols of the active editor and of the workspace, the selection), what each becomes as an
 * attachment, the active editor's file as the implicit attachment, and the `/` content commands.
 *
 * Bounded everywhere: at most MAX_FILES files listed (cached for a few seconds, so typing after `#`
 * does not search the disk per key), MAX_SYMBOLS symbols, symbol providers given SYMBOL_WAIT_MS.
 * Files come from `findFiles` with the default excludes (files.exclude applies) and are read only when
 * really inside a workspace folder after symlinks (readWorkspaceFile), up to MAX_ATTACHMENT_CHARS.
 */
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import type { ContextCandidate, ImplicitContext } from '../core/chat/chatController';
import type { StoredAttachment } from '../core/chat/conversation';
import { readWorkspaceFile } from '../core/content/workspaceFile';
import { executeCommand } from '../platform/commands';

const MAX_FILES = 5000;
const FILE_CACHE_MS = 10_000;
const MAX_SYMBOLS = 300;
const SYMBOL_WAIT_MS = 1500;
/** The same cut as the paperclip menu's attachments (editorHost.ts). */
export const MAX_ATTACHMENT_CHARS = 200_000;
/** Folders no one means to attach from, even when files.exclude does not list them. */
const NEVER = /(^|\/)(node_modules|\.git)(\/|$)/;

type Ref = { type: 'file'; uri: vscode.Uri } | { type: 'symbol'; uri: vscode.Uri; range: vscode.Range; name: string } | { type: 'selection' };

export function textAttachment(kind: 'selection' | 'file', label: string, text: string): StoredAttachment {
  const content = text.length > MAX_ATTACHMENT_CHARS ? `${text.slice(0, MAX_ATTACHMENT_CHARS)}\n… (cut at ${MAX_ATTACHMENT_CHARS} characters)` : text;
  return { id: randomUUID(), kind, label, content };
}

function withTimeout<T>(p: Thenable<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(fallback), ms);
    Promise.resolve(p).then(
      (v) => (clearTimeout(t), resolve(v)),
      () => (clearTimeout(t), resolve(fallback)),
    );
  });
}

function inWorkspace(uri: vscode.Uri): boolean {
  return vscode.workspace.getWorkspaceFolder(uri) !== undefined && !NEVER.test(vscode.workspace.asRelativePath(uri, false));
}

export class ComposerContext {
  private files: { at: number; uris: Promise<vscode.Uri[]> } | undefined;

  constructor(private readonly editor: () => vscode.TextEditor | undefined) {}

  private workspaceFiles(): Promise<vscode.Uri[]> {
    const now = Date.now();
    if (!this.files || now - this.files.at > FILE_CACHE_MS) {
      // `undefined` as the exclude: VS Code applies files.exclude.
      const uris = Promise.resolve(vscode.workspace.findFiles('**/*', undefined, MAX_FILES)).then(
        (list) => list.filter(inWorkspace),
        () => [],
      );
      this.files = { at: now, uris };
    }
    return this.files.uris;
  }

  async candidates(query: string): Promise<ContextCandidate[]> {
    const out: ContextCandidate[] = [];
    const editor = this.editor();
    if (editor && !editor.selection.isEmpty && inWorkspace(editor.document.uri)) {
      const sel = editor.selection;
      const file = vscode.workspace.asRelativePath(editor.document.uri, false);
      out.push({ kind: 'selection', name: 'selection', path: file, label: vscode.l10n.t('Selection'), detail: `${file}:${sel.start.line + 1}-${sel.end.line + 1}`, ref: { type: 'selection' } satisfies Ref });
    }
    const [files, symbols] = await Promise.all([this.workspaceFiles(), this.symbols(query, editor)]);
    for (const uri of files) {
      const rel = vscode.workspace.asRelativePath(uri, false);
      const slash = rel.lastIndexOf('/');
      out.push({ kind: 'file', name: rel.slice(slash + 1), path: rel, label: rel.slice(slash + 1), ...(slash > 0 ? { detail: rel.slice(0, slash) } : {}), ref: { type: 'file', uri } satisfies Ref });
    }
    out.push(...symbols);
    return out;
  }

  /** Symbols of the active editor, and (for a query of 2+ characters) of the workspace; bounded and in the workspace only. */
  private async symbols(query: string, editor: vscode.TextEditor | undefined): Promise<ContextCandidate[]> {
    const out: ContextCandidate[] = [];
    const push = (name: string, uri: vscode.Uri, range: vscode.Range) => {
      if (out.length >= MAX_SYMBOLS || !inWorkspace(uri)) return;
      const file = vscode.workspace.asRelativePath(uri, false);
      out.push({ kind: 'symbol', name, path: `${file} ${name}`, label: name, detail: `${file}:${range.start.line + 1}`, ref: { type: 'symbol', uri, range, name } satisfies Ref });
    };
    if (editor) {
      const doc = editor.document;
      const found = await withTimeout(vscode.commands.executeCommand<Array<vscode.DocumentSymbol | vscode.SymbolInformation> | undefined>('vscode.executeDocumentSymbolProvider', doc.uri), SYMBOL_WAIT_MS, undefined);
      const stack = [...(found ?? [])];
      while (stack.length && out.length < MAX_SYMBOLS) {
        const s = stack.shift()!;
        if ('children' in s) {
          push(s.name, doc.uri, s.range);
          stack.push(...s.children);
        } else push(s.name, s.location.uri, s.location.range);
      }
    }
    if (query.length >= 2) {
      const found = await withTimeout(vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query), SYMBOL_WAIT_MS, undefined);
      for (const s of (found ?? []).slice(0, MAX_SYMBOLS)) push(s.name, s.location.uri, s.location.range);
    }
    return out;
  }

  async attach(candidate: ContextCandidate): Promise<StoredAttachment[]> {
    const ref = candidate.ref as Ref;
    if (ref.type === 'selection') {
      const editor = this.editor();
      if (!editor || editor.selection.isEmpty) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Select some text in the editor first.'));
        return [];
      }
      const sel = editor.selection;
      const name = vscode.workspace.asRelativePath(editor.document.uri, false);
      return [textAttachment('selection', `${name}:${sel.start.line + 1}-${sel.end.line + 1}`, editor.document.getText(sel))];
    }
    if (!inWorkspace(ref.uri)) return [];
    const rel = vscode.workspace.asRelativePath(ref.uri, false);
    if (ref.type === 'symbol') {
      const doc = await vscode.workspace.openTextDocument(ref.uri);
      if (ref.uri.scheme === 'file') await this.checkReal(ref.uri); // a symlink out of the workspace is refused
      const range = doc.validateRange(ref.range);
      return [textAttachment('selection', `${ref.name} (${rel}:${range.start.line + 1}-${range.end.line + 1})`, doc.getText(range))];
    }
    return this.readFile(ref.uri, rel);
  }

  private async checkReal(uri: vscode.Uri): Promise<void> {
    await readWorkspaceFile(uri.fsPath, this.roots(), MAX_ATTACHMENT_CHARS * 4);
  }

  private roots(): string[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  }

  private async readFile(uri: vscode.Uri, label: string): Promise<StoredAttachment[]> {
    try {
      // An open document: its text as the user sees it (unsaved edits included).
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      if (uri.scheme === 'file') {
        const { bytes } = await readWorkspaceFile(uri.fsPath, this.roots(), MAX_ATTACHMENT_CHARS * 4);
        if (!open && bytes.includes(0)) {
          void vscode.window.showWarningMessage(vscode.l10n.t('{0} looks binary and was not attached.', label));
          return [];
        }
        return [textAttachment('file', label, open ? open.getText() : new TextDecoder().decode(bytes))];
      }
      if (open) return [textAttachment('file', label, open.getText())];
      const bytes = await vscode.workspace.fs.readFile(uri);
      if (bytes.includes(0)) {
        void vscode.window.showWarningMessage(vscode.l10n.t('{0} looks binary and was not attached.', label));
        return [];
      }
      return [textAttachment('file', label, new TextDecoder().decode(bytes))];
    } catch (e) {
      void vscode.window.showWarningMessage(vscode.l10n.t('{0} was not attached: {1}', label, e instanceof Error ? e.message : String(e)));
      return [];
    }
  }

  /** The active editor's file, when it is a workspace file (an untitled or outside file is not offered). */
  implicit(): ImplicitContext | undefined {
    const doc = this.editor()?.document;
    if (!doc || doc.isUntitled || !inWorkspace(doc.uri)) return undefined;
    return { key: doc.uri.toString(), label: vscode.workspace.asRelativePath(doc.uri, false), size: Math.min(doc.offsetAt(doc.lineAt(doc.lineCount - 1).range.end), MAX_ATTACHMENT_CHARS) };
  }

  async implicitAttachment(key: string): Promise<StoredAttachment | undefined> {
    const doc = this.editor()?.document;
    if (!doc || doc.uri.toString() !== key) return undefined;
    return textAttachment('file', vscode.workspace.asRelativePath(doc.uri, false), doc.getText());
  }

  /**
   * `/alt`, `/summary`, `/tags`: the content command on the editor the chat was used with. A chat tab
   * has the keyboard, so that editor is shown (with its selection) first: the commands read the active one.
   */
  async runContentCommand(command: 'alt' | 'summary' | 'tags'): Promise<void> {
    const editor = this.editor();
    if (!editor) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a document in the editor first: /{0} works on the active editor or its selection.', command));
      return;
    }
    if (vscode.window.activeTextEditor !== editor) await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, selection: editor.selection, preserveFocus: false });
    const id = command === 'alt' ? 'aiGateway.content.generateAltText' : command === 'summary' ? 'aiGateway.content.summarize' : 'aiGateway.content.suggestTaxonomy';
    await executeCommand(id);
  }
}

/**
 * The editor side of chat actions (ChatEditorHost): clipboard, inserting code, new files, links,
 * attachments, dialogs. Thin: decisions that can be made without vscode live in core or links.ts.
 */
import * as vscode from 'vscode';
import { confirmRisky } from '../platform/safeDialog';
import { executeCommand } from '../platform/commands';
import { randomUUID } from 'node:crypto';
import type { ChatEditorHost, ContextCandidate, ImplicitContext } from '../core/chat/chatController';
import { ComposerContext, textAttachment } from './composerContext';
import { groupByProvider, modelOptionDescription, modelOptionDetail } from '../core/chat/modelOptions';
import type { ModelOptionView } from '../protocol/chatProtocol';
import type { StoredAttachment } from '../core/chat/conversation';
import { judgeLink } from './chatSecurity';
import { readWorkspaceImage } from '../core/content/localImage';
import { displayLocale } from '../core/l10n';

/** Image files offered by Attach → Image…; the bytes decide what is sent (the checked reader sniffs them). */
const IMAGE_GLOB = '**/*.{png,jpg,jpeg,gif,webp,avif,PNG,JPG,JPEG,GIF,WEBP,AVIF}';
/** At most this many images per message. */
const MAX_IMAGES = 4;

// The same target as the shared "Set API Key" action (src/platform/errorNotifications.ts): the key picker, which can also add one.

const LANGUAGE_IDS: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescriptreact',
  js: 'javascript',
  jsx: 'javascriptreact',
  py: 'python',
  sh: 'shellscript',
  bash: 'shellscript',
  shell: 'shellscript',
  zsh: 'shellscript',
  yml: 'yaml',
  rs: 'rust',
  md: 'markdown',
  html: 'html',
  xml: 'xml',
};

function languageId(lang: string | undefined): string | undefined {
  if (!lang) return undefined;
  const l = lang.toLowerCase();
  return LANGUAGE_IDS[l] ?? l;
}

export class ChatEditorActions implements ChatEditorHost, vscode.Disposable {
  /** Context by typing: `#` items, the implicit attachment, the `/` content commands. */
  private readonly composer = new ComposerContext(() => this.editor());

  /**
   * The text editor that was active last: focusing an editor-area chat tab clears activeTextEditor.
   * Tracked by the chat's activation part (src/chat/registerChat.ts), since this class is created
   * only once a chat opens.
   */
  constructor(private readonly lastEditor: () => vscode.TextEditor | undefined) {}

  contextCandidates(query: string): Promise<ContextCandidate[]> {
    return this.composer.candidates(query);
  }

  attachCandidate(candidate: ContextCandidate): Promise<StoredAttachment[]> {
    return this.composer.attach(candidate);
  }

  implicitContext(): ImplicitContext | undefined {
    return this.composer.implicit();
  }

  implicitAttachment(key: string): Promise<StoredAttachment | undefined> {
    return this.composer.implicitAttachment(key);
  }

  runContentCommand(command: 'alt' | 'summary' | 'tags'): Promise<void> {
    return this.composer.runContentCommand(command);
  }

  dispose(): void {}

  private editor(): vscode.TextEditor | undefined {
    const active = vscode.window.activeTextEditor;
    if (active) return active;
    const last = this.lastEditor();
    return last && vscode.window.visibleTextEditors.includes(last) ? last : vscode.window.visibleTextEditors[0];
  }

  async copy(text: string): Promise<void> {
    await vscode.env.clipboard.writeText(text);
    void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied to clipboard'), 2000);
  }

  async insertCode(code: string, language: string | undefined): Promise<void> {
    const editor = this.editor();
    if (!editor) {
      const NEW_FILE = vscode.l10n.t('New File');
      const choice = await vscode.window.showInformationMessage(vscode.l10n.t('No editor is open to insert the code into.'), NEW_FILE);
      if (choice === NEW_FILE) await this.newFile(code, language);
      return;
    }
    await editor.edit((b) => {
      for (const sel of editor.selections) b.replace(sel, code);
    });
    await vscode.window.showTextDocument(editor.document, editor.viewColumn);
  }

  async applyCode(code: string, info: string | undefined): Promise<void> {
    const { codeBlockTarget, fitReplacement } = await import('../core/diff/replacement');
    const { resolveInsideWorkspace } = await import('../core/content/workspaceFile');
    const { eolOf } = await import('../core/diff/lineDiff');
    const { proposeChange } = await import('../platform/proposedChange');
    const target = codeBlockTarget(info);
    let doc: vscode.TextDocument | undefined;
    if (target.path) {
      // Only a file that really is inside a workspace folder (after symlinks); never one outside it.
      const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
      const candidates = roots.map((r) => vscode.Uri.joinPath(vscode.Uri.file(r), target.path as string).fsPath);
      for (const c of candidates) {
        try {
          doc = await vscode.workspace.openTextDocument(vscode.Uri.file(await resolveInsideWorkspace(c, roots)));
          break;
        } catch {
          /* the next folder, or the message below */
        }
      }
      if (!doc) {
        void vscode.window.showWarningMessage(vscode.l10n.t('The code block names {0}, which is not a file in this workspace. Open the file to change and use Apply again, or use New File.', target.path));
        return;
      }
    }
    const editor = this.editor();
    doc ??= editor?.document;
    if (!doc) {
      const NEW_FILE = vscode.l10n.t('New File');
      const choice = await vscode.window.showInformationMessage(vscode.l10n.t('Open the file to apply the code to, then use Apply again.'), NEW_FILE);
      if (choice === NEW_FILE) await this.newFile(code, target.language);
      return;
    }
    const text = doc.getText();
    const eol = doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : eolOf(text);
    const sel = editor && editor.document === doc && !editor.selection.isEmpty ? editor.selection : undefined;
    // The selection when there is one, else the whole document; shown as a diff, written only when accepted.
    const start = sel ? doc.offsetAt(sel.start) : 0;
    const end = sel ? doc.offsetAt(sel.end) : text.length;
    const newText = text.slice(0, start) + fitReplacement(text.slice(start, end), code, eol) + text.slice(end);
    await proposeChange(doc, newText, { title: sel ? vscode.l10n.t('code block in place of the selection') : vscode.l10n.t('code block') });
  }

  async newFile(code: string, language: string | undefined): Promise<void> {
    const doc = await vscode.workspace.openTextDocument({ content: code, language: languageId(language) ?? 'plaintext' });
    await vscode.window.showTextDocument(doc, { preview: false });
  }

  async openLink(href: string): Promise<void> {
    const verdict = judgeLink(href);
    if (verdict.kind === 'refuse') {
      void vscode.window.showWarningMessage(vscode.l10n.t('Not opening this link: {0}.', verdict.reason));
      return;
    }
    if (verdict.kind === 'confirm') {
      const ok = await confirmRisky({ message: vscode.l10n.t('This link does not use https. Open it anyway?'), detail: verdict.url.toString(), safe: vscode.l10n.t("Don't Open"), action: vscode.l10n.t('Open Link') });
      if (!ok) return;
    }
    await vscode.env.openExternal(vscode.Uri.parse(verdict.url.toString(), true));
  }

  async setApiKey(): Promise<void> {
    await executeCommand('aiGateway.switchApiKey');
  }

  async pickAttachments(kind: 'selection' | 'file' | 'workspace' | 'image'): Promise<StoredAttachment[]> {
    if (kind === 'workspace') return this.pickWorkspaceFiles();
    if (kind === 'image') return this.pickImages();
    const editor = this.editor();
    if (!editor) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a file in the editor first.'));
      return [];
    }
    const doc = editor.document;
    const name = vscode.workspace.asRelativePath(doc.uri, false);
    if (kind === 'selection') {
      const sel = editor.selection;
      const text = doc.getText(sel);
      if (!text) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Select some text in the editor first.'));
        return [];
      }
      return [attachment('selection', `${name}:${sel.start.line + 1}-${sel.end.line + 1}`, text)];
    }
    return [attachment('file', name, doc.getText())];
  }

  async pickAttachKind(withImage = false): Promise<'selection' | 'file' | 'workspace' | 'image' | undefined> {
    type Item = vscode.QuickPickItem & { kind2: 'selection' | 'file' | 'workspace' | 'image' };
    const items: Item[] = [
      { label: `$(selection) ${vscode.l10n.t('Selection')}`, description: vscode.l10n.t('the text selected in the editor'), kind2: 'selection' },
      { label: `$(file) ${vscode.l10n.t('Current File')}`, description: vscode.l10n.t('the whole file open in the editor'), kind2: 'file' },
      { label: `$(files) ${vscode.l10n.t('Workspace Files...')}`, description: vscode.l10n.t('pick files of the workspace'), kind2: 'workspace' },
      // Only for models that take images (catalog capability `vision`).
      ...(withImage ? [{ label: `$(file-media) ${vscode.l10n.t('Image...')}`, description: vscode.l10n.t('an image file of the workspace'), kind2: 'image' as const }] : []),
    ];
    return (await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Attach to the next message'), title: vscode.l10n.t('Attach Context') }))?.kind2;
  }

  async pickModel(options: readonly ModelOptionView[], currentId: string | undefined): Promise<string | undefined> {
    if (options.length === 0) {
      void vscode.window.showWarningMessage(vscode.l10n.t('No chat models in the catalog: refresh the catalog.'));
      return undefined;
    }
    // Grouped by provider (display names), each model with its capability badges, context size,
    // rates and, when deprecated, its dates; the id stays searchable (matchOnDescription).
    type Item = vscode.QuickPickItem & { id?: string };
    const items: Item[] = [];
    for (const group of groupByProvider(options)) {
      items.push({ label: group.provider, kind: vscode.QuickPickItemKind.Separator });
      for (const m of group.options) {
        const detail = modelOptionDetail(m);
        items.push({
          label: `${m.id === currentId ? '$(check) ' : ''}${m.label}${m.deprecated ? ' $(warning)' : ''}`,
          description: [modelOptionDescription(m), m.id].filter(Boolean).join(' · '),
          ...(detail ? { detail } : {}),
          id: m.id,
        });
      }
    }
    const pick = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Model for this conversation'), title: vscode.l10n.t('Chat Model'), matchOnDescription: true, matchOnDetail: true });
    return pick?.id;
  }

  /**
   * The reasoning-effort menu (issue 43 item 3): "Model default" first (nothing sent), then the values
   * the catalog lists, the current one checked; how reasoning is billed is the menu's placeholder.
   */
  async pickReasoningEffort(choice: { model: string; values: readonly string[]; defaultValue?: string; current: string | undefined; costNote: string }): Promise<{ value: string | null } | undefined> {
    type Item = vscode.QuickPickItem & { value: string | null };
    const mark = (on: boolean): string => (on ? '$(check) ' : '');
    const items: Item[] = [
      {
        label: `${mark(choice.current === undefined)}${vscode.l10n.t('Model default')}`,
        description: vscode.l10n.t('nothing is sent'),
        value: null,
      },
      ...choice.values.map((v) => ({ label: `${mark(choice.current === v)}${v}`, value: v })),
    ];
    const pick = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Reasoning Effort: {0}', choice.model), placeHolder: choice.costNote });
    return pick ? { value: pick.value } : undefined;
  }

  /**
   * Images of the workspace, read by the same checked reader as alt text (really inside a workspace
   * folder, size-limited, and the bytes must be an image; the type sent is the one the bytes show).
   */
  private async pickImages(): Promise<StoredAttachment[]> {
    const uris = (await vscode.workspace.findFiles(IMAGE_GLOB, '**/{node_modules,.git}/**', 2000)).filter((u) => u.scheme === 'file');
    if (uris.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No image files in the workspace to attach.'));
      return [];
    }
    const picked = await vscode.window.showQuickPick(
      uris.map((uri) => ({ label: vscode.workspace.asRelativePath(uri, false), uri })).sort((a, b) => a.label.localeCompare(b.label)),
      { canPickMany: true, placeHolder: vscode.l10n.t('Images to attach to the next message (at most {0})', MAX_IMAGES), title: vscode.l10n.t('Attach Image') },
    );
    const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    const out: StoredAttachment[] = [];
    for (const p of (picked ?? []).slice(0, MAX_IMAGES)) {
      try {
        const image = await readWorkspaceImage(p.uri.fsPath, { roots });
        if (image.kind !== 'bytes') continue;
        out.push({ id: randomUUID(), kind: 'image', label: p.label, content: image.base64, mime: image.mediaType });
      } catch (e) {
        void vscode.window.showWarningMessage(e instanceof Error ? e.message : String(e));
      }
    }
    if ((picked?.length ?? 0) > MAX_IMAGES) void vscode.window.showWarningMessage(vscode.l10n.t('Only the first {0} images were attached.', MAX_IMAGES));
    return out;
  }

  private async pickWorkspaceFiles(): Promise<StoredAttachment[]> {
    const uris = await vscode.workspace.findFiles('**/*', '**/{node_modules,.git,dist,out}/**', 5000);
    if (uris.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No workspace files to attach.'));
      return [];
    }
    const picked = await vscode.window.showQuickPick(
      uris.map((uri) => ({ label: vscode.workspace.asRelativePath(uri, false), uri })).sort((a, b) => a.label.localeCompare(b.label)),
      { canPickMany: true, placeHolder: vscode.l10n.t('Files to attach to the next message'), matchOnDescription: true },
    );
    const out: StoredAttachment[] = [];
    for (const p of picked ?? []) {
      const bytes = await vscode.workspace.fs.readFile(p.uri);
      if (bytes.includes(0)) {
        void vscode.window.showWarningMessage(vscode.l10n.t('{0} looks binary and was not attached.', p.label));
        continue;
      }
      out.push(attachment('file', p.label, new TextDecoder().decode(bytes)));
    }
    return out;
  }

  async askTitle(current: string): Promise<string | undefined> {
    return vscode.window.showInputBox({ prompt: vscode.l10n.t('Conversation title'), value: current, validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('The title cannot be empty')) });
  }

  async confirmDelete(title: string): Promise<boolean> {
    return confirmRisky({ message: vscode.l10n.t('Delete the conversation "{0}"?', title), safe: vscode.l10n.t('Keep Conversation'), action: vscode.l10n.t('Delete') });
  }

  async confirmContextOverflow(tokens: number, limit: number): Promise<boolean> {
    return confirmRisky({
      message: vscode.l10n.t("This message is about {0} tokens, over the model's context window of {1}. The gateway may reject it.", tokens.toLocaleString(displayLocale()), limit.toLocaleString(displayLocale())),
      safe: vscode.l10n.t("Don't Send"),
      action: vscode.l10n.t('Send Anyway'),
    });
  }

  async exportMarkdown(suggestedName: string, markdown: string): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, suggestedName) } : {}),
      filters: { Markdown: ['md'] },
      saveLabel: vscode.l10n.t('Export'),
    });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(markdown));
    // What was written is opened, so the user sees it (and can edit or share it) at once.
    await vscode.window.showTextDocument(target, { preview: false });
    void vscode.window.setStatusBarMessage(vscode.l10n.t('Conversation exported to {0}', vscode.workspace.asRelativePath(target)), 5000);
  }

  showError(message: string): void {
    void vscode.window.showErrorMessage(message);
  }
}

const attachment = textAttachment;

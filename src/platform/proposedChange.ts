/**
 * Every change the extension proposes to a document, reviewed as a diff before it is written: chat's
 * Apply, alt text, summaries, categories and tags, transcripts, Rewrite Selection.
 *
 * How it looks (what Copilot's and Continue's "apply" do): the document and the proposal open side by
 * side in VS Code's diff editor (left: the document as it is, still editable; right: the proposal, a
 * read-only virtual document), with Accept, Choose Changes and Discard in the editor title and in a
 * notification. Notifications never take the keyboard, so nothing is accepted by a stray Enter.
 *
 * Contract:
 * - Nothing is written until the user accepts. Discard, closing the diff, a failure or a cancelled
 *   stream leave the document exactly as it is.
 * - Accept writes the chosen hunks (all, or those picked in Choose Changes) as ONE WorkspaceEdit, so one
 *   Undo reverts all of it. Hunks are made against the text the proposal was made from; when the user
 *   edited the document meanwhile they are moved past those edits, and refused (nothing written, the
 *   diff stays open) when the user changed the lines they touch (src/core/diff/lineDiff.ts).
 * - The proposal keeps the document's line breaks and its final newline or lack of one.
 * - With aiGateway.content.previewChanges off, the same single edit is applied at once.
 *
 * Several features use this module (chat, content, media): it lives in src/platform, and is imported
 * with their command modules, never at activation. The commands that act on a proposal are the
 * content feature's (aiGateway.content.acceptChange, …), which call accept/discard/choose here.
 */
import * as vscode from 'vscode';
import { settings } from './config';
import { chosenEdits, describeHunk, diffLines, rebaseEdits, withEol, type Hunk } from '../core/diff/lineDiff';

export const PROPOSAL_SCHEME = 'ai-gateway-proposed';


export type ProposalOutcome = 'accepted' | 'discarded' | 'unchanged';

export interface ProposalOptions {
  /** What the change is, in words: "Alt text for sunset.jpg", "Rewrite: make it shorter". */
  title: string;
  /** Say nothing when the proposal turns out to change nothing (the caller says it). */
  quietWhenUnchanged?: boolean;
}

interface Proposal {
  readonly key: string;
  readonly uri: vscode.Uri;
  readonly document: vscode.TextDocument;
  readonly base: string;
  readonly title: string;
  text: string;
  hunks: Hunk[];
  settled: boolean;
  settle: (o: ProposalOutcome) => void;
  readonly outcome: Promise<ProposalOutcome>;
}

/** A proposal being built (a stream): update it as text arrives, then ask the user with review(). */
export interface ProposalHandle {
  /** Sets the whole proposed text of the document (shown at once in the diff). */
  update(newText: string): void;
  /** Shows the Accept / Discard choice (`detail`, e.g. the cost, is added to its message); resolves with what the user did. */
  review(detail?: string): Promise<ProposalOutcome>;
  /** Abandons the proposal (a failure or a cancel): closes the diff, writes nothing. */
  cancel(): void;
}

class Proposals implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly byKey = new Map<string, Proposal>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private counter = 0;
  latest: string | undefined;

  constructor() {
    this.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, this), this.changed);
    // Closing the diff is a Discard.
    this.subscriptions.push(
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        for (const tab of e.closed) {
          const input = tab.input;
          if (input instanceof vscode.TabInputTextDiff && input.modified.scheme === PROPOSAL_SCHEME) {
            const p = this.byKey.get(input.modified.toString());
            if (p && !p.settled && !this.isShown(p)) finish(p, 'discarded');
          }
        }
      }),
    );
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.byKey.get(uri.toString())?.text ?? vscode.l10n.t('This proposed change is no longer available (it was accepted, discarded, or the window was reloaded).');
  }

  create(document: vscode.TextDocument, title: string): Proposal {
    const name = document.uri.path.split('/').pop() || 'document';
    // The proposal's path ends with the document's name, so it gets the same language and icon.
    const uri = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${++this.counter}/${name}` });
    let settle!: (o: ProposalOutcome) => void;
    const outcome = new Promise<ProposalOutcome>((r) => (settle = r));
    const base = document.getText();
    const p: Proposal = { key: uri.toString(), uri, document, base, title, text: base, hunks: [], settled: false, settle, outcome };
    this.byKey.set(p.key, p);
    this.latest = p.key;
    return p;
  }

  refresh(p: Proposal): void {
    this.changed.fire(p.uri);
  }

  isShown(p: Proposal): boolean {
    return vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === p.key));
  }

  /** The proposal a command acts on: the given one, the active diff's, else the latest still open. */
  find(uri?: vscode.Uri): Proposal | undefined {
    const active = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const candidates = [uri?.toString(), active instanceof vscode.TabInputTextDiff ? active.modified.toString() : undefined, this.latest];
    for (const key of candidates) {
      const p = key ? this.byKey.get(key) : undefined;
      if (p && !p.settled) return p;
    }
    return undefined;
  }

  dispose(): void {
    for (const p of this.byKey.values()) if (!p.settled) p.settle('discarded');
    this.byKey.clear();
    for (const d of this.subscriptions) d.dispose();
  }
}

let proposals: Proposals | undefined;

/** What ties the registry to the extension's lifetime: `Services` (its `own` adds to the root store). */
export interface ProposalsOwner {
  own(d: vscode.Disposable): unknown;
}

/**
 * The registry of this window, created on the first use. A feature's command module calls this with
 * the services when it loads, so the registry is disposed with the extension (the root store).
 */
export function bindProposals(owner: ProposalsOwner): void {
  registry(owner);
}

function registry(owner?: ProposalsOwner): Proposals {
  if (!proposals) {
    proposals = new Proposals();
    owner?.own(proposals);
  }
  return proposals;
}

const docEol = (d: vscode.TextDocument): '\n' | '\r\n' => (d.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
const nameOf = (d: vscode.TextDocument): string => d.uri.path.split('/').pop() || 'document';
const changes = (n: number): string => (n === 1 ? vscode.l10n.t('1 change') : vscode.l10n.t('{0} changes', n));

async function closeDiff(p: Proposal): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === p.key);
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
}

function finish(p: Proposal, outcome: ProposalOutcome): void {
  if (p.settled) return;
  p.settled = true;
  p.settle(outcome);
  void vscode.commands.executeCommand('setContext', 'aiGateway.proposalOpen', [...(proposals?.byKey.values() ?? [])].some((x) => !x.settled));
  // Kept a little while after, so a diff still open shows "no longer available" rather than an error.
  proposals?.byKey.delete(p.key);
  proposals?.refresh(p);
}

/** Writes the chosen hunks as one WorkspaceEdit. False (and a message) when nothing was written. */
async function write(p: Proposal, chosen?: ReadonlySet<number>): Promise<boolean> {
  const edits = rebaseEdits(p.base, p.document.getText(), chosenEdits(p.hunks, chosen));
  if (!edits) {
    void vscode.window.showWarningMessage(vscode.l10n.t('{0} was edited where the proposed change goes, so nothing was changed. Discard this proposal and ask again.', nameOf(p.document)));
    return false;
  }
  if (edits.length === 0) return true;
  const we = new vscode.WorkspaceEdit();
  for (const e of edits) we.replace(p.document.uri, new vscode.Range(p.document.positionAt(e.start), p.document.positionAt(e.end)), e.newText);
  if (!(await vscode.workspace.applyEdit(we))) {
    void vscode.window.showErrorMessage(vscode.l10n.t('VS Code did not apply the change to {0} (is the file read-only?). Nothing was changed.', nameOf(p.document)));
    return false;
  }
  return true;
}

async function revealFirstChange(p: Proposal): Promise<void> {
  const first = p.hunks[0];
  const editor = await vscode.window.showTextDocument(p.document, { preview: false, preserveFocus: false, viewColumn: vscode.window.visibleTextEditors.find((e) => e.document === p.document)?.viewColumn });
  if (first) {
    const pos = p.document.positionAt(Math.min(first.start, p.document.getText().length));
    editor.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}

/** Accepts the proposal (all its changes, or `chosen`): one edit, one undo. */
export async function acceptProposal(uri?: vscode.Uri, chosen?: ReadonlySet<number>): Promise<boolean> {
  const p = registry().find(uri);
  if (!p) {
    void vscode.window.showInformationMessage(vscode.l10n.t('There is no proposed change to accept.'));
    return false;
  }
  if (!(await write(p, chosen))) return false;
  const n = chosen ? chosen.size : p.hunks.length;
  finish(p, 'accepted');
  await closeDiff(p);
  await revealFirstChange(p);
  vscode.window.setStatusBarMessage(
    n === 1 ? vscode.l10n.t('Applied 1 change to {0}. One Undo reverts it.', nameOf(p.document)) : vscode.l10n.t('Applied {0} changes to {1}. One Undo reverts them.', n, nameOf(p.document)),
    5000,
  );
  return true;
}

/** Discards the proposal: nothing is written. */
export async function discardProposal(uri?: vscode.Uri): Promise<void> {
  const p = registry().find(uri);
  if (!p) return;
  finish(p, 'discarded');
  await closeDiff(p);
}

/** Lets the user pick which of the proposal's changes to apply (all picked to start with), then applies them. */
export async function chooseProposalChanges(uri?: vscode.Uri): Promise<void> {
  const p = registry().find(uri);
  if (!p) {
    void vscode.window.showInformationMessage(vscode.l10n.t('There is no proposed change to choose from.'));
    return;
  }
  const items = p.hunks.map((h, i) => ({ ...describeHunk(h), picked: true, index: i }));
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title: vscode.l10n.t('Changes to {0}: {1}', nameOf(p.document), p.title),
    placeHolder: vscode.l10n.t('Choose the changes to apply (Space toggles, Enter applies the checked ones)'),
    ignoreFocusOut: true,
  });
  if (!picked) return;
  if (picked.length === 0) {
    await discardProposal(p.uri);
    return;
  }
  await acceptProposal(p.uri, new Set(picked.map((x) => x.index)));
}

/**
 * Opens a proposal for `document` showing no change yet; the caller streams text into it with
 * update() and then calls review(). `owner` ties the window's registry to the extension.
 */
export async function startProposal(document: vscode.TextDocument, options: ProposalOptions, owner?: ProposalsOwner): Promise<ProposalHandle> {
  const reg = registry(owner);
  const p = reg.create(document, options.title);
  const eol = docEol(document);
  let open: Thenable<unknown> | undefined;
  const show = (): Thenable<unknown> =>
    (open ??= vscode.commands.executeCommand('vscode.diff', document.uri, p.uri, vscode.l10n.t('{0} ↔ Proposed: {1}', nameOf(document), options.title), {
      preview: false,
      viewColumn: vscode.window.activeTextEditor?.document === document ? vscode.window.activeTextEditor.viewColumn : vscode.ViewColumn.Active,
    }).then(() => vscode.commands.executeCommand('setContext', 'aiGateway.proposalOpen', true)));
  if (settings.contentPreviewChanges.get()) await show();
  return {
    update(newText: string) {
      if (p.settled) return;
      p.text = withEol(newText, eol);
      reg.refresh(p);
    },
    cancel() {
      if (p.settled) return;
      finish(p, 'discarded');
      void closeDiff(p);
    },
    async review(detail?: string) {
      if (p.settled) return p.outcome;
      p.hunks = diffLines(p.base, p.text);
      if (p.hunks.length === 0) {
        finish(p, 'unchanged');
        await closeDiff(p);
        if (!options.quietWhenUnchanged) void vscode.window.showInformationMessage(vscode.l10n.t('The proposed change leaves {0} as it is; nothing to apply.', nameOf(document)));
        return 'unchanged';
      }
      if (!settings.contentPreviewChanges.get()) {
        if (await write(p)) finish(p, 'accepted');
        else finish(p, 'discarded');
        return p.outcome;
      }
      await show();
      reg.refresh(p);
      void ask(p, detail);
      return p.outcome;
    },
  };
}

/** The notification beside the diff. It never takes the keyboard; the editor title has the same actions. */
async function ask(p: Proposal, detail?: string): Promise<void> {
  const ACCEPT = vscode.l10n.t('Accept');
  const CHOOSE = vscode.l10n.t('Choose Changes…');
  const DISCARD = vscode.l10n.t('Discard');
  const n = p.hunks.length;
  const buttons = n > 1 ? [ACCEPT, CHOOSE, DISCARD] : [ACCEPT, DISCARD];
  const review = vscode.l10n.t('Review the proposed change to {0} ({1}): {2}.', nameOf(p.document), changes(n), p.title);
  const choice = await vscode.window.showInformationMessage(detail ? `${review} ${detail}` : review, ...buttons);
  if (p.settled) return;
  if (choice === ACCEPT) await acceptProposal(p.uri);
  else if (choice === CHOOSE) await chooseProposalChanges(p.uri);
  else if (choice === DISCARD) await discardProposal(p.uri);
}

/** Proposes `newText` as the whole new text of `document` and waits for the user's answer. */
export async function proposeChange(document: vscode.TextDocument, newText: string, options: ProposalOptions, owner?: ProposalsOwner): Promise<ProposalOutcome> {
  const h = await startProposal(document, options, owner);
  h.update(newText);
  return h.review();
}

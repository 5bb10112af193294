/**
 * Knowledge bases, agents and sessions from the editor: the Knowledge and Agents views, "Index into
 * Collection…" on Explorer files and folders, "Search Collection…", read-only documents for KB
 * documents and session events, and Chat with Agent, which opens a chat tab bound to an agent
 * session (aiGateway.chat.openAgentSession: the chat feature sends, renders and rates the replies).
 *
 * This file is the commands' bodies, imported on the first command; the views
 * and the document provider are registered at activation by registerKnowledge.ts.
 *
 * Every gateway call is a core client's (src/core/knowledge/kbClient.ts, src/core/knowledge/agentsClient.ts) with the
 * shared gateway client of the active key. Long operations run under a cancellable progress
 * notification whose Cancel aborts the request; nothing is changed locally before the gateway
 * confirmed a write (the views refetch after it).
 */
import * as vscode from 'vscode';
import { confirmRisky } from '../platform/safeDialog';
import { executeCommand, type CommandRegistrar } from '../platform/commands';
import { DisposableStore } from '../core/disposables';
import { showErrorNotification } from '../platform/errorNotifications';
import * as agents from '../core/knowledge/agentsClient';
import type { Agent } from '../core/knowledge/agentsClient';
import { workspaceFileOfSource } from '../core/knowledge/hitFile';
import { planIndexing, SKIP_REASON_TEXT, type IndexPlan, type PlanReader } from '../core/knowledge/indexPlan';
import * as kb from '../core/knowledge/kbClient';
import type { Collection, SearchHit } from '../core/knowledge/kbClient';
import { workspacePlanReader } from '../core/knowledge/workspaceReader';
import {
  clip,
  deleteAgentQuestion,
  deleteCollectionQuestion,
  deleteDocumentQuestion,
  hitItem,
  hitPosition,
  indexSummary,
  relativeUnder,
  agentChatArg,
  renderSessionEvents,
} from './knowledgeText';
import type { AgentsNode, AgentsTree, GetClient, KnowledgeNode, KnowledgeTree } from './trees';
import { KNOWLEDGE_SCHEME, type ReadOnlyDocuments } from './knowledgeDocs';
import { withTokenSignal } from '../platform/cancellation';
import { inputStep } from '../platform/stepInput';

/** A tab name from server text: safe characters only, bounded. */
function tabName(s: string, ext: string): string {
  const base = s.replace(/[^A-Za-z0-9._ -]+/g, '_').slice(0, 60).trim() || 'document';
  return base.endsWith(ext) ? base : `${base}${ext}`;
}

function docUri(kind: string, ids: string[], name: string): vscode.Uri {
  return vscode.Uri.from({ scheme: KNOWLEDGE_SCHEME, path: `/${kind}/${ids.map(encodeURIComponent).join('/')}/${name}` });
}

/** Runs `fn` under a progress notification whose Cancel aborts it. */
function withProgress<T>(title: string, fn: (signal: AbortSignal, progress: vscode.Progress<{ message?: string; increment?: number }>) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => withTokenSignal(token, (signal) => fn(signal, progress)));
}

function languageOf(contentType: string | undefined): string {
  if (contentType === 'text/markdown') return 'markdown';
  if (contentType === 'text/html') return 'html';
  return 'plaintext';
}

function fileKind(type: vscode.FileType): 'file' | 'folder' | 'other' {
  // A symbolic link is never followed: it could point outside the workspace.
  if (type & vscode.FileType.SymbolicLink) return 'other';
  if (type === vscode.FileType.File) return 'file';
  if (type === vscode.FileType.Directory) return 'folder';
  return 'other';
}

/** The planner's view of a workspace folder on a non-local file system; every path is workspace-relative posix. */
function workspaceReader(root: vscode.Uri): PlanReader {
  const at = (path: string): vscode.Uri => (path === '' ? root : vscode.Uri.joinPath(root, ...path.split('/')));
  return {
    async stat(path) {
      try {
        const s = await vscode.workspace.fs.stat(at(path));
        return { kind: fileKind(s.type), size: s.size };
      } catch {
        return undefined;
      }
    },
    async list(folder) {
      const entries = await vscode.workspace.fs.readDirectory(at(folder));
      return entries.map(([name, type]) => ({ name, kind: fileKind(type) }));
    },
    // The planner reads a file only after its stat showed it within the size limit.
    read: async (path) => vscode.workspace.fs.readFile(at(path)),
  };
}

/** What the commands share with the activation part (registerKnowledge.ts): the gateway client, the views and the documents. */
export interface KnowledgeContext {
  getClient: GetClient;
  docs: Pick<ReadOnlyDocuments, 'set'>;
  kbTree: Pick<KnowledgeTree, 'refresh'>;
  agentsTree: Pick<AgentsTree, 'refresh'>;
}

/** The part of the context a Knowledge view command needs. */
type KbContext = Pick<KnowledgeContext, 'getClient' | 'kbTree'>;
/** The part of the context an Agents view command needs. */
type AgentsContext = Pick<KnowledgeContext, 'getClient' | 'agentsTree'>;

const report = (e: unknown, context: string): Promise<void> => showErrorNotification(e, { context });

async function openText(docs: KnowledgeContext['docs'], uri: vscode.Uri, text: string, language: string, at?: { line: number; character: number }): Promise<void> {
  docs.set(uri, text);
  const doc = await vscode.workspace.openTextDocument(uri);
  const shown = await vscode.languages.setTextDocumentLanguage(doc, language);
  const pos = at ? new vscode.Position(at.line, at.character) : undefined;
  await vscode.window.showTextDocument(shown, { preview: true, selection: pos ? new vscode.Range(pos, pos) : undefined });
}

async function pickCollection(ctx: KbContext, placeHolder: string, allowCreate: boolean): Promise<Collection | undefined> {
  const list = await withProgress(vscode.l10n.t('Loading collections…'), async (signal) => kb.listCollections(await ctx.getClient(), { signal }));
  type Item = vscode.QuickPickItem & { collection?: Collection };
  const items: Item[] = list.items.map((c) => ({ label: clip(c.name, 120), description: c.documentCount === undefined ? undefined : c.documentCount === 1 ? vscode.l10n.t('1 document') : vscode.l10n.t('{0} documents', c.documentCount.toLocaleString(vscode.env.language)), collection: c }));
  if (allowCreate) items.push({ label: `$(add) ${vscode.l10n.t('New Collection…')}` });
  if (items.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('There are no collections yet. Create one in the Knowledge view.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { placeHolder });
  if (!picked) return undefined;
  return picked.collection ?? createCollectionCommand(ctx);
}

// ----- Knowledge view -----

/** aiGateway.knowledge.createCollection: asks a name, creates the collection, refreshes the view. */
export async function createCollectionCommand(ctx: KbContext): Promise<Collection | undefined> {
  const name = await vscode.window.showInputBox({ prompt: vscode.l10n.t('Name of the new collection'), validateInput: (v) => (v.trim() === '' ? vscode.l10n.t('Enter a name') : undefined) });
  if (name === undefined) return undefined;
  try {
    const c = await withProgress(vscode.l10n.t('Creating collection…'), async (signal) => kb.createCollection(await ctx.getClient(), name, { signal }));
    ctx.kbTree.refresh();
    return c;
  } catch (e) {
    await report(e, vscode.l10n.t('Creating the collection failed'));
    return undefined;
  }
}

/** aiGateway.knowledge.renameCollection on a collection row. */
export async function renameCollectionCommand(ctx: KbContext, node?: KnowledgeNode): Promise<void> {
  if (node?.kind !== 'collection') return;
  const name = await vscode.window.showInputBox({ prompt: vscode.l10n.t('New name of the collection'), value: node.collection.name, validateInput: (v) => (v.trim() === '' ? vscode.l10n.t('Enter a name') : undefined) });
  if (name === undefined || name === node.collection.name) return;
  try {
    await withProgress(vscode.l10n.t('Renaming collection…'), async (signal) => kb.renameCollection(await ctx.getClient(), node.collection.id, name, { signal }));
    ctx.kbTree.refresh();
  } catch (e) {
    await report(e, vscode.l10n.t('Renaming the collection failed'));
  }
}

/** aiGateway.knowledge.deleteCollection on a collection row: only after the modal's Delete. */
export async function deleteCollectionCommand(ctx: KbContext, node?: KnowledgeNode): Promise<void> {
  if (node?.kind !== 'collection') return;
  if (!(await confirmRisky({ message: deleteCollectionQuestion(node.collection), safe: vscode.l10n.t('Keep Collection'), action: vscode.l10n.t('Delete') }))) return;
  try {
    await withProgress(vscode.l10n.t('Deleting collection…'), async (signal) => kb.deleteCollection(await ctx.getClient(), node.collection.id, { signal }));
    ctx.kbTree.refresh();
  } catch (e) {
    await report(e, vscode.l10n.t('Deleting the collection failed'));
  }
}

async function openKbDocument(ctx: Pick<KnowledgeContext, 'getClient' | 'docs'>, collectionId: string, documentId: string, at?: { line: number; character: number }): Promise<void> {
  try {
    const d = await withProgress(vscode.l10n.t('Opening document…'), async (signal) => kb.getDocument(await ctx.getClient(), collectionId, documentId, { signal }));
    const uri = docUri('document', [collectionId, documentId], tabName(d.title ?? d.sourceId, ''));
    await openText(ctx.docs, uri, d.text ?? '', languageOf(d.contentType), at);
  } catch (e) {
    await report(e, vscode.l10n.t('Opening the document failed'));
  }
}

/** aiGateway.knowledge.openDocument on a document row: the KB's copy, read-only. */
export async function openDocumentCommand(ctx: Pick<KnowledgeContext, 'getClient' | 'docs'>, node?: KnowledgeNode): Promise<void> {
  if (node?.kind !== 'document') return;
  await openKbDocument(ctx, node.collection.id, node.document.id);
}

/** aiGateway.knowledge.deleteDocument on a document row: only after the modal's Delete. */
export async function deleteDocumentCommand(ctx: KbContext, node?: KnowledgeNode): Promise<void> {
  if (node?.kind !== 'document') return;
  const choice = (await confirmRisky({ message: deleteDocumentQuestion(node.document.title ?? node.document.sourceId, node.collection.name), safe: vscode.l10n.t('Keep Document'), action: vscode.l10n.t('Delete') })) ? 'Delete' : undefined;
  if (choice !== 'Delete') return;
  try {
    await withProgress(vscode.l10n.t('Deleting document…'), async (signal) => kb.deleteDocument(await ctx.getClient(), node.collection.id, node.document.id, { signal }));
    ctx.kbTree.refresh();
  } catch (e) {
    await report(e, vscode.l10n.t('Deleting the document failed'));
  }
}

/** aiGateway.knowledge.indexWorkspace (the Knowledge view's welcome): a whole workspace folder, through Index into Collection…. */
export async function indexWorkspaceCommand(): Promise<void> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Open a folder first: only files inside a workspace folder can be indexed.'));
    return;
  }
  const folder =
    folders.length === 1
      ? folders[0]
      : (await vscode.window.showQuickPick(
          folders.map((f) => ({ label: f.name, description: f.uri.fsPath, folder: f })),
          { title: vscode.l10n.t('Index which workspace folder?') },
        ))?.folder;
  if (folder) await executeCommand('aiGateway.knowledge.indexInto', folder.uri);
}

/** aiGateway.knowledge.indexInto: Explorer files and folders (or the active editor's file) into a picked collection. */
export async function indexIntoCommand(ctx: KbContext, uri?: vscode.Uri, uris?: vscode.Uri[]): Promise<void> {
  // From the Command Palette: the file in the active editor.
  const active = vscode.window.activeTextEditor?.document.uri;
  const picked = uris && uris.length > 0 ? uris : uri ? [uri] : active && active.scheme === 'file' ? [active] : [];
  if (picked.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Pick files or folders in the Explorer, then run "Index into Collection…".'));
    return;
  }
  const folder = vscode.workspace.getWorkspaceFolder(picked[0]);
  const rel = folder ? picked.map((u) => (u.scheme === folder.uri.scheme && u.authority === folder.uri.authority ? relativeUnder(folder.uri.path, u.path) : undefined)) : [];
  if (!folder || rel.some((r) => r === undefined)) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Only files and folders inside one workspace folder can be indexed; nothing was sent.'));
    return;
  }
  let collection: Collection | undefined;
  try {
    collection = await pickCollection(ctx, vscode.l10n.t('Index into which collection?'), true);
  } catch (e) {
    await report(e, vscode.l10n.t('Loading collections failed'));
    return;
  }
  if (!collection) return;
  const target = collection;
  let plan: IndexPlan | undefined;
  try {
    const outcome = await withProgress(vscode.l10n.t('Indexing into "{0}"', clip(target.name, 60)), async (signal, progress) => {
      progress.report({ message: vscode.l10n.t('Looking at the files…') });
      const existing = await kb.listDocuments(await ctx.getClient(), target.id, { signal });
      const known = existing.items.map((d) => ({ documentId: d.id, sourceId: d.sourceId, contentHash: d.contentHash }));
      // A local folder is read by the core's checked reader: a file is read only when its real path
      // (after symlinks, a symlinked folder included) is inside a local workspace folder. A folder on
      // another file system (a virtual workspace) has no local real path; its provider's reader is used.
      const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
      plan =
        folder.uri.scheme === 'file'
          ? await planIndexing(rel as string[], workspacePlanReader(folder.uri.fsPath, roots), { existing: known, signal })
          : await planIndexing(rel as string[], workspaceReader(folder.uri), { existing: known, signal });
      const total = plan.send.length;
      const run = await kb.indexDocuments(await ctx.getClient(), target.id, plan.send, {
        signal,
        onProgress: (p) => progress.report({ message: `${p.done}/${p.total} ${clip(p.sourceId, 60)}`, increment: total > 0 ? 100 / total : 0 }),
      });
      return run;
    });
    ctx.kbTree.refresh();
    const cancelled = outcome.error?.reason === 'aborted';
    const summary = indexSummary(target.name, plan!, { sent: outcome.indexed.length, notSent: outcome.notSent.length, cancelled, failed: outcome.error !== undefined && !cancelled }, (r) => SKIP_REASON_TEXT[r]);
    if (outcome.error && !cancelled) await report(outcome.error, summary);
    else void vscode.window.showInformationMessage(summary);
  } catch (e) {
    await report(e, vscode.l10n.t('Indexing failed'));
  }
}

// ----- Search Collection… -----
async function openHit(ctx: Pick<KnowledgeContext, 'getClient' | 'docs'>, hit: SearchHit, collectionId: string): Promise<void> {
  const at = hitPosition(hit);
  // Only a file whose real path (after symlinks) is inside a local workspace folder is opened; a
  // folder on another file system (a virtual workspace) cannot be checked, so the KB's copy opens.
  const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const file = await workspaceFileOfSource(hit.sourceId, roots);
  if (file.kind === 'file') {
    const pos = new vscode.Position(at.line, at.character);
    await vscode.window.showTextDocument(vscode.Uri.file(file.realPath), { selection: new vscode.Range(pos, pos) });
    return;
  }
  if (file.kind === 'refused') void vscode.window.showWarningMessage(vscode.l10n.t("{0} The collection's copy is shown instead.", file.message));
  await openKbDocument(ctx, collectionId, hit.documentId, at);
}

/** aiGateway.knowledge.search: on a collection row, or a picked collection; the picked hit opens at its line. */
export async function searchCommand(ctx: KnowledgeContext, node?: KnowledgeNode): Promise<void> {
  let collection: Collection | undefined;
  try {
    collection = node?.kind === 'collection' ? node.collection : await pickCollection(ctx, vscode.l10n.t('Search which collection?'), false);
  } catch (e) {
    await report(e, vscode.l10n.t('Loading collections failed'));
    return;
  }
  if (!collection) return;
  const target = collection;
  const query = await vscode.window.showInputBox({ prompt: vscode.l10n.t('Search "{0}"', clip(target.name, 60)), validateInput: (v) => (v.trim() === '' ? vscode.l10n.t('Enter what to search for') : undefined) });
  if (query === undefined) return;
  let hits: SearchHit[];
  try {
    hits = await withProgress(vscode.l10n.t('Searching…'), async (signal) => kb.searchCollection(await ctx.getClient(), target.id, query, { signal }));
  } catch (e) {
    await report(e, vscode.l10n.t('Searching failed'));
    return;
  }
  if (hits.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Nothing in "{0}" matches "{1}".', clip(target.name, 60), clip(query, 60)));
    return;
  }
  const picked = await vscode.window.showQuickPick(
    hits.map((hit) => ({ ...hitItem(hit), hit })),
    { placeHolder: hits.length === 1 ? vscode.l10n.t('1 result for "{0}"', clip(query, 60)) : vscode.l10n.t('{0} results for "{1}"', hits.length.toLocaleString(vscode.env.language), clip(query, 60)), matchOnDescription: true, matchOnDetail: true },
  );
  if (picked) await openHit(ctx, picked.hit, target.id);
}

// ----- Agents view -----

/** aiGateway.agents.create: name, then instructions (optional), in two steps. */
export async function createAgentCommand(ctx: AgentsContext): Promise<void> {
  const name = await inputStep({ title: vscode.l10n.t('Create Agent: name'), step: 1, totalSteps: 2, prompt: vscode.l10n.t('Name of the new agent'), validateInput: (v) => (v.trim() === '' ? vscode.l10n.t('Enter a name') : undefined) });
  if (name === undefined) return;
  const instructions = await inputStep({ title: vscode.l10n.t('Create Agent: instructions'), step: 2, totalSteps: 2, prompt: vscode.l10n.t('Description / instructions (optional)') });
  if (instructions === undefined) return;
  try {
    await withProgress(vscode.l10n.t('Creating agent…'), async (signal) => agents.createAgent(await ctx.getClient(), { name: name.trim(), ...(instructions.trim() ? { instructions } : {}) }, { signal }));
    ctx.agentsTree.refresh();
  } catch (e) {
    await report(e, vscode.l10n.t('Creating the agent failed'));
  }
}

/** aiGateway.agents.update on an agent row: only the changed fields are sent; nothing when nothing changed. */
export async function updateAgentCommand(ctx: AgentsContext, node?: AgentsNode): Promise<void> {
  if (node?.kind !== 'agent') return;
  const a = node.agent;
  const name = await inputStep({ title: vscode.l10n.t('Update Agent: name'), step: 1, totalSteps: 2, prompt: vscode.l10n.t('Name of the agent'), value: a.name, validateInput: (v) => (v.trim() === '' ? vscode.l10n.t('Enter a name') : undefined) });
  if (name === undefined) return;
  const instructions = await inputStep({ title: vscode.l10n.t('Update Agent: instructions'), step: 2, totalSteps: 2, prompt: vscode.l10n.t('Description / instructions'), value: a.instructions ?? '' });
  if (instructions === undefined) return;
  const changes: { name?: string; instructions?: string } = {};
  if (name.trim() !== a.name) changes.name = name.trim();
  if (instructions !== (a.instructions ?? '')) changes.instructions = instructions;
  if (Object.keys(changes).length === 0) return;
  try {
    await withProgress(vscode.l10n.t('Updating agent…'), async (signal) => agents.updateAgent(await ctx.getClient(), a.id, changes, { signal }));
    ctx.agentsTree.refresh();
  } catch (e) {
    await report(e, vscode.l10n.t('Updating the agent failed'));
  }
}

/** aiGateway.agents.archive on an agent row. */
export async function archiveAgentCommand(ctx: AgentsContext, node?: AgentsNode): Promise<void> {
  if (node?.kind !== 'agent') return;
  try {
    await withProgress(vscode.l10n.t('Archiving agent…'), async (signal) => agents.archiveAgent(await ctx.getClient(), node.agent.id, { signal }));
    ctx.agentsTree.refresh();
  } catch (e) {
    await report(e, vscode.l10n.t('Archiving the agent failed'));
  }
}

/** aiGateway.agents.delete on an agent row: only after the modal's Delete. */
export async function deleteAgentCommand(ctx: AgentsContext, node?: AgentsNode): Promise<void> {
  if (node?.kind !== 'agent') return;
  const choice = (await confirmRisky({ message: deleteAgentQuestion(node.agent), safe: vscode.l10n.t('Keep Agent'), action: vscode.l10n.t('Delete') })) ? 'Delete' : undefined;
  if (choice !== 'Delete') return;
  try {
    await withProgress(vscode.l10n.t('Deleting agent…'), async (signal) => agents.deleteAgent(await ctx.getClient(), node.agent.id, { signal }));
    ctx.agentsTree.refresh();
  } catch (e) {
    await report(e, vscode.l10n.t('Deleting the agent failed'));
  }
}

/** aiGateway.agents.openSession on a session row: its events as a read-only Markdown document. */
export async function openSessionCommand(ctx: Pick<KnowledgeContext, 'getClient' | 'docs'>, node?: AgentsNode): Promise<void> {
  if (node?.kind !== 'session') return;
  try {
    const events = await withProgress(vscode.l10n.t('Loading session events…'), async (signal) => agents.listSessionEvents(await ctx.getClient(), node.session.id, { signal }));
    await openText(ctx.docs, docUri('session', [node.session.id], 'events.md'), renderSessionEvents(node.session, events.items, events.truncated), 'markdown');
  } catch (e) {
    if (agents.isModerationBlock(e)) void vscode.window.showWarningMessage(vscode.l10n.t('Blocked by content moderation'));
    else await report(e, vscode.l10n.t('Loading the session events failed'));
  }
}

/** aiGateway.agents.chat: a chat tab bound to an agent session (the chat feature sends, renders and rates). */
export async function chatWithAgentCommand(ctx: AgentsContext, arg?: AgentsNode): Promise<void> {
  let agent: Pick<Agent, 'id' | 'name'> | undefined = arg?.kind === 'agent' || arg?.kind === 'session' ? arg.agent : undefined;
  if (!agent) {
    // From the Command Palette: pick one of the active agents.
    try {
      const list = await withProgress(vscode.l10n.t('Loading agents…'), async (signal) => agents.listAgents(await ctx.getClient(), { signal }));
      const items = list.items.filter((a) => a.status !== 'archived').map((a) => ({ label: clip(a.name, 120), description: a.instructions ? clip(a.instructions, 80) : undefined, agent: a }));
      if (items.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('There are no active agents yet. Create one in the Agents view.'));
        return;
      }
      agent = (await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Chat with which agent?') }))?.agent;
    } catch (e) {
      await report(e, vscode.l10n.t('Loading agents failed'));
      return;
    }
    if (!agent) return;
  }
  const a = agent;
  try {
    // On a session: continue it, with its messages so far. On an agent: a new session.
    const chatArg = await withProgress(arg?.kind === 'session' ? vscode.l10n.t('Loading the session…') : vscode.l10n.t('Starting a session with {0}…', clip(a.name, 60)), async (signal) => {
      if (arg?.kind === 'session') {
        const events = await agents.listSessionEvents(await ctx.getClient(), arg.session.id, { signal });
        return agentChatArg(a, arg.session.id, events.items);
      }
      const session = await agents.createSession(await ctx.getClient(), a.id, vscode.l10n.t('Chat with {0}', clip(a.name, 50)), { signal });
      ctx.agentsTree.refresh();
      return agentChatArg(a, session.id);
    });
    await executeCommand('aiGateway.chat.openAgentSession', chatArg);
  } catch (e) {
    // G-CHAT-4: a moderation block shows only the fixed words, never the server's text.
    if (agents.isModerationBlock(e)) void vscode.window.showWarningMessage(vscode.l10n.t('Blocked by content moderation'));
    else await report(e, vscode.l10n.t('Starting the agent chat failed'));
  }
}

/** The knowledge and agents commands' handlers, registered through the registrar of src/platform/commands.ts registerFeatureCommands. */
export function registerKnowledgeCommands(ctx: KnowledgeContext, registerCommand: CommandRegistrar): vscode.Disposable {
  const store = new DisposableStore();
  store.add(registerCommand('aiGateway.knowledge.createCollection', () => createCollectionCommand(ctx)));
  store.add(registerCommand('aiGateway.knowledge.renameCollection', (node?: KnowledgeNode) => renameCollectionCommand(ctx, node)));
  store.add(registerCommand('aiGateway.knowledge.deleteCollection', (node?: KnowledgeNode) => deleteCollectionCommand(ctx, node)));
  store.add(registerCommand('aiGateway.knowledge.openDocument', (node?: KnowledgeNode) => openDocumentCommand(ctx, node)));
  store.add(registerCommand('aiGateway.knowledge.deleteDocument', (node?: KnowledgeNode) => deleteDocumentCommand(ctx, node)));
  store.add(registerCommand('aiGateway.knowledge.indexWorkspace', () => indexWorkspaceCommand()));
  store.add(registerCommand('aiGateway.knowledge.indexInto', (uri?: vscode.Uri, uris?: vscode.Uri[]) => indexIntoCommand(ctx, uri, uris)));
  store.add(registerCommand('aiGateway.knowledge.search', (node?: KnowledgeNode) => searchCommand(ctx, node)));
  store.add(registerCommand('aiGateway.agents.create', () => createAgentCommand(ctx)));
  store.add(registerCommand('aiGateway.agents.update', (node?: AgentsNode) => updateAgentCommand(ctx, node)));
  store.add(registerCommand('aiGateway.agents.archive', (node?: AgentsNode) => archiveAgentCommand(ctx, node)));
  store.add(registerCommand('aiGateway.agents.delete', (node?: AgentsNode) => deleteAgentCommand(ctx, node)));
  store.add(registerCommand('aiGateway.agents.openSession', (node?: AgentsNode) => openSessionCommand(ctx, node)));
  store.add(registerCommand('aiGateway.agents.chat', (arg?: AgentsNode) => chatWithAgentCommand(ctx, arg)));
  return store;
}

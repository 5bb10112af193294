/**
 * The editor side of the `@gateway` participant (imported on its first request or its first
 * command): the real ParticipantDeps over Services, the edits kept for their preview, and the command
 * the response's button runs (aiGateway.participant.previewEdit), which opens the diff of
 * src/platform/proposedChange.ts. Nothing is written unless the user accepts there.
 */
import * as vscode from 'vscode';
import type { CommandRegistrar } from '../platform/commands';
import { applyEdits } from '../core/diff/lineDiff';
import type { OffsetEdit } from '../core/content/altText';
import { contentModel } from '../platform/defaultModel';
import { confirmContentSend, confirmReadLocalImages, imageForRef, workspaceRoots } from '../platform/contentSend';
import { isWorkspaceFileError, resolveInsideWorkspace } from '../core/content/workspaceFile';
import { McpService } from '../platform/mcpService';
import { GATEWAY_SERVER_ID } from '../platform/mcpServers';
import { bindProposals, proposeChange } from '../platform/proposedChange';
import { recordingClient } from '../platform/recordingClient';
import type { Services } from '../services';
import type { ParticipantServices } from './registerParticipant';
import { withTokenSignal } from '../platform/cancellation';
import { showErrorNotification } from '../platform/errorNotifications';
import { isGatewayError } from '../core/http/errors';
import { handleParticipantRequest, participantFollowups, type AttachedDocument, type EditorSnapshot, type ParticipantDeps, type ParticipantResult, type SiteRow } from './participantHandler';

interface PendingEdit {
  uri: vscode.Uri;
  version: number;
  edits: OffsetEdit[];
  title: string;
}

/** Edits offered in chat responses, by id, until previewed (bounded: the oldest go first). */
const pending = new Map<string, PendingEdit>();
const MAX_PENDING = 50;
let counter = 0;

let mcp: McpService | undefined;

function snapshot(): EditorSnapshot | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const doc = editor.document;
  const sel = editor.selection;
  return { uri: doc.uri, languageId: doc.languageId, text: doc.getText(), version: doc.version, selection: sel.isEmpty ? undefined : { start: doc.offsetAt(sel.start), end: doc.offsetAt(sel.end) } };
}

/** A reference's value that points into a document: a file (Uri) or a place in one (Location). */
function pointsAt(value: unknown): { uri: vscode.Uri; range?: vscode.Range } | undefined {
  if (value instanceof vscode.Uri) return { uri: value };
  if (value instanceof vscode.Location) return { uri: value.uri, range: value.range };
  return undefined;
}

/**
 * The first file or selection attached to a chat request (`ChatRequest.references`), opened as a
 * document. One the user attached (a file, `#file`, a selection) comes before the chat's implicit
 * context (ids `vscode.implicit.*`: the editor in front). Only a file inside an open workspace folder
 * is read, checked as the content commands check local images (src/core/content/workspaceFile.ts:
 * after `..` and every symlink): anything else is refused with the reason, and nothing is read or sent.
 */
export async function attachedDocument(references: readonly unknown[]): Promise<AttachedDocument> {
  const implicit = (r: unknown) => typeof r === 'object' && r !== null && typeof (r as { id?: unknown }).id === 'string' && (r as { id: string }).id.startsWith('vscode.implicit');
  const ordered = [...references.filter((r) => !implicit(r)), ...references.filter(implicit)];
  const target = ordered.map((r) => (typeof r === 'object' && r !== null ? pointsAt((r as { value?: unknown }).value) : undefined)).find((t) => t !== undefined);
  if (!target) return { kind: 'none' };
  const { uri, range } = target;
  const name = uri.path.split('/').pop() || uri.path;
  const outside: AttachedDocument = { kind: 'refused', message: vscode.l10n.t('{0} is not in the open workspace, so @gateway does not read it. Attach a file from the workspace, or open the file and ask without the attachment.', name) };
  const unreadable: AttachedDocument = { kind: 'refused', message: vscode.l10n.t('{0} could not be opened as a text document, so nothing was sent.', name) };
  if (uri.scheme === 'file') {
    try {
      await resolveInsideWorkspace(uri.fsPath, workspaceRoots(uri));
    } catch (e) {
      return isWorkspaceFileError(e) && e.kind === 'outside_workspace' ? outside : unreadable;
    }
  } else if (!vscode.workspace.getWorkspaceFolder(uri) || uri.path.split('/').includes('..')) {
    // A virtual workspace (no files on disk): its folder's own scheme, and no climbing out of it.
    return outside;
  }
  let doc: vscode.TextDocument;
  try {
    doc = await vscode.workspace.openTextDocument(uri);
  } catch {
    return unreadable;
  }
  const selection = range && !range.isEmpty ? { start: doc.offsetAt(range.start), end: doc.offsetAt(range.end) } : undefined;
  return { kind: 'document', editor: { uri: doc.uri, languageId: doc.languageId, text: doc.getText(), version: doc.version, selection } };
}

export function participantDeps(services: ParticipantServices): ParticipantDeps {
  return {
    activeEditor: snapshot,
    attachedDocument,
    catalogModel: (id) => services.catalog.getModel(id),
    defaultModel: (capability) => contentModel(services, capability),
    confirmSend: (operation, modelId, promptText) => confirmContentSend(services, operation, async () => modelId, promptText),
    client: async (capability) => recordingClient(await services.getClient(), services, capability),
    imageFor: (editor, ref) => imageForRef({ uri: editor.uri, getText: () => editor.text }, ref),
    confirmReadLocal: async (count) => vscode.workspace.isTrusted || confirmReadLocalImages(count),
    offerEdit: (editor, edits, title) => {
      const id = String(++counter);
      pending.set(id, { uri: editor.uri, version: editor.version, edits, title });
      while (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value as string);
      return { command: 'aiGateway.participant.previewEdit', arguments: [id], title: vscode.l10n.t('Preview and Apply…') };
    },
    listSites: async (signal) => {
      mcp ??= new McpService(services);
      const server = mcp.server(GATEWAY_SERVER_ID);
      if (!server) throw new Error(vscode.l10n.t('The AI Gateway tool server is not configured.'));
      const tool = (await mcp.tools(server)).find((t) => t.name === 'list_account_sites');
      if (!tool) throw new Error(vscode.l10n.t('This gateway does not offer list_account_sites.'));
      const out = await mcp.run(server, tool, {}, signal);
      if (out.kind === 'invalid') throw new Error(out.issues.map((i) => i.message).join('; '));
      if (out.kind === 'notRun') throw new Error(out.reason);
      const { entry } = out;
      if (entry.failure) throw new Error(entry.failure.message);
      if (entry.toolError) throw new Error(entry.toolError.message);
      const sites = entry.result?.structuredContent?.sites;
      return Array.isArray(sites) ? (sites.filter((s) => typeof s === 'object' && s !== null && typeof (s as SiteRow).site_id === 'string') as SiteRow[]) : [];
    },
    spendToday: async () => {
      const { check, limits, source, shownDayNano } = await services.budget.check();
      return { dayNano: shownDayNano, monthNano: check.monthNano, dailyNano: limits.dailyNano, monthlyNano: limits.monthlyNano, source };
    },
    log: services.log,
  };
}

export function respond(services: ParticipantServices, request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<ParticipantResult> {
  return handleParticipantRequest(participantDeps(services), { command: request.command, prompt: request.prompt, references: request.references, model: request.model ? { vendor: request.model.vendor, id: request.model.id, name: request.model.name } : undefined }, stream, token);
}

export const followups: vscode.ChatFollowupProvider = { provideFollowups: (result: ParticipantResult) => participantFollowups(result) };

/** Opens the diff of an offered edit; the user accepts or discards it there. */
async function previewEdit(services: ParticipantServices, id: unknown): Promise<void> {
  const p = typeof id === 'string' ? pending.get(id) : undefined;
  if (!p) {
    void vscode.window.showWarningMessage(vscode.l10n.t('This change is no longer available. Ask @gateway again.'));
    return;
  }
  const doc = await vscode.workspace.openTextDocument(p.uri);
  if (doc.version !== p.version) {
    pending.delete(id as string);
    void vscode.window.showWarningMessage(vscode.l10n.t('{0} changed since @gateway answered, so nothing was changed. Ask again.', p.uri.path.split('/').pop() ?? ''));
    return;
  }
  bindProposals(services);
  const sorted = [...p.edits].sort((a, b) => a.start - b.start);
  const outcome = await proposeChange(doc, applyEdits(doc.getText(), sorted), { title: p.title });
  if (outcome !== 'discarded') pending.delete(id as string);
}

const SITE_SCHEME = 'ai-gateway-site';
/** Details documents by path, the latest few (read-only, from a content provider). */
const siteDocs = new Map<string, string>();
let siteDocCount = 0;

/**
 * Shows GET /v1/sites/{site_identifier} (#39.14) as a read-only Markdown document: the assumed fields
 * when the answer has them, and always the answer as sent (src/core/sites/siteDetails.ts).
 */
async function showSiteDetails(services: Pick<Services, 'getClient'>, siteId: unknown): Promise<void> {
  if (typeof siteId !== 'string') return;
  const { fetchSiteDetails, siteDetailsMarkdown } = await import('../core/sites/siteDetails');
  try {
    const details = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Reading site {0}…', siteId), cancellable: true }, (_p, token) =>
      withTokenSignal(token, async (signal) => fetchSiteDetails(await services.getClient(), siteId, { signal })),
    );
    const path = `/site-${++siteDocCount}.md`;
    siteDocs.set(path, siteDetailsMarkdown(siteId, details));
    if (siteDocs.size > 10) siteDocs.delete(siteDocs.keys().next().value as string);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: SITE_SCHEME, path }));
    await vscode.window.showTextDocument(doc, { preview: false });
  } catch (e) {
    if (isGatewayError(e) && e.reason === 'aborted') return;
    await showErrorNotification(e);
  }
}

export function registerParticipantCommands(services: ParticipantServices, command: CommandRegistrar): vscode.Disposable {
  const subs = [
    command('aiGateway.participant.previewEdit', (id: unknown) => previewEdit(services, id)),
    command('aiGateway.participant.showSiteDetails', (siteId: unknown) => showSiteDetails(services, siteId)),
    vscode.workspace.registerTextDocumentContentProvider(SITE_SCHEME, { provideTextDocumentContent: (uri) => siteDocs.get(uri.path) ?? '' }),
  ];
  if (mcp) subs.push(mcp);
  return vscode.Disposable.from(...subs, { dispose: () => (mcp?.dispose(), (mcp = undefined)) });
}

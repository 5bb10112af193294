/**
 * The knowledge feature's calls to the gateway: knowledge-base and agent calls, the indexing planner
 * and the source-path check, bound to the shared client. The views use it at activation, so the core
 * modules are imported on the first call (loadKnowledgeCore), not statically.
 *
 * Every call uses the shared gateway client of the active key (services.getClient()) and takes an
 * AbortSignal. Nothing is cached here: a failed write changes nothing on this side, and the views
 * refetch after every successful one.
 */
import type { Agent, AgentInput, Rating, Session, SessionEvent } from '../core/agents/agentsClient';

/** The core modules of the knowledge feature, imported on first use. */
async function loadKnowledgeCore() {
  const [kb, plan, hitFile, reader, agents] = await Promise.all([
    import('../core/kb/kbClient'),
    import('../core/kb/indexPlan'),
    import('../core/kb/hitFile'),
    import('../core/kb/workspaceReader'),
    import('../core/agents/agentsClient'),
  ]);
  return {
    kb,
    agents,
    planIndexing: plan.planIndexing,
    workspacePathOfSource: plan.workspacePathOfSource,
    SKIP_REASON_TEXT: plan.SKIP_REASON_TEXT,
    KB_MAX_FILE_BYTES: plan.MAX_FILE_BYTES,
    workspaceFileOfSource: hitFile.workspaceFileOfSource,
    workspacePlanReader: reader.workspacePlanReader,
  };
}
export type KnowledgeCore = Awaited<ReturnType<typeof loadKnowledgeCore>>;
import type { AgentOperation } from '../core/agents/agentsClient';
import type { Collection, IndexProgress, IndexRunResult, KbDocument, KbOperation, ListResult, SearchHit } from '../core/kb/kbClient';
import type { ExistingDocument, IndexPlan, PlanReader, SkipReason } from '../core/kb/indexPlan';
import type { HitFile } from '../core/kb/hitFile';
import type { Services } from '../services';

export type { Agent, Collection, IndexPlan, KbDocument, ListResult, PlanReader, SearchHit, Session, SessionEvent, SkipReason };

export interface Permission {
  scope: string;
  level: string;
}

type Opts = { signal?: AbortSignal };

export class KnowledgeApi {
  constructor(
    private readonly services: Pick<Services, 'getClient'>,
    private readonly knowledge: () => Promise<KnowledgeCore> = loadKnowledgeCore,
  ) {}

  private async core() {
    const core = await this.knowledge();
    const client = await this.services.getClient();
    return { kb: core.kb, agents: core.agents, core, client };
  }

  // Knowledge bases.
  async listCollections(o?: Opts): Promise<ListResult<Collection>> {
    const { kb, client } = await this.core();
    return kb.listCollections(client, o);
  }
  async createCollection(name: string, o?: Opts): Promise<Collection> {
    const { kb, client } = await this.core();
    return kb.createCollection(client, name, o);
  }
  async renameCollection(id: string, name: string, o?: Opts): Promise<Collection> {
    const { kb, client } = await this.core();
    return kb.renameCollection(client, id, name, o);
  }
  async deleteCollection(id: string, o?: Opts): Promise<void> {
    const { kb, client } = await this.core();
    return kb.deleteCollection(client, id, o);
  }
  async listDocuments(collectionId: string, o?: Opts): Promise<ListResult<KbDocument>> {
    const { kb, client } = await this.core();
    return kb.listDocuments(client, collectionId, o);
  }
  async getDocument(collectionId: string, documentId: string, o?: Opts): Promise<KbDocument> {
    const { kb, client } = await this.core();
    return kb.getDocument(client, collectionId, documentId, o);
  }
  async deleteDocument(collectionId: string, documentId: string, o?: Opts): Promise<void> {
    const { kb, client } = await this.core();
    return kb.deleteDocument(client, collectionId, documentId, o);
  }
  async search(collectionId: string, query: string, o?: Opts): Promise<SearchHit[]> {
    const { kb, client } = await this.core();
    return kb.searchCollection(client, collectionId, query, o);
  }
  async planIndexing(picked: readonly string[], reader: PlanReader, existing: readonly ExistingDocument[], o?: Opts): Promise<IndexPlan> {
    const { core } = await this.core();
    return core.planIndexing(picked, reader, { existing, signal: o?.signal });
  }
  /**
   * The plan for a local workspace folder (`root`, a file-system path): every file is read only when its
   * real path (after symlinks, a symlinked folder included) is inside one of `roots`, the local
   * workspace folders; the others are skipped as 'outside_workspace' and nothing of them is sent.
   */
  async planWorkspaceIndexing(picked: readonly string[], root: string, roots: readonly string[], existing: readonly ExistingDocument[], o?: Opts): Promise<IndexPlan> {
    const { core } = await this.core();
    return core.planIndexing(picked, core.workspacePlanReader(root, roots), { existing, signal: o?.signal });
  }
  async indexDocuments(collectionId: string, plan: IndexPlan, o: Opts & { onProgress?: (p: IndexProgress) => void }): Promise<IndexRunResult> {
    const { kb, client } = await this.core();
    return kb.indexDocuments(client, collectionId, plan.send, o);
  }
  async maxFileBytes(): Promise<number> {
    return (await this.knowledge()).KB_MAX_FILE_BYTES;
  }
  async skipReasonText(reason: SkipReason): Promise<string> {
    return (await this.knowledge()).SKIP_REASON_TEXT[reason];
  }
  /** The workspace-relative path a search hit came from, or undefined when it is not a safe one. */
  async workspacePathOfSource(sourceId: string): Promise<string | undefined> {
    return (await this.knowledge()).workspacePathOfSource(sourceId);
  }
  /**
   * The file to open for a search hit: its real path when it is a regular file really inside one of
   * `roots` (the workspace folders' paths, after symlinks), a refusal when it leads outside, or none.
   */
  async workspaceFileOfSource(sourceId: string, roots: readonly string[]): Promise<HitFile> {
    return (await this.knowledge()).workspaceFileOfSource(sourceId, roots);
  }
  async kbMissingPermission(op: KbOperation, e: unknown): Promise<Permission | undefined> {
    return (await this.knowledge()).kb.kbMissingPermission(op, e);
  }

  // Agents and sessions.
  async listAgents(o?: Opts): Promise<ListResult<Agent>> {
    const { agents, client } = await this.core();
    return agents.listAgents(client, o);
  }
  async createAgent(input: AgentInput, o?: Opts): Promise<Agent> {
    const { agents, client } = await this.core();
    return agents.createAgent(client, input, o);
  }
  async updateAgent(id: string, changes: Partial<AgentInput>, o?: Opts): Promise<Agent> {
    const { agents, client } = await this.core();
    return agents.updateAgent(client, id, changes, o);
  }
  async archiveAgent(id: string, o?: Opts): Promise<Agent> {
    const { agents, client } = await this.core();
    return agents.archiveAgent(client, id, o);
  }
  async deleteAgent(id: string, o?: Opts): Promise<void> {
    const { agents, client } = await this.core();
    return agents.deleteAgent(client, id, o);
  }
  async listSessions(agentId: string, o?: Opts): Promise<ListResult<Session>> {
    const { agents, client } = await this.core();
    return agents.listSessions(client, agentId, o);
  }
  async createSession(agentId: string, title: string | undefined, o?: Opts): Promise<Session> {
    const { agents, client } = await this.core();
    return agents.createSession(client, agentId, title, o);
  }
  async listSessionEvents(sessionId: string, o?: Opts): Promise<ListResult<SessionEvent>> {
    const { agents, client } = await this.core();
    return agents.listSessionEvents(client, sessionId, o);
  }
  async sendMessage(sessionId: string, text: string, o?: Opts): Promise<SessionEvent[]> {
    const { agents, client } = await this.core();
    return agents.sendSessionMessage(client, sessionId, text, o);
  }
  async sendFeedback(sessionId: string, responseId: string, rating: Rating, o?: Opts): Promise<void> {
    const { agents, client } = await this.core();
    await agents.sendFeedback(client, sessionId, responseId, rating, o);
  }
  async isModerationBlock(e: unknown): Promise<boolean> {
    return (await this.knowledge()).agents.isModerationBlock(e);
  }
  async moderationMessage(): Promise<string> {
    return (await this.knowledge()).agents.MODERATION_MESSAGE;
  }
  async agentsMissingPermission(op: AgentOperation, e: unknown): Promise<Permission | undefined> {
    return (await this.knowledge()).agents.agentsMissingPermission(op, e);
  }
}

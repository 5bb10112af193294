/**
 * Context by typing (the message box's `#` and `/`): the `#` completion's items, attaching a picked
 * one, the `/` commands, and the active editor's file as the next message's implicit attachment.
 *
 * The webview only ever names an item by the id this part gave it in its last answer: what is attached
 * is what the host offered (a workspace file, a symbol, the selection), never a path from the webview.
 */
import { MAX_ITEMS, rankCandidates } from '../../protocol/chatCompose';
import { answerChat, type ContextItemView, type HostToWebview } from '../../protocol/chatProtocol';
import type { ContextCandidate, HandlersFor } from './chatDeps';
import type { ChatView } from './chatView';

export class ComposerPart {
  /** The items of the last answer, by id (replaced by each answer: bounded by MAX_ITEMS). */
  private offered = new Map<string, ContextCandidate>();

  constructor(
    private readonly view: ChatView,
    private readonly commands: { newConversation(): Promise<void>; pickModel(): Promise<void> },
  ) {}

  readonly handlers: HandlersFor<'contextQuery' | 'addContext' | 'slashCommand' | 'implicitContext'> = {
    contextQuery: async (msg) => this.view.deps.post(answerChat(msg, await this.query(msg.query, msg.seq))),
    addContext: (msg) => this.add(msg.itemId),
    slashCommand: async (msg) => {
      const { host } = this.view.deps;
      switch (msg.command) {
        case 'new':
          return this.commands.newConversation();
        case 'model':
          return this.commands.pickModel();
        default:
          if (!host.runContentCommand) return this.view.notice(`/${msg.command} is not available here.`);
          return host.runContentCommand(msg.command);
      }
    },
    implicitContext: (msg) => {
      const current = this.view.deps.host.implicitContext?.();
      this.view.implicitRemoved = msg.include ? undefined : current?.key;
      return this.view.postState();
    },
  };

  private async query(query: string, seq: number): Promise<Extract<HostToWebview, { type: 'contextItems' }>> {
    const source = this.view.deps.host.contextCandidates;
    const candidates = source ? await source.call(this.view.deps.host, query) : [];
    const ranked = rankCandidates(query, candidates, MAX_ITEMS);
    this.offered = new Map(ranked.map((c, i) => [`${seq}-${i}`, c]));
    const items: ContextItemView[] = ranked.map((c, i) => ({ id: `${seq}-${i}`, kind: c.kind, label: c.label, ...(c.detail ? { detail: c.detail } : {}) }));
    return { type: 'contextItems', seq, items };
  }

  private async add(itemId: string): Promise<void> {
    const { view } = this;
    const candidate = this.offered.get(itemId);
    if (!candidate || !view.deps.host.attachCandidate) {
      view.notice('That item is no longer offered: type # again to pick it.');
      return;
    }
    const picked = await view.deps.host.attachCandidate(candidate);
    // The same text twice in one message would be paid for twice.
    for (const a of picked) if (!view.attachments.some((b) => b.kind === a.kind && b.label === a.label)) view.attachments.push(a);
    return view.postState();
  }
}

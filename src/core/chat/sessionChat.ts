/**
 * Agent-session chat: a conversation bound to an agent session (Chat with Agent). Its replies come from
 * the session's message route (never chat completions), can be rated (Thumbs Up / Down: response
 * feedback), and a new one is opened from a command's argument, checked here.
 */
import { isGatewayError } from '../http/errors';
import { answerChat, type ChatErrorView, type HostToWebview, type ReplyRating } from '../../protocol/chatProtocol';
import { lastIndexOfRole, newConversation, withAttachments, type Conversation, type StoredMessage } from './conversation';
import { toChatErrorView } from './errorView';
import { sendFeedback, sendSessionMessage } from '../knowledge/agentsClient';
import type { HandlersFor } from './chatDeps';
import type { ChatView } from './chatView';
import { retryPoster } from './replyStream';

export class SessionChat {
  constructor(private readonly view: ChatView) {}

  readonly handlers: HandlersFor<'rateReply'> = {
    rateReply: async (msg) => this.view.deps.post(answerChat(msg, await this.rateReply(msg.messageId, msg.rating))),
  };

  /**
   * A reply in a conversation bound to an agent session: the last user message goes to the session's
   * message route and the agent's reply event becomes the reply, with its response id for feedback.
   * The same streamStart ... streamDone/streamError as a chat reply, so it renders like one. A
   * moderation block shows only the fixed words (G-CHAT-4, via toChatErrorView).
   */
  async run(session: NonNullable<Conversation['agentSession']>): Promise<void> {
    const { view } = this;
    const user = view.conv.messages[lastIndexOfRole(view.conv, 'user')];
    const requestId = view.newId();
    const reply: StoredMessage = { id: view.newId(), role: 'assistant', content: '', status: 'streaming', createdAt: view.now() };
    const abort = new AbortController();
    view.active = { requestId, abort, message: reply, pending: '' };
    view.conv = { ...view.conv, messages: [...view.conv.messages, reply] };
    const conv = view.conv;
    const post = view.poster();
    await view.postState();
    post({ type: 'streamStart', requestId, message: view.messageView(reply) });
    try {
      const client = await view.deps.getClient();
      const events = await sendSessionMessage(client, session.sessionId, withAttachments(user), { signal: abort.signal, onRetry: retryPoster(post, requestId) });
      const answer = [...events].reverse().find((e) => e.role === 'assistant');
      reply.content = answer?.text ?? '';
      if (answer?.responseId) reply.responseId = answer.responseId;
      if (reply.content) post({ type: 'streamChunk', requestId, text: reply.content });
      reply.status = 'complete';
    } catch (e) {
      if (isGatewayError(e) && e.requestId) reply.requestId = e.requestId;
      if (abort.signal.aborted || (isGatewayError(e) && e.reason === 'aborted')) {
        reply.status = 'incomplete';
        reply.stopped = true;
      } else {
        reply.status = 'error';
        reply.error = sessionErrorView(e);
        view.deps.log.warn(`Agent session message failed: ${isGatewayError(e) ? `${e.reason}${e.status ? ` ${e.status}` : ''}` : 'unexpected error'}${reply.requestId ? ` (request id ${reply.requestId})` : ''}`);
      }
    } finally {
      view.active = undefined;
    }
    await view.finishReply(conv, reply, requestId, post);
  }

  /**
   * Thumbs Up / Thumbs Down on an agent-session reply: sends response feedback for its response id,
   * then saves the rating with the message. A failed send changes nothing and says why in the
   * reply's footer; the webview keeps the thumb it had.
   */
  private async rateReply(messageId: string, rating: ReplyRating): Promise<Extract<HostToWebview, { type: 'replyRating' }>> {
    const { view } = this;
    const conv = view.conv;
    const m = conv.messages.find((x) => x.id === messageId);
    const session = conv.agentSession;
    if (!session || !m || m.role !== 'assistant' || !m.responseId) {
      return { type: 'replyRating', messageId, rating: m?.feedback ?? null, error: 'This reply cannot be rated.' };
    }
    if (m.feedback === rating) {
      return { type: 'replyRating', messageId, rating };
    }
    try {
      await sendFeedback(await view.deps.getClient(), session.sessionId, m.responseId, rating);
    } catch (e) {
      const err = sessionErrorView(e);
      view.deps.log.warn(`Agent feedback failed: ${isGatewayError(e) ? `${e.reason}${e.status ? ` ${e.status}` : ''}` : 'unexpected error'}`);
      return { type: 'replyRating', messageId, rating: m.feedback ?? null, error: `Feedback not sent: ${err.message}${err.detail ? ` (${err.detail})` : ''}` };
    }
    // The gateway has it: the rating is saved with the message (a failed write is reported, the thumb stays).
    const rated = { ...m, feedback: rating };
    const next: Conversation = { ...conv, messages: conv.messages.map((x) => (x === m ? rated : x)), updatedAt: view.now() };
    let saved: Conversation | undefined;
    try {
      saved = await view.saveLive(next, conv);
    } catch (e) {
      view.deps.host.showError(`The feedback was sent but could not be saved to chat history: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (saved && view.conv === saved) {
      // Already the live version (a merge kept what was added meanwhile).
    } else if (view.conv.id === conv.id) {
      // Replaced in the current messages (a reply may have been added meanwhile), not the older snapshot.
      view.conv = { ...view.conv, messages: view.conv.messages.map((x) => (x.id === messageId ? { ...x, feedback: rating } : x)) };
    }
    return { type: 'replyRating', messageId, rating };
  }

  /**
   * Opens a new conversation bound to an agent session (Chat with Agent on an agent or a session).
   * `arg` comes through a command, so it is checked here: {agentId, agentName, sessionId} and,
   * optionally, `events` — the session's earlier messages ({role, text, responseId?}) shown as the
   * start of the conversation. False when `arg` is not one or a reply is streaming.
   */
  async open(arg: unknown): Promise<boolean> {
    const { view } = this;
    const binding = agentSessionArg(arg);
    if (!binding || view.active) return false;
    view.initialized = true;
    const conv = newConversation(view.newId(), '', view.now());
    conv.title = `Chat with ${binding.agentName}`;
    conv.agentSession = { agentId: binding.agentId, sessionId: binding.sessionId, agentName: binding.agentName };
    conv.messages = binding.events.map((e): StoredMessage => ({
      id: view.newId(),
      role: e.role,
      content: e.text,
      status: 'complete',
      createdAt: view.now(),
      ...(e.responseId ? { responseId: e.responseId } : {}),
    }));
    view.conv = conv;
    view.attachments = [];
    await view.postState();
    return true;
  }
}

const MAX_SEEDED_EVENTS = 500;
const MAX_ARG_CHARS = 1024 * 1024;

/** The checked argument of openAgentSession; undefined for anything else. */
function agentSessionArg(x: unknown): { agentId: string; agentName: string; sessionId: string; events: Array<{ role: 'user' | 'assistant'; text: string; responseId?: string }> } | undefined {
  if (typeof x !== 'object' || x === null) return undefined;
  const o = x as Record<string, unknown>;
  const id = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200;
  if (!id(o.agentId) || !id(o.sessionId) || typeof o.agentName !== 'string' || o.agentName.length > 1000) return undefined;
  const events: Array<{ role: 'user' | 'assistant'; text: string; responseId?: string }> = [];
  if (o.events !== undefined) {
    if (!Array.isArray(o.events)) return undefined;
    let chars = 0;
    for (const e of o.events.slice(-MAX_SEEDED_EVENTS)) {
      if (typeof e !== 'object' || e === null) continue;
      const r = e as Record<string, unknown>;
      if ((r.role !== 'user' && r.role !== 'assistant') || typeof r.text !== 'string' || r.text === '') continue;
      chars += r.text.length;
      if (chars > MAX_ARG_CHARS) break;
      events.push({ role: r.role, text: r.text, ...(r.role === 'assistant' && id(r.responseId) ? { responseId: r.responseId } : {}) });
    }
  }
  return { agentId: o.agentId, agentName: o.agentName.trim() || o.agentId, sessionId: o.sessionId, events };
}

/** An agent-session failure as the chat shows it: a missing session is not a model to switch. */
function sessionErrorView(e: unknown): ChatErrorView {
  const view = toChatErrorView(e);
  if (isGatewayError(e) && e.reason === 'not_found') return { ...view, message: 'The gateway does not know this agent session or reply (404).', actions: view.actions.filter((a) => a !== 'switchModel') };
  return view;
}

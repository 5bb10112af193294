/**
 * The reply stream: Send, Edit (the last message), Regenerate, Stop and a reply's error actions, and
 * streaming a plain chat reply from the gateway into every view showing the conversation. An agent-mode
 * reply (agentRun.ts) and an agent session's reply (sessionChat.ts) start here and end the same way.
 *
 * Invariants:
 * - The user's message is saved to history before the request is sent; if that save fails nothing is
 *   sent and the text goes back into the input.
 * - Streamed text that arrived is never dropped: a broken or stopped stream keeps it, marked incomplete.
 * - Text the webview cleared optimistically comes back (setInput, in its send/edit mode) whenever the
 *   message does not go out, whatever the reason.
 */
import { chatRouteFor } from '../gateway/chatRoute';
import { chatRequestBody } from './requestBody';
import { continuePrompt, FinishWatch, readReplyEnd } from '../gateway/finishReason';
import * as l10n from '../l10n';
import type { Usage } from '../gateway/types';
import { estimatedUsage } from './cost';
import { chargeOf, costBasisText, mayHaveBeenBilled } from '../spend/charge';
import { selectVersion } from './replyVersions';
import { isGatewayError } from '../http/errors';
import type { ChatErrorAction, HostToWebview } from '../../protocol/chatProtocol';
import { estimateTokens, lastIndexOfRole, newConversation, requestMessages, titleFrom, type Conversation, type StoredMessage } from './conversation';
import { toChatErrorView } from './errorView';
import type { LiveStream } from './liveConversations';
import { alternativeFor, chatModelOptions } from './modelOptions';
import type { HandlersFor } from './chatDeps';
import { NotSent, type ChatView } from './chatView';
import type { CostPart } from './costPart';
import type { AgentRun } from './agentRun';
import type { SessionChat } from './sessionChat';
import type { SettingsPart } from './settingsPart';

const CHUNK_COALESCE_MS = 16;

/**
 * Chunks are coalesced for up to one frame before crossing to the webview: fewer messages over the
 * webview IPC, and the webview paints at most once per frame anyway. `flush` posts what is pending now,
 * `later` within a frame.
 */
export function chunkPoster(act: LiveStream, post: (m: HostToWebview) => void): { flush(): void; later(): void } {
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (flushTimer !== undefined) clearTimeout(flushTimer);
    flushTimer = undefined;
    if (act.pending) post({ type: 'streamChunk', requestId: act.requestId, text: act.pending });
    act.pending = '';
  };
  return { flush, later: () => void (flushTimer ??= setTimeout(flush, CHUNK_COALESCE_MS)) };
}

/** The gateway's retry notice, as the webview's countdown. */
export function retryPoster(post: (m: HostToWebview) => void, requestId: string) {
  return (n: { attempt: number; delayMs: number }) => post({ type: 'retryCountdown', requestId, attempt: n.attempt, seconds: Math.max(1, Math.ceil(n.delayMs / 1000)) });
}

export class ReplyStream {
  constructor(
    private readonly view: ChatView,
    private readonly parts: { cost: CostPart; agent: AgentRun; session: SessionChat; settings: SettingsPart },
  ) {}

  readonly handlers: HandlersFor<'send' | 'stop' | 'regenerate' | 'editLast' | 'errorAction' | 'showVersion' | 'continueReply'> = {
    showVersion: (msg) => this.showVersion(msg.messageId, msg.index),
    send: (msg) => {
      this.parts.cost.clearPromptCost();
      return this.send(msg.text);
    },
    stop: () => {
      this.view.streaming()?.abort.abort();
    },
    regenerate: () => this.regenerate(),
    editLast: (msg) => this.editLast(msg.text),
    errorAction: (msg) => this.errorAction(msg.action, msg.messageId),
    continueReply: (msg) => this.continueReply(msg.messageId),
  };

  /**
   * Continue under a cut-off reply: a user turn asking the model to go on (the cut-off reply stays, so
   * the model sees where it stopped). Only the last reply, and only one whose end can be continued; the
   * composer's attachments and the open file stay for the user's next message.
   */
  private async continueReply(messageId: string): Promise<void> {
    const last = this.view.conv.messages.at(-1);
    if (!last || last.id !== messageId || last.role !== 'assistant' || !readReplyEnd(last.finish)?.continuable) {
      return this.view.notice(l10n.t('Only the last reply, when it was cut off, can be continued.'));
    }
    return this.send(continuePrompt(), { bare: true });
  }

  private async send(text: string, options: { bare?: boolean } = {}): Promise<void> {
    if (!text.trim()) return;
    const { view } = this;
    let next: Conversation;
    try {
      if (!(await view.allowed())) throw new NotSent();
      next = await this.prepareSend(text, options.bare === true);
    } catch (e) {
      // Nothing was sent (a dialog failed, the history write failed, ...): give the text back so
      // nothing the user typed is lost, whatever went wrong before the request.
      view.release();
      if (!options.bare) view.restoreInput(text, 'send');
      if (!(e instanceof NotSent)) view.deps.host.showError(`Could not send the message: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    view.conv = next;
    if (!options.bare) view.attachments = [];
    view.replacing = undefined;
    await this.runRequest();
  }

  /** Everything before the request: checks, confirmation and the history write. Throws NotSent after telling the user why. */
  private async prepareSend(text: string, bare: boolean): Promise<Conversation> {
    const { view } = this;
    if (!view.canSend()) throw new NotSent();
    // The active editor's file goes along unless the user removed its chip (#29.4); a continuation
    // (bare) carries no attachment: the model has them in the turns before.
    const user = bare ? view.bareUserMessage(text) : view.draftUserMessage(text, await view.implicitToSend());
    const from = view.conv;
    let next: Conversation = { ...from, messages: [...from.messages, user] };
    const limit = view.currentModel()?.context_window;
    const tokens = estimateTokens(requestMessages(next));
    if (limit && tokens > limit && !(await view.deps.host.confirmContextOverflow(tokens, limit))) throw new NotSent();
    if (view.conv.messages.length === 0 && view.conv.title === newConversation('', '', 0).title) next.title = titleFrom(text);
    next.updatedAt = view.now();
    try {
      next = await view.saveLive(next, from);
    } catch (e) {
      view.deps.host.showError(`Could not save the message to chat history, so it was not sent: ${e instanceof Error ? e.message : String(e)}`);
      throw new NotSent();
    }
    return next;
  }

  /** Drops the reply after the last user message and asks again. */
  private async regenerate(): Promise<void> {
    const { view } = this;
    if (!view.canSend()) return;
    const lastUser = lastIndexOfRole(view.conv, 'user');
    const replaced = view.conv.messages[lastUser + 1];
    // Saved before it replaces view.conv: if the write fails, memory, disk and the UI keep the old reply.
    // The replaced reply stays on disk (as `regenerating`) until the fresh one is saved with it as its
    // earlier versions: a reload meanwhile loses neither (#29.8).
    const marker = replaced?.role === 'assistant' ? { regenerating: { after: view.conv.messages[lastUser].id, previous: replaced } } : {};
    if (lastUser < 0 || !(await view.allowed()) || !(await view.commit({ ...view.conv, ...marker, messages: view.conv.messages.slice(0, lastUser + 1) }, 'Could not save the conversation, so nothing was regenerated'))) {
      view.release();
      return;
    }
    view.replacing = replaced?.role === 'assistant' ? replaced : undefined;
    await this.runRequest();
  }

  /** ‹ › on a regenerated reply: shows its version `index` (1-based), saved so history opens it that way. */
  private async showVersion(messageId: string, index: number): Promise<void> {
    const { view } = this;
    if (view.streaming()) return view.notice('Wait for the reply to finish (or stop it) before switching versions.');
    const at = view.conv.messages.findIndex((m) => m.id === messageId);
    const next = at >= 0 && view.conv.messages[at].role === 'assistant' ? selectVersion(view.conv.messages[at], index - 1) : undefined;
    if (!next) return view.postState();
    const messages = view.conv.messages.slice();
    messages[at] = next;
    if (await view.commit({ ...view.conv, messages }, 'Could not save the version choice')) await view.postState();
  }

  private async editLast(text: string): Promise<void> {
    if (!text.trim()) return;
    const { view } = this;
    if (lastIndexOfRole(view.conv, 'user') < 0) return this.send(text);
    let next: Conversation;
    try {
      if (!view.canSend()) throw new NotSent();
      if (!(await view.allowed())) throw new NotSent();
      const from = view.conv;
      const lastUser = lastIndexOfRole(from, 'user');
      const edited: StoredMessage = { ...from.messages[lastUser], content: text, createdAt: view.now() };
      next = await view.saveLive({ ...from, messages: [...from.messages.slice(0, lastUser), edited], updatedAt: view.now() }, from);
    } catch (e) {
      // Back in edit mode, so Enter replaces the last message again instead of adding a second copy.
      view.release();
      view.restoreInput(text, 'editLast');
      if (!(e instanceof NotSent)) view.deps.host.showError(`Could not save the edited message: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    view.conv = next;
    view.replacing = undefined;
    await this.runRequest();
  }

  private async errorAction(action: ChatErrorAction, messageId: string): Promise<void> {
    const { view } = this;
    const m = view.conv.messages.find((x) => x.id === messageId);
    switch (action) {
      case 'setApiKey':
        return view.deps.host.setApiKey();
      case 'copyRequestId':
        if (m?.requestId) await view.deps.host.copy(m.requestId);
        return;
      case 'retry':
        return this.regenerate();
      case 'switchModel': {
        const options = chatModelOptions(view.deps.models.chatModels(), view.now());
        const model = view.currentModel();
        const target = (model && alternativeFor(model, view.deps.models.chatModels())?.id) ?? options[0]?.id;
        if (target) return this.parts.settings.selectModel(target);
        return;
      }
    }
  }

  /** Streams a reply to the conversation as it stands (its last message is the user's). */
  private async runRequest(): Promise<void> {
    const { view } = this;
    // Agent mode runs the tool loop here (a session-bound conversation's knowledge-base calls then carry
    // the session header); otherwise a conversation bound to an agent session asks the session's agent.
    if (this.parts.agent.on()) return this.parts.agent.run();
    if (view.conv.agentSession) return this.parts.session.run(view.conv.agentSession);
    const model = view.currentModel();
    const requestId = view.newId();
    const reply: StoredMessage = { id: view.newId(), role: 'assistant', content: '', status: 'streaming', createdAt: view.now(), modelId: view.conv.modelId };
    const abort = new AbortController();
    const act: LiveStream = { requestId, abort, message: reply, pending: '' };
    view.active = act;
    // The same body the cost before sending priced (requestBody.ts).
    const request = chatRequestBody(view.conv, { imageInput: view.imageInput(), model });

    view.conv = { ...view.conv, messages: [...view.conv.messages, reply] };
    // The conversation this reply belongs to, even if the view switches conversations meanwhile.
    const conv = view.conv;
    // The reply streams into every view showing this conversation.
    const post = view.poster();
    await view.postState();
    post({ type: 'streamStart', requestId, message: view.messageView(reply) });

    let usage: Usage | undefined;
    const finish = new FinishWatch();
    const chunks = chunkPoster(act, post);
    let firstSent = false;
    let streamStarted = false;
    let failure: unknown;
    try {
      const client = await view.deps.getClient();
      const stream = await client.streamChatCompletion(request, { signal: abort.signal, onRetry: retryPoster(post, requestId), route: chatRouteFor(model) });
      reply.requestId = stream.requestId;
      streamStarted = true;
      for await (const chunk of stream) {
        const text = chunk.choices[0]?.delta?.content;
        if (text) {
          reply.content += text;
          act.pending += text;
          // The first text crosses at once (it is what the user waits for); the rest is coalesced.
          if (!firstSent) {
            firstSent = true;
            chunks.flush();
          } else chunks.later();
        }
        if (chunk.usage) usage = chunk.usage;
        finish.see(chunk);
      }
      reply.status = 'complete';
      // Cut off by the output limit (or another end than `stop`): said under the reply, with Continue.
      const end = finish.end({ toolsOffered: false });
      if (end) reply.finish = end;
    } catch (e) {
      failure = e;
      const stopped = abort.signal.aborted || (isGatewayError(e) && e.reason === 'aborted');
      if (isGatewayError(e) && e.requestId) reply.requestId = e.requestId;
      if (stopped) {
        // The user's choice, not a failure: kept as received (even when nothing had arrived yet),
        // shown quietly as stopped, with no error and no Retry.
        reply.status = 'incomplete';
        reply.stopped = true;
      } else {
        reply.status = reply.content ? 'incomplete' : 'error';
        reply.error = toChatErrorView(e, reply.content.length > 0);
        view.deps.log.warn(`Chat request failed: ${isGatewayError(e) ? `${e.reason}${e.status ? ` ${e.status}` : ''}` : 'unexpected error'}${reply.requestId ? ` (request id ${reply.requestId})` : ''}`);
      }
    } finally {
      chunks.flush();
      view.active = undefined;
    }
    // Every billed request that may have reached the gateway goes to the spend ledger (#39.1): the
    // gateway's usage when it came, else an estimate marked as such (core/spend/charge.ts).
    const billed = usage !== undefined || (failure !== undefined && mayHaveBeenBilled(failure, streamStarted));
    if (billed) {
      const charge = chargeOf(usage, () => estimatedUsage(estimateTokens(requestMessages({ ...conv, messages: conv.messages.filter((m) => m !== reply) })), reply.content), reply.stopped ? 'stopped' : 'failed');
      if (!charge.estimated) reply.usage = charge.usage;
      const nano = model ? this.parts.cost.priceOf(model, charge.usage) : undefined;
      if (nano !== undefined) {
        reply.costNano = nano.toString();
        if (charge.estimated) reply.costEstimated = true;
        reply.costBasis = costBasisText(charge, model?.pricing);
      }
      void this.parts.cost.record(
        {
          model: reply.modelId ?? view.conv.modelId,
          usage: charge.usage,
          ...(model?.pricing ? { pricing: model.pricing } : {}),
          ...(reply.requestId ? { requestId: reply.requestId } : {}),
          ...(charge.estimated ? { estimated: charge.estimated } : {}),
        },
        'a chat reply',
      );
    }
    await view.finishReply(conv, reply, requestId, post);
  }
}

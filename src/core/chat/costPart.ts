/**
 * Cost, as the chat shows and records it: the prompt's cost before sending (the `draft` message,
 * answered with `promptCost`), and the price of every reply (or agent round) for the local spend
 * ledger (`onPriced`). The arithmetic is in cost.ts and core/pricing.ts.
 */
import type { Model, Usage } from '../gateway/types';
import { effortToSend, reasoningCostNote } from '../gateway/reasoningEffort';
import { promptCostText } from '../spend/promptCost';
import { agentRequestBody, chatRequestBody, IMAGE_PROMPT_TOKENS, promptOf } from './requestBody';
import type { EstimateReason } from '../spend/charge';
import { defaultCostFn, replyCostNano } from './cost';
import { answerChat, type HostToWebview } from '../../protocol/chatProtocol';
import type { HandlersFor } from './chatDeps';
import type { ChatView } from './chatView';

export class CostPart {
  constructor(private readonly view: ChatView) {}

  /**
   * Bumped when Send clears the cost: a draft priced across that moment (the view posts the draft and Send
   * right after it, and the host takes Send while the draft still awaits) answers nothing, or the view
   * would show the sent text's cost under an empty input.
   */
  private cleared = 0;

  readonly handlers: HandlersFor<'draft'> = {
    draft: async (msg) => {
      const cleared = this.cleared;
      const cost = await this.onDraft(msg.text);
      if (cost && cleared === this.cleared) this.view.deps.post(answerChat(msg, cost));
    },
  };

  /**
   * Prices the request Send would send now with `text` as the next message, built by the same function
   * (requestBody.ts): the system prompt, earlier turns, the attachments and the open file's implicit
   * chip, images, and in agent mode the tool schemas.
   */
  private async onDraft(text: string): Promise<Extract<HostToWebview, { type: 'promptCost' }> | undefined> {
    const { view } = this;
    const estimator = view.deps.promptCost;
    if (!estimator) return undefined;
    if (!text.trim() || !view.conv.modelId) {
      estimator.cancel();
      return { type: 'promptCost', text: '', estimate: false };
    }
    const next = { ...view.conv, messages: [...view.conv.messages, view.draftUserMessage(text, await view.implicitToSend())] };
    const tools = view.agentTools ? await view.agentTools() : undefined;
    const body = tools ? agentRequestBody(next, { imageInput: view.imageInput(), tools }) : chatRequestBody(next, { imageInput: view.imageInput(), model: view.currentModel() });
    const prompt = promptOf(body);
    const cost = await estimator.request(view.conv.modelId, prompt.text, prompt.images * IMAGE_PROMPT_TOKENS);
    // Undefined: superseded by a newer draft (which answers itself), or no usable rate.
    if (!cost) return undefined;
    // A reasoning effort buys reasoning tokens the figure cannot count in advance: said, with their rate.
    const model = view.currentModel();
    const effort = effortToSend(model, view.conv.reasoningEffort);
    const line = effort === undefined ? promptCostText(cost) : `${promptCostText(cost)} · ${reasoningCostNote(model?.pricing)}`;
    return { type: 'promptCost', text: line, estimate: !cost.counted };
  }

  /** The message went out (or is going): no cost for an empty input. */
  clearPromptCost(): void {
    const { deps } = this.view;
    this.cleared++;
    if (!deps.promptCost) return;
    deps.promptCost.cancel();
    deps.post({ type: 'promptCost', text: '', estimate: false });
  }

  /** Nanocredits for `usage` on `model`, or undefined when the model has no usable rates. */
  priceOf(model: Model, usage: Usage): bigint | undefined {
    return replyCostNano(this.view.deps.costOf ?? defaultCostFn, model, usage);
  }

  /**
   * Records a priced reply (or agent round) in the spend ledger; never throws. Returns the ledger's
   * write, which the budget guard of the next agent round waits for.
   */
  record(
    reply: { model: string; usage: Usage; pricing?: Model['pricing']; requestId?: string; estimated?: EstimateReason },
    what: 'a chat reply' | 'an agent round',
  ): void | Promise<unknown> {
    try {
      return this.view.deps.onPriced?.(reply);
    } catch (e) {
      this.view.deps.log.warn(`Spend ledger: could not record ${what}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

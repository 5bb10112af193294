/**
 * Compare Models, vscode-free: one prompt (with the same system prompt and attachments) sent to two to
 * four models at once, each reply streamed into its own column with its time to first token, total
 * time, tokens and exact credits (src/core/pricing.ts, from the catalog's rates at the time of the
 * reply).
 *
 * Contract:
 *  - Before sending, `estimate` gives the cost of the prompt on each model and the total (the
 *    cost-before-sending estimate: tokens counted by the gateway when it can, src/core/spend/costEstimate.ts).
 *  - `send` asks the budget guard once for the comparison; refused, nothing is sent. Each model gets
 *    exactly one request (never retried here once it may have reached the server; the client retries
 *    only what provably did not). Removed models are refused before anything is sent (G-CAT-11).
 *  - Every reply that carries usage is recorded in the spend ledger (`record`), stopped ones included
 *    when their usage arrived, so budgets count it.
 *  - `stop` aborts every column of the current run; text already received stays.
 *  - `continueInChat` hands one column (prompt, attachments, system prompt and that reply) to the chat.
 * One run at a time: a send while a run streams is refused with a notice.
 */
import { modelLifecycle } from '../catalog/deprecation';
import { rateLines } from '../catalog/pricingDisplay';
import type { IGatewayClient } from '../gateway/api';
import type { ChatMessage, Model, Usage } from '../gateway/types';
import { chatRouteFor, isConversational } from '../gateway/chatRoute';
import { FinishWatch, replyEndText, type ReplyEnd } from '../gateway/finishReason';
import { formatCredits, usageCostNano } from '../pricing';
import { chargeOf, costBasisText, estimatedUsage, mayHaveBeenBilled, roughTokens, type EstimateReason } from '../spend/charge';
import { costBeforeSending } from '../spend/costEstimate';
import { describeError } from '../errorText';
import { isGatewayError } from '../http/errors';
import { chatReasoningFields, effortToSend, readReasoningEffort, reasoningCostNote } from '../gateway/reasoningEffort';
import {
  MAX_COMPARE_MODELS,
  MIN_COMPARE_MODELS,
  type ColumnStats,
  type CompareAttachment,
  type CompareModelOption,
  answerCompare,
  type CompareHostHandlers,
  type CompareWebviewToHost,
  type HostToCompareWebview,
} from '../../protocol/compareProtocol';
import { dispatch, type MessageOfType } from '../../protocol/declare';

type EstimateAnswer = MessageOfType<HostToCompareWebview, 'estimate'>;

export const COMPARE_OPERATION = 'Compare models';

export interface CompareAttachmentText {
  label: string;
  content: string;
}

/** What one column hands to the chat. */
export interface ChatSeed {
  modelId: string;
  systemPrompt: string;
  prompt: string;
  attachments: CompareAttachmentText[];
  reply: string;
  usage?: Usage;
  costNano?: string;
  requestId?: string;
  /** The reply ended otherwise than normally (cut off, ...): the chat shows it so, with Continue. */
  finish?: ReplyEnd;
}

export interface CompareDeps {
  getClient(): Promise<IGatewayClient>;
  models(): readonly Model[];
  /** The budget guard: false means do not send (the user was told why). */
  allowSend(operation: string): Promise<boolean>;
  /** One priced reply into the spend ledger. */
  record(input: { model: string; operation: string; usage: Usage; pricing: Model['pricing']; requestId?: string; estimated?: EstimateReason }): void;
  /** Prompt tokens of `text` for `modelId`, and whether the gateway counted them (else a local estimate). */
  countTokens(modelId: string, text: string): Promise<{ tokens: number; counted: boolean }>;
  continueInChat(seed: ChatSeed): Promise<void>;
  /** Asks the user for files to attach (the host's file dialog and checked reader). */
  pickAttachments(): Promise<CompareAttachmentText[]>;
  post(m: HostToCompareWebview): void;
  now(): number;
  log?(line: string): void;
  initialSystemPrompt?: string;
}

interface Column {
  model: string;
  text: string;
  status: 'streaming' | 'done' | 'stopped' | 'error';
  stats: ColumnStats;
  usage?: Usage;
  costNano?: bigint;
  requestId?: string;
  /** The reply ended otherwise than normally: how, and the words for it. */
  end?: ReplyEnd;
  cutOff?: string;
}

interface Run {
  /** The reasoning effort chosen for the comparison (sent to the models that list it). */
  effort?: string;
  id: number;
  prompt: string;
  systemPrompt: string;
  attachments: CompareAttachmentText[];
  columns: Column[];
  abort: AbortController;
  done: Promise<void>;
}

export function userContent(prompt: string, attachments: readonly CompareAttachmentText[]): string {
  if (!attachments.length) return prompt;
  const parts = attachments.map((a) => `Attached file ${a.label}:\n\`\`\`\n${a.content}\n\`\`\``);
  return `${parts.join('\n\n')}\n\n${prompt}`;
}

export function modelOption(m: Model, now: number): CompareModelOption {
  const io = rateLines(m.pricing).filter((r) => r.key === 'input_per_million' || r.key === 'output_per_million');
  return { id: m.id, label: m.display_name || m.id, deprecated: modelLifecycle(m, now).state === 'deprecated', rates: io.map((r) => `${r.label.toLowerCase()} ${r.text}`).join(', ') };
}

/** The model's reasoning-effort control for the page (#43.3; reasoningEffort.ts reads the catalog). */
export function withReasoning(option: CompareModelOption, m: Model): CompareModelOption {
  const r = readReasoningEffort(m);
  if (r.kind === 'none') return option;
  return { ...option, reasoning: r.kind === 'unknown' ? { unknown: r.parameter } : { values: r.values } };
}

export class CompareController {
  private runs: Run[] = [];
  private nextRun = 1;
  private attachments: CompareAttachmentText[] = [];
  private systemPrompt: string;

  constructor(private readonly deps: CompareDeps) {
    this.systemPrompt = deps.initialSystemPrompt ?? '';
  }

  /**
   * The models a comparison may use: conversation models (chat or messages route, see chatRoute.ts; a
   * model without capabilities counts as chat) still served (G-CAT-11), active ones first.
   */
  chatModels(): Model[] {
    const now = this.deps.now();
    const served = this.deps.models().filter((m) => (m.capabilities === undefined || isConversational(m)) && modelLifecycle(m, now).state !== 'removed');
    const rank = (m: Model) => (modelLifecycle(m, now).state === 'active' ? 0 : 1);
    return served.sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id));
  }

  get current(): Run | undefined {
    return this.runs.at(-1);
  }

  get streaming(): boolean {
    return this.current?.columns.some((c) => c.status === 'streaming') ?? false;
  }

  /** One handler per page message (the compiler refuses a map that misses one). */
  private readonly handlers: CompareHostHandlers = {
    ready: () => this.init(),
    estimate: async (m) => this.deps.post(answerCompare(m, await this.estimate(m.models, m.prompt, m.systemPrompt, m.effort))),
    send: (m) => this.send(m.models, m.prompt, m.systemPrompt, m.effort),
    stop: () => this.stop(),
    attach: async () => {
      this.attachments.push(...(await this.deps.pickAttachments()));
      this.deps.post({ type: 'attachments', attachments: this.attachmentList() });
    },
    removeAttachment: (m) => {
      this.attachments.splice(m.index, 1);
      this.deps.post({ type: 'attachments', attachments: this.attachmentList() });
    },
    continueInChat: (m) => this.continueInChat(m.runId, m.column),
    openLink: () => undefined,
  };

  async handle(m: CompareWebviewToHost): Promise<void> {
    await dispatch(this.handlers, m);
  }

  private attachmentList(): CompareAttachment[] {
    return this.attachments.map((a) => ({ label: a.label, chars: a.content.length }));
  }

  private init(): void {
    const now = this.deps.now();
    const models = this.chatModels();
    this.deps.post({ type: 'init', models: models.map((m) => withReasoning(modelOption(m, now), m)), selected: models.slice(0, 2).map((m) => m.id), systemPrompt: this.systemPrompt, attachments: this.attachmentList() });
  }

  private checkModels(ids: readonly string[]): { models: Model[] } | { error: string } {
    const unique = [...new Set(ids)];
    if (unique.length < MIN_COMPARE_MODELS || unique.length > MAX_COMPARE_MODELS) return { error: `Choose ${MIN_COMPARE_MODELS} to ${MAX_COMPARE_MODELS} different models.` };
    const served = new Map(this.chatModels().map((m) => [m.id, m]));
    const models: Model[] = [];
    for (const id of unique) {
      const m = served.get(id);
      if (!m) return { error: `${id} is not a chat model the gateway still serves.` };
      models.push(m);
    }
    return { models };
  }

  /**
   * The cost before sending: each model's prompt cost, and the most the whole comparison can cost. The
   * answer to the page's `estimate` request (the page drops an answer to an estimate it no longer waits for).
   */
  async estimate(ids: readonly string[], prompt: string, systemPrompt: string, effort?: string): Promise<EstimateAnswer> {
    const checked = this.checkModels(ids);
    if ('error' in checked || prompt.trim() === '') return { type: 'estimate', perModel: [], counted: false, note: 'error' in checked ? checked.error : undefined };
    const text = `${systemPrompt}\n${userContent(prompt, this.attachments)}`;
    let total = 0n;
    let complete = true;
    let counted = true;
    const perModel: Array<{ model: string; text: string }> = [];
    for (const m of checked.models) {
      const c = await this.deps.countTokens(m.id, text).catch(() => undefined);
      const cost = c && costBeforeSending(c.tokens, c.counted, m.pricing, m.max_output_tokens);
      if (!c || !cost) {
        complete = false;
        perModel.push({ model: m.id, text: 'no published rates' });
        continue;
      }
      counted &&= c.counted;
      total += cost.upToNano;
      const upTo = cost.maxOutputNano !== undefined ? `, up to ${formatCredits(cost.upToNano)} with the longest reply` : ' + the reply';
      // A reasoning effort the model lists buys reasoning tokens not counted here: said, with their rate (#43.3).
      const sent = effortToSend(m, effort);
      const reasoning = sent !== undefined ? ` · ${reasoningCostNote(m.pricing)}` : '';
      perModel.push({ model: m.id, text: `prompt ${formatCredits(cost.inputNano)}${upTo}${reasoning}` });
    }
    return {
      type: 'estimate',
      perModel,
      counted,
      total: complete ? `up to ${formatCredits(total)}` : undefined,
      note: counted ? undefined : 'Estimate: the gateway could not count the tokens.',
    };
  }

  async send(ids: readonly string[], prompt: string, systemPrompt: string, effort?: string): Promise<void> {
    if (this.streaming) {
      this.deps.post({ type: 'notice', message: 'A comparison is still streaming: stop it or wait for it to finish.' });
      return;
    }
    if (prompt.trim() === '') {
      this.deps.post({ type: 'notice', message: 'Type a prompt to compare.' });
      return;
    }
    const checked = this.checkModels(ids);
    if ('error' in checked) {
      this.deps.post({ type: 'notice', message: checked.error });
      return;
    }
    this.systemPrompt = systemPrompt;
    if (!(await this.deps.allowSend(COMPARE_OPERATION))) return;
    const client = await this.deps.getClient();
    const abort = new AbortController();
    const run: Run = {
      id: this.nextRun++,
      prompt,
      systemPrompt,
      attachments: [...this.attachments],
      ...(effort !== undefined ? { effort } : {}),
      columns: checked.models.map((m) => ({ model: m.id, text: '', status: 'streaming', stats: { totalMs: 0 } })),
      abort,
      done: Promise.resolve(),
    };
    // Only the last few runs are kept (for Continue in Chat of a recent column).
    this.runs = [...this.runs.slice(-4), run];
    this.deps.post({ type: 'started', runId: run.id, columns: checked.models.map((m) => ({ model: m.id, label: m.display_name || m.id })) });
    const messages: ChatMessage[] = [];
    if (systemPrompt.trim()) messages.push({ role: 'system', content: systemPrompt });
    messages.push({ role: 'user', content: userContent(prompt, run.attachments) });
    run.done = Promise.all(checked.models.map((m, i) => this.stream(client, run, i, m, messages))).then(() => {
      const priced = run.columns.filter((c) => c.costNano !== undefined);
      const total = priced.reduce((s, c) => s + (c.costNano ?? 0n), 0n);
      this.deps.post({ type: 'runDone', runId: run.id, totalCredits: priced.length ? formatCredits(total) : undefined });
    });
    await run.done;
  }

  private async stream(client: IGatewayClient, run: Run, index: number, model: Model, messages: ChatMessage[]): Promise<void> {
    const col = run.columns[index];
    const started = this.deps.now();
    const ended = new FinishWatch();
    let streamStarted = false;
    // Every billed reply goes to the ledger (#39.1): the gateway's usage, else an estimate marked as such.
    const finish = (status: Column['status'], error?: unknown) => {
      col.status = status;
      col.stats.totalMs = this.deps.now() - started;
      const billed = col.usage !== undefined || (error !== undefined && mayHaveBeenBilled(error, streamStarted));
      if (billed) {
        const estimate = () => estimatedUsage(roughTokens(messages.map((m) => m.content).join('\n\n')), col.text);
        const charge = chargeOf(col.usage, estimate, status === 'stopped' ? 'stopped' : 'failed');
        const u = charge.usage;
        if (!charge.estimated) {
          col.stats.promptTokens = u.prompt_tokens;
          col.stats.completionTokens = u.completion_tokens;
          col.stats.totalTokens = u.total_tokens;
          const reasoning = u.completion_tokens_details?.reasoning_tokens;
          if (reasoning) col.stats.reasoningTokens = reasoning;
          if (u.cache_read_tokens) col.stats.cacheReadTokens = u.cache_read_tokens;
          if (u.cache_write_tokens) col.stats.cacheWriteTokens = u.cache_write_tokens;
        }
        const nano = model.pricing ? usageCostNano(model.pricing, u) : undefined;
        if (nano !== undefined) {
          col.costNano = nano;
          col.stats.credits = formatCredits(nano);
          if (charge.estimated) col.stats.creditsEstimated = true;
          col.stats.costBasis = costBasisText(charge, model.pricing);
        }
        this.deps.record({ model: model.id, operation: COMPARE_OPERATION, usage: u, pricing: model.pricing, requestId: col.requestId, ...(charge.estimated ? { estimated: charge.estimated } : {}) });
      }
      // A reply that ended otherwise than normally (cut off by the output limit, ...) says so in its column.
      const end = status === 'done' ? ended.end({ toolsOffered: false }) : undefined;
      if (end) {
        col.end = end;
        col.cutOff = replyEndText(end);
      }
      const message = status === 'error' && error !== undefined ? describeError(error).message : undefined;
      this.deps.post({ type: 'columnDone', runId: run.id, column: index, status, stats: { ...col.stats }, ...(message ? { error: message } : {}), ...(col.cutOff ? { cutOff: col.cutOff } : {}) });
    };
    try {
      // The reasoning effort only to a model whose catalog entry lists it; nothing to the others (#43.3).
      const reasoning = chatReasoningFields(effortToSend(model, run.effort));
      const stream = await client.streamChatCompletion({ model: model.id, messages, stream: true, stream_options: { include_usage: true }, ...reasoning }, { signal: run.abort.signal, route: chatRouteFor(model) });
      streamStarted = true;
      col.requestId = stream.requestId;
      for await (const chunk of stream) {
        if (chunk.usage) col.usage = chunk.usage;
        ended.see(chunk);
        const text = chunk.choices?.[0]?.delta?.content;
        if (text) {
          if (col.stats.ttftMs === undefined) col.stats.ttftMs = this.deps.now() - started;
          col.text += text;
          this.deps.post({ type: 'delta', runId: run.id, column: index, text });
        }
      }
      finish('done');
    } catch (e) {
      if (isGatewayError(e) && e.requestId && !col.requestId) col.requestId = e.requestId;
      if (run.abort.signal.aborted) finish('stopped', e);
      else {
        this.deps.log?.(`Compare models: ${model.id} failed: ${e instanceof Error ? e.message : String(e)}`);
        finish('error', e);
      }
    }
  }

  stop(): void {
    const run = this.current;
    if (run && run.columns.some((c) => c.status === 'streaming')) run.abort.abort();
  }

  private async continueInChat(runId: number, column: number): Promise<void> {
    const run = this.runs.find((r) => r.id === runId);
    const col = run?.columns[column];
    if (!run || !col || col.status === 'streaming') {
      this.deps.post({ type: 'notice', message: 'That reply is not finished (or no longer kept): nothing to continue.' });
      return;
    }
    const seed: ChatSeed = { modelId: col.model, systemPrompt: run.systemPrompt, prompt: run.prompt, attachments: run.attachments, reply: col.text };
    if (col.usage) seed.usage = col.usage;
    if (col.costNano !== undefined) seed.costNano = col.costNano.toString();
    if (col.requestId) seed.requestId = col.requestId;
    if (col.end) seed.finish = col.end;
    await this.deps.continueInChat(seed);
  }

  dispose(): void {
    for (const r of this.runs) r.abort.abort();
  }
}

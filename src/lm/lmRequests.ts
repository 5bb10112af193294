/**
 * The request side of the language model provider (src/lm/chatProvider.ts), imported on the first request:
 * loaded when VS Code first sends a request or counts tokens, so the activation bundle holds only the
 * provider's registration and model list. Requests go through the shared client
 * (services.getClient()) and the one tool wire module (src/core/gateway/toolWire.ts).
 *
 *  - Text parts are reported as they arrive; tool calls when the reply completes (their arguments are
 *    only whole then). A reply with a tool call whose arguments are not a JSON object reports no call
 *    at all and fails: a tool is never run with made-up input.
 *  - Cancellation aborts the HTTP request at once (the gateway sees the connection close).
 *  - Errors are LanguageModelErrors carrying the gateway's explanation and the request id.
 *  - Every reply with usage is priced exactly and recorded in the spend ledger.
 */
import { chatRouteFor } from '../core/gateway/chatRoute';
import * as vscode from 'vscode';
import { asChatRequest, readToolChunk, ToolCallAssembler, ToolWireError, wireToolChoice, wireTools, type ToolChatRequest, type ToolSpec } from '../core/gateway/toolWire';
import type { ModelPricing, Usage } from '../core/gateway/types';
import { chargeOf, estimatedUsage, mayHaveBeenBilled, roughTokens } from '../core/spend/charge';
import { FinishWatch } from '../core/gateway/finishReason';
import { endNote } from '../core/lm/endNote';
import { isGatewayError } from '../core/http/errors';
import type { LmModelInfo } from '../core/lm/modelInfo';
import { LmMappingError, toWireMessages } from '../core/lm/messages';
import { estimateTokens, MESSAGE_OVERHEAD_TOKENS, TokenCounter, COUNT_TOKENS_PATH } from '../core/lm/tokenCount';
import type { Services } from '../services';
import type { LmServices } from './registerLm';
import { lmErrorParts, type LmErrorCode } from './lmErrorParts';
import { messageText, toLmMessages } from './parts';
import type { SpendService as SpendRecorder } from '../platform/spendService';
import { signalFromToken, withTokenSignal } from '../platform/cancellation';

type Info = vscode.LanguageModelChatInformation & LmModelInfo;

/** LanguageModelError's constructor (message, code) exists at runtime but is not in the typings. */
export function lmError(message: string, code: LmErrorCode): Error {
  if (code === 'NoPermissions') return vscode.LanguageModelError.NoPermissions(message);
  if (code === 'Blocked') return vscode.LanguageModelError.Blocked(message);
  if (code === 'NotFound') return vscode.LanguageModelError.NotFound(message);
  const Ctor = vscode.LanguageModelError as unknown as new (m: string, c: string) => Error;
  try {
    return new Ctor(message, code);
  } catch {
    return new Error(message);
  }
}

/** The gateway's explanation and request id, as a LanguageModelError (words: lmErrorParts.ts). */
export function toLanguageModelError(e: unknown): Error {
  if (e instanceof LmMappingError || e instanceof ToolWireError) return lmError(e.message, 'Unknown');
  const parts = lmErrorParts(e);
  return lmError(parts.message, parts.code);
}

/** The token counter of the provider: asks the gateway when it can, estimates otherwise. */
export function createTokenCounter(services: Pick<Services, 'getClient' | 'log'>): TokenCounter {
  return new TokenCounter({
    post: async (body, signal) => (await (await services.getClient()).postJson<unknown>(COUNT_TOKENS_PATH, body, { signal })).data,
    isUnsupported: (e) => isGatewayError(e) && (e.reason === 'not_found' || e.reason === 'method_not_allowed'),
    log: (line) => services.log.info(line),
  });
}

export async function respond(
  services: Pick<Services, 'catalog' | 'budget' | 'getClient'>,
  spend: SpendRecorder,
  model: Info,
  messages: readonly vscode.LanguageModelChatRequestMessage[],
  options: vscode.ProvideLanguageModelChatResponseOptions,
  progress: vscode.Progress<vscode.LanguageModelResponsePart>,
  token: vscode.CancellationToken,
): Promise<void> {
  const cancel = signalFromToken(token);
  let requestId: string | undefined;
  // What may have been billed (#39.1): set once the request is about to go out; the gateway's usage
  // when it came, else an estimate from what was sent and what arrived (core/spend/charge.ts).
  interface Billing {
    model: string;
    pricing: ModelPricing | undefined;
    sent: string;
    text: string;
    usage?: Usage;
    started: boolean;
  }
  let billing: Billing | undefined;
  const recordCharge = (why: 'stopped' | 'failed'): void => {
    if (!billing) return;
    const b = billing;
    billing = undefined;
    const charge = chargeOf(b.usage, () => estimatedUsage(roughTokens(b.sent), b.text), why);
    spend.record({ model: b.model, operation: 'vscode-chat', usage: charge.usage, pricing: b.pricing, requestId, ...(charge.estimated ? { estimated: charge.estimated } : {}) });
  };
  try {
    const catalogModel = services.catalog.getModel(model.id);
    const caps = catalogModel?.capabilities ?? [];
    const tools: ToolSpec[] = (options.tools ?? []).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
    if (tools.length > 0 && !caps.includes('tools')) throw lmError(vscode.l10n.t('The model {0} does not support tool calling.', model.id), 'Unknown');
    const request: ToolChatRequest = {
      model: model.id,
      messages: toWireMessages(toLmMessages(messages), { imageInput: caps.includes('vision') }),
      stream: true,
      stream_options: { include_usage: true },
    };
    if (tools.length > 0) {
      request.tools = wireTools(tools);
      const choice = wireToolChoice(options.toolMode === vscode.LanguageModelChatToolMode.Required ? 'required' : 'auto', tools);
      if (choice !== undefined) request.tool_choice = choice;
    }
    // Budget guard: over budget, the user must choose "Send anyway" for this one request.
    if (!(await services.budget.allowSend(vscode.l10n.t('A VS Code chat request to {0}', model.id)))) {
      throw lmError(vscode.l10n.t('Not sent: the AI Gateway budget is used up (see the status bar; raise it in the settings, or choose "Send anyway").'), 'Blocked');
    }
    const client = await services.getClient();
    const bill: Billing = (billing = { model: model.id, pricing: catalogModel?.pricing, sent: JSON.stringify(request.messages) + (request.tools ? JSON.stringify(request.tools) : ''), text: '', started: false });
    // The model's own route: chat completions, or the messages route for a messages-only model.
    const stream = await client.streamChatCompletion(asChatRequest(request), { signal: cancel.signal, route: chatRouteFor(catalogModel) });
    requestId = stream.requestId;
    bill.started = true;
    const calls = new ToolCallAssembler();
    const finish = new FinishWatch();
    for await (const chunk of stream) {
      const view = readToolChunk(chunk);
      if (view.content) {
        progress.report(new vscode.LanguageModelTextPart(view.content));
        bill.text += view.content;
      }
      calls.push(view.toolCalls);
      finish.see(chunk);
      if (view.toolCalls) bill.text += JSON.stringify(view.toolCalls);
      const u = (chunk as { usage?: Usage | null }).usage;
      if (u) bill.usage = u;
    }
    if (bill.usage) recordCharge('failed');
    else billing = undefined;
    // Cut off by the output limit (or another end than a normal one): the reply says so at its end.
    const note = endNote(finish, tools.length > 0);
    if (note) progress.report(new vscode.LanguageModelTextPart(note));
    const finished = calls.finish();
    const bad = finished.find((c) => !c.ok);
    if (bad && !bad.ok) {
      const why = bad.name ? vscode.l10n.t('The model asked to call the tool {0}, but {1}; no tool was called.', bad.name, bad.error) : vscode.l10n.t('The model asked to call a tool, but {0}; no tool was called.', bad.error);
      throw lmError(requestId ? vscode.l10n.t('{0} (request id {1})', why, requestId) : why, 'Unknown');
    }
    for (const c of finished) if (c.ok) progress.report(new vscode.LanguageModelToolCallPart(c.id, c.name, c.input));
  } catch (e) {
    if (billing && (billing.usage || mayHaveBeenBilled(e, billing.started))) recordCharge(token.isCancellationRequested ? 'stopped' : 'failed');
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    if (e instanceof Error && e.name === 'LanguageModelError') throw e;
    throw toLanguageModelError(e);
  } finally {
    cancel.dispose();
  }
}

export async function countTokens(services: LmServices, counter: TokenCounter, model: Info, text: string | vscode.LanguageModelChatRequestMessage, token: vscode.CancellationToken): Promise<number> {
  if (typeof text !== 'string') {
    const body = messageText(text);
    return MESSAGE_OVERHEAD_TOKENS + (await countText(services, counter, model, body, token));
  }
  return countText(services, counter, model, text, token);
}

async function countText(services: Pick<Services, 'keys'>, counter: TokenCounter, model: Info, text: string, token: vscode.CancellationToken): Promise<number> {
  if (services.keys.status.kind !== 'ok') return estimateTokens(text);
  return withTokenSignal(token, (signal) => counter.count(model.id, text, signal));
}

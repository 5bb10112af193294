/**
 * The gateway as a language model chat provider for VS Code's own chat and agent mode (vendor
 * `ai-gateway`). Models come from the shared cached catalog (services.catalog); requests go through
 * the shared client (services.getClient()) and the one tool wire module (src/core/gateway/toolWire.ts).
 *
 * Contract:
 *  - No active key: no models. With `silent` false the user is offered **Add API Key** (never when silent).
 *  - The model list changes (event) when the catalog, the active key or the base URL changes.
 *  - Text parts are reported as they arrive; tool calls when the reply completes (their arguments are
 *    only whole then). A reply with a tool call whose arguments are not a JSON object reports no call
 *    at all and fails: a tool is never run with made-up input.
 *  - Cancellation aborts the HTTP request at once (the gateway sees the connection close).
 *  - Errors are LanguageModelErrors carrying the gateway's explanation and the request id.
 *  - Every reply with usage is priced exactly and recorded in the spend ledger.
 */
import * as vscode from 'vscode';
import { affects, settings } from '../config';
import { asChatRequest, readToolChunk, ToolCallAssembler, ToolWireError, wireToolChoice, wireTools, type ToolChatRequest, type ToolSpec } from '../core/gateway/toolWire';
import type { Usage } from '../core/gateway/types';
import { isGatewayError } from '../core/http/errors';
import { Disposable, Emitter } from '../core/lifecycle';
import { lmModelInfos, type LmModelInfo } from '../core/lm/modelInfo';
import { LmMappingError, toWireMessages } from '../core/lm/messages';
import { estimateTokens, MESSAGE_OVERHEAD_TOKENS, TokenCounter, COUNT_TOKENS_PATH } from '../core/lm/tokenCount';
import type { Services } from '../services';
import { lmErrorParts, type LmErrorCode } from './lmErrorParts';
import { messageText, toLmMessages } from './parts';
import type { SpendRecorder } from './spend';
import { usageServices } from '../usage/usageServices';

export const VENDOR = 'ai-gateway';
const ADD_KEY_COMMAND = 'aiGateway.addApiKey';

type Info = vscode.LanguageModelChatInformation & LmModelInfo;

/** LanguageModelError's constructor (message, code) exists at runtime but is not in the typings. */
function lmError(message: string, code: LmErrorCode): Error {
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

export class GatewayChatProvider extends Disposable implements vscode.LanguageModelChatProvider<Info> {
  private readonly _onDidChange = this._register(new Emitter<void>());
  readonly onDidChangeLanguageModelChatInformation: vscode.Event<void> = (listener, thisArg, disposables) => {
    const d = this._onDidChange.event(thisArg ? listener.bind(thisArg) : listener);
    disposables?.push(d);
    return d;
  };
  private readonly counter: TokenCounter;

  constructor(
    private readonly services: Services,
    private readonly spend: SpendRecorder,
  ) {
    super();
    this.counter = new TokenCounter({
      post: async (body, signal) => (await (await services.getClient()).postJson<unknown>(COUNT_TOKENS_PATH, body, { signal })).data,
      isUnsupported: (e) => isGatewayError(e) && (e.reason === 'not_found' || e.reason === 'method_not_allowed'),
      log: (line) => services.log.info(line),
    });
    const changed = (): void => this._onDidChange.fire();
    this._register(services.catalog.onDidChange(changed));
    this._register(
      services.keys.onDidChange(() => {
        this.counter.reset();
        changed();
      }),
    );
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affects(e, settings.baseUrl)) {
          this.counter.reset();
          changed();
        }
      }),
    );
  }

  async provideLanguageModelChatInformation(options: vscode.PrepareLanguageModelChatModelOptions): Promise<Info[]> {
    if (this.services.keys.status.kind !== 'ok') {
      if (!options.silent) {
        void vscode.window.showInformationMessage('Add an AI Gateway API key to use the gateway models in chat.', 'Add API Key').then((choice) => {
          if (choice) void vscode.commands.executeCommand(ADD_KEY_COMMAND);
        });
      }
      return [];
    }
    // No cached catalog yet: the same once-per-session fetch the Models view makes (no prompt; a
    // failure is a non-blocking warning and leaves the list empty).
    if (this.services.catalog.models.length === 0) await this.services.catalog.ensureLoaded();
    return lmModelInfos(this.services.catalog.models, new Date()) as Info[];
  }

  async provideLanguageModelChatResponse(
    model: Info,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    if (token.isCancellationRequested) controller.abort();
    let requestId: string | undefined;
    try {
      const catalogModel = this.services.catalog.getModel(model.id);
      const caps = catalogModel?.capabilities ?? [];
      const tools: ToolSpec[] = (options.tools ?? []).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
      if (tools.length > 0 && !caps.includes('tools')) throw lmError(`The model ${model.id} does not support tool calling.`, 'Unknown');
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
      if (!(await usageServices(this.services).budget.allowSend(`A VS Code chat request to ${model.id}`))) {
        throw lmError('Not sent: the AI Gateway budget is used up (see the status bar; raise it in the settings, or choose "Send anyway").', 'Blocked');
      }
      const client = await this.services.getClient();
      const stream = await client.streamChatCompletion(asChatRequest(request), { signal: controller.signal });
      requestId = stream.requestId;
      const calls = new ToolCallAssembler();
      let usage: Usage | undefined;
      for await (const chunk of stream) {
        const view = readToolChunk(chunk);
        if (view.content) progress.report(new vscode.LanguageModelTextPart(view.content));
        calls.push(view.toolCalls);
        const u = (chunk as { usage?: Usage | null }).usage;
        if (u) usage = u;
      }
      if (usage) this.spend.record({ model: model.id, operation: 'vscode-chat', usage, pricing: catalogModel?.pricing, requestId });
      const finished = calls.finish();
      const bad = finished.find((c) => !c.ok);
      if (bad && !bad.ok) {
        throw lmError(`The model asked to call ${bad.name ? `the tool ${bad.name}` : 'a tool'}, but ${bad.error}; no tool was called.${requestId ? ` (request id ${requestId})` : ''}`, 'Unknown');
      }
      for (const c of finished) if (c.ok) progress.report(new vscode.LanguageModelToolCallPart(c.id, c.name, c.input));
    } catch (e) {
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      if (e instanceof Error && e.name === 'LanguageModelError') throw e;
      throw toLanguageModelError(e);
    } finally {
      sub.dispose();
    }
  }

  async provideTokenCount(model: Info, text: string | vscode.LanguageModelChatRequestMessage, token: vscode.CancellationToken): Promise<number> {
    if (typeof text !== 'string') {
      const body = messageText(text);
      return MESSAGE_OVERHEAD_TOKENS + (await this.countText(model, body, token));
    }
    return this.countText(model, text, token);
  }

  private async countText(model: Info, text: string, token: vscode.CancellationToken): Promise<number> {
    if (this.services.keys.status.kind !== 'ok') return estimateTokens(text);
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    try {
      return await this.counter.count(model.id, text, controller.signal);
    } finally {
      sub.dispose();
    }
  }
}

/**
 * The gateway as a language model chat provider for VS Code's own chat and agent mode (vendor
 * `ai-gateway`). Registered at activation with its model list; the request and token-count code
 * (src/lm/lmRequests.ts) is imported on the first request. Models come from the
 * shared cached catalog (services.catalog).
 *
 * Contract:
 *  - No active key: no models. With `silent` false the user is offered **Add API Key** (never when silent).
 *  - The model list changes (event) when the catalog, the active key or the base URL changes.
 *  - Requests: see lmRequests.ts (streamed text, whole tool calls, cancellation, LanguageModelErrors
 *    with the gateway's explanation and request id, spend recorded).
 */
import * as vscode from 'vscode';
import { affects, settings } from '../platform/config';
import { Disposable, Emitter } from '../core/disposables';
import { lmModelInfos, type LmModelInfo } from '../core/lm/modelInfo';
import type { TokenCounter } from '../core/lm/tokenCount';
import type { LmServices } from './registerLm';
import type { SpendService as SpendRecorder } from '../platform/spendService';

export const VENDOR = 'ai-gateway';
const ADD_KEY_COMMAND = 'aiGateway.addApiKey';

type Info = vscode.LanguageModelChatInformation & LmModelInfo;

export class GatewayChatProvider extends Disposable implements vscode.LanguageModelChatProvider<Info> {
  private readonly _onDidChange = this._register(new Emitter<void>());
  readonly onDidChangeLanguageModelChatInformation: vscode.Event<void> = (listener, thisArg, disposables) => {
    const d = this._onDidChange.event(thisArg ? listener.bind(thisArg) : listener);
    disposables?.push(d);
    return d;
  };
  /** Created with the first token count (its code is imported then); forgotten when the key or the address changes. */
  private counter: TokenCounter | undefined;

  constructor(
    private readonly services: LmServices,
    private readonly spend: SpendRecorder,
  ) {
    super();
    const changed = (): void => this._onDidChange.fire();
    this._register(services.catalog.onDidChange(changed));
    this._register(
      services.keys.onDidChange(() => {
        this.counter?.reset();
        changed();
      }),
    );
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affects(e, settings.baseUrl)) {
          this.counter?.reset();
          changed();
        }
      }),
    );
  }

  async provideLanguageModelChatInformation(options: vscode.PrepareLanguageModelChatModelOptions): Promise<Info[]> {
    if (this.services.keys.status.kind !== 'ok') {
      if (!options.silent) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Add an AI Gateway API key to use the gateway models in chat.'), vscode.l10n.t('Add API Key')).then((choice) => {
          if (choice) void vscode.commands.executeCommand(ADD_KEY_COMMAND);
        });
      }
      return [];
    }
    // No cached catalog yet: the same once-per-session fetch the Models view makes (no prompt; a
    // failure is a non-blocking warning and leaves the list empty).
    if (this.services.catalog.models.length === 0) await this.services.catalog.ensureLoaded();
    const infos = lmModelInfos(this.services.catalog.models, new Date()) as Info[];
    // The models reach VS Code's chat: if its built-in chat extension is off, the Chat view would
    // answer with a sign-in wall; say the one step that turns it on (src/lm/nativeChatSetup.ts).
    if (infos.length > 0) void import('./nativeChatSetup').then((m) => m.offerNativeChatTurnOn(this.services.context.globalState)).catch(() => undefined);
    return infos;
  }

  async provideLanguageModelChatResponse(
    model: Info,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    // A deprecated model is flagged once with its alternative (#43.4); never in the way of the request.
    void import('./deprecationFlag').then((m) => m.flagDeprecatedModel(this.services, VENDOR, model.id)).catch(() => undefined);
    return (await import('./lmRequests')).respond(this.services, this.spend, model, messages, options, progress, token);
  }

  async provideTokenCount(model: Info, text: string | vscode.LanguageModelChatRequestMessage, token: vscode.CancellationToken): Promise<number> {
    const requests = await import('./lmRequests');
    this.counter ??= requests.createTokenCounter(this.services);
    return requests.countTokens(this.services, this.counter, model, text, token);
  }
}

/**
 * Cost before sending for the content commands: on a large input (LARGE_PROMPT_CHARS, defined once in
 * src/core/spend/costEstimate.ts) a modal shows the prompt's cost before anything billed is sent: the
 * exact prompt tokens from POST /v1/messages/count_tokens (TokenCounter; the payload is an assumption
 * kept in src/core/lm/tokenCount.ts) times the model's input rate, plus the most the reply can cost
 * when the model publishes max_output_tokens. When the gateway cannot count (route missing, paused,
 * failing), the figure is the local estimate and the dialog says so. Small inputs go straight through.
 */
import * as vscode from 'vscode';
import { confirmRisky } from './safeDialog';
import { settings } from './config';
import { isGatewayError } from '../core/http/errors';
import { COUNT_TOKENS_PATH, TokenCounter } from '../core/lm/tokenCount';
import { formatCredits } from '../core/pricing';
import { formatCount } from '../core/words';
import { costBeforeSending, isLargePrompt } from '../core/spend/costEstimate';
import type { IGatewayClient } from '../core/gateway/api';
import type { IDisposable } from '../core/disposables';
import type { KeyStore } from '../core/keys/keyStore';
import type { CatalogService } from './catalogService';

/** What the cost before sending needs (src/services.ts composes it). */
export interface CostConfirmDeps {
  readonly log: vscode.LogOutputChannel;
  readonly keys: Pick<KeyStore, 'onDidChange'>;
  readonly catalog: Pick<CatalogService, 'getModel'>;
  getClient(): Promise<IGatewayClient>;
  own<T extends IDisposable>(d: T): T;
}


const counters = new WeakMap<object, TokenCounter>();

/** One counter per extension instance, forgotten when the key or the gateway address changes. */
export function counterFor(services: CostConfirmDeps): TokenCounter {
  let c = counters.get(services);
  if (!c) {
    const counter = new TokenCounter({
      post: async (body, signal) => (await (await services.getClient()).postJson<unknown>(COUNT_TOKENS_PATH, body, { signal })).data,
      isUnsupported: (e) => isGatewayError(e) && (e.reason === 'not_found' || e.reason === 'method_not_allowed'),
      log: (line) => services.log.info(line),
    });
    services.own(services.keys.onDidChange(() => counter.reset()));
    services.own(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(settings.baseUrl.key)) counter.reset();
      }),
    );
    counters.set(services, (c = counter));
  }
  return c;
}

/**
 * True: go ahead (small input, no usable rates, or the user chose Continue). False: the user
 * cancelled after seeing the cost.
 */
export async function confirmCostBeforeSending(services: CostConfirmDeps, input: { operation: string; modelId: string | undefined; text: string }): Promise<boolean> {
  if (!isLargePrompt(input.text) || !input.modelId) return true;
  const model = services.catalog.getModel(input.modelId);
  if (!model?.pricing) return true;
  const counted = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Counting prompt tokens…') }, () =>
    // This is one deliberate count per command run, so short texts are not held back.
    counterFor(services).countWithSource(model.id, input.text, undefined, 0),
  );
  const cost = costBeforeSending(counted.tokens, counted.source === 'gateway', model.pricing, model.max_output_tokens);
  if (!cost) return true;
  const tokens = formatCount(counted.tokens);
  const how = cost.counted
    ? vscode.l10n.t("The prompt's cost is exact: {0} tokens counted by the gateway.", tokens)
    : vscode.l10n.t("The prompt's cost is an estimate: about {0} tokens (the gateway could not count them).", tokens);
  const upTo =
    cost.maxOutputNano !== undefined
      ? vscode.l10n.t('With the longest reply {0} can give ({1} tokens), at most {2} in all.', model.id, formatCount(model.max_output_tokens ?? 0), formatCredits(cost.upToNano))
      : vscode.l10n.t('The reply is billed on top, at the output rate.');
  return confirmRisky({
    severity: 'info',
    message: cost.counted
      ? vscode.l10n.t('{0}: the prompt costs {1} on {2}.', input.operation, formatCredits(cost.inputNano), model.id)
      : vscode.l10n.t('{0}: the prompt costs {1} on {2} (estimate).', input.operation, formatCredits(cost.inputNano), model.id),
    detail: `${how} ${upTo}`,
    safe: vscode.l10n.t("Don't Send"),
    action: vscode.l10n.t('Send'),
  });
}

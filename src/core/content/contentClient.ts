/**
 * The three content operations: each calls its dedicated endpoint through the shared client and, when
 * the gateway does not have that route (isMissingEndpoint), repeats the work as a chat completion on the
 * user's default model for the capability, saying so in the log and in the outcome (`fallback`), which
 * the content commands show with the result. Any other failure, a 404 that means something else
 * included, is rethrown: no second billed request is made for it.
 *
 * Contract: every failure is a GatewayError (from the client, or reason 'protocol' for an answer that
 * cannot be read) or a ContentError (detected here before anything is sent). Nothing here touches a
 * document; callers apply results only after a success.
 */
import { chatRouteFor } from '../gateway/chatRoute';
import type { IGatewayClient, JsonResponse } from '../gateway/api';
import type { ChatCompletion, ChatCompletionRequest } from '../gateway/types';
import { GatewayError, isGatewayError } from '../http/errors';
import type { Logger } from '../log';
import * as l10n from '../l10n';
import { altTextFallbackRequest, parseAltTextAnswer, parseSummaryAnswer, parseTaxonomyAnswer, summaryFallbackMessages, taxonomyFallbackMessages } from './chatFallback';
import { ContentError } from './contentErrors';
import { assertFitsContextWindow } from './contextWindow';
import { checkInlineImage } from './localImage';
import {
  CONTENT_PATHS,
  fromAltTextResponse,
  fromSummarizeResponse,
  fromTaxonomyResponse,
  toAltTextRequest,
  toSummarizeRequest,
  toTaxonomyRequest,
  type AltTextInput,
  type AltTextResult,
  type SummaryInput,
  type SummaryResult,
  type TaxonomyInput,
  type TaxonomyResult,
} from './wire';

export type ContentCapability = 'alt_text' | 'summary' | 'taxonomy';

/** What the operation needs to know about a model: its id and, for the pre-check, its context window. */
export interface ContentModel {
  id: string;
  context_window?: number;
  /** The catalog's capabilities: the chat fallback goes by the model's route (chatRouteFor). */
  capabilities?: string[];
  max_output_tokens?: number;
}

export interface ContentDeps {
  client: IGatewayClient;
  log: Logger;
  /**
   * The user's default model for the capability (setting aiGateway.defaultModels.*, else the catalog's
   * first fit). Sent as `model` to the dedicated endpoint, and required for the chat fallback.
   */
  model: ContentModel | undefined;
  signal?: AbortSignal;
}

export interface ContentOutcome<T> {
  result: T;
  /** 'endpoint' when the dedicated route answered, 'chat' when the fallback did. */
  via: 'endpoint' | 'chat';
  requestId: string | undefined;
  /** With via 'chat': the words that label the result ("via chat completions: … route is missing"). */
  fallback?: string;
}

const CAPABILITY_LABEL: Record<ContentCapability, string> = { alt_text: 'alt text', summary: 'summary', taxonomy: 'taxonomy' };

/**
 * True only when the failure says the route itself is missing on this gateway, the one case the chat
 * fallback is for: a 405 (the path does not take POST here), a 404 whose body is not the gateway's error
 * envelope (a router or web server that does not know the path), or a 404 envelope whose message names
 * the route that was asked for (`no route for POST /v1/content/summarize`).
 *
 * Assumption (spec: "bodies of 404 ... responses on the gateway: not shown"): a 404 envelope that does
 * not name the path means something else (a model, a collection not found) and is shown as the error it
 * is; it never turns into a second, billed request on another route. Change the rule here only.
 */
export function isMissingEndpoint(e: unknown, path: string): e is GatewayError {
  if (!isGatewayError(e)) return false;
  if (e.reason === 'method_not_allowed') return true;
  if (e.reason !== 'not_found') return false;
  return !e.envelope || e.message.includes(path);
}

async function withFallback<T>(
  deps: ContentDeps,
  capability: ContentCapability,
  path: string,
  viaEndpoint: () => Promise<{ result: T; requestId: string | undefined }>,
  viaChat: (model: string) => Promise<{ result: T; requestId: string | undefined }>,
): Promise<ContentOutcome<T>> {
  try {
    const r = await viaEndpoint();
    return { ...r, via: 'endpoint' };
  } catch (e) {
    if (!isMissingEndpoint(e, path)) throw e;
    const model = deps.model?.id;
    if (!model) {
      throw new ContentError(
        'no_model',
        `This gateway does not offer ${path} (HTTP ${e.status ?? '404'}), and no default ${CAPABILITY_LABEL[capability]} model is set to fall back to. ` +
          `Set one with "Set as default" in the model catalog.`,
      );
    }
    deps.log.info(`${path} answered HTTP ${e.status ?? '?'} (${e.reason}); falling back to a chat completion on ${model} for ${CAPABILITY_LABEL[capability]}.`);
    const r = await viaChat(model);
    return {
      ...r,
      via: 'chat',
      fallback: l10n.t('Made through a chat request to {0} instead: this gateway has no route {1} (HTTP {2}).', model, `POST ${path}`, String(e.status ?? '404')),
    };
  }
}

function firstChoiceContent(res: JsonResponse<ChatCompletion>): string {
  const content = res.data?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') {
    throw new GatewayError({ reason: 'protocol', message: 'The chat completion carried no message content.', requestId: res.requestId });
  }
  return content;
}

export async function generateAltText(deps: ContentDeps, input: AltTextInput): Promise<ContentOutcome<AltTextResult>> {
  // Bytes go out only when they are an accepted image, on the endpoint and the chat fallback alike,
  // whoever built the input (local files are read by localImage.ts, which checks the same).
  const request: AltTextInput = { ...input, image: checkInlineImage(input.image), model: input.model ?? deps.model?.id };
  return withFallback(
    deps,
    'alt_text',
    CONTENT_PATHS.altText,
    async () => {
      const res = await deps.client.postJson<unknown>(CONTENT_PATHS.altText, toAltTextRequest(request), { signal: deps.signal });
      return { result: fromAltTextResponse(res.data, res.requestId), requestId: res.requestId };
    },
    async (model) => {
      const body = altTextFallbackRequest(request, model);
      // The model's route decides where it goes; on `messages` the client translates the same request
      // (image parts included). The vision parts ride in the request's own type (chatFallback.ts).
      const res = await deps.client.createChatCompletion(body as unknown as ChatCompletionRequest, { signal: deps.signal, route: chatRouteFor(deps.model) });
      return { result: { altText: parseAltTextAnswer(firstChoiceContent(res), res.requestId) }, requestId: res.requestId };
    },
  );
}

export async function summarize(deps: ContentDeps, input: SummaryInput): Promise<ContentOutcome<SummaryResult>> {
  assertNotEmpty(input.text, 'summarise');
  assertFitsContextWindow(input.text, deps.model);
  const request: SummaryInput = { ...input, model: input.model ?? deps.model?.id };
  return withFallback(
    deps,
    'summary',
    CONTENT_PATHS.summarize,
    async () => {
      const res = await deps.client.postJson<unknown>(CONTENT_PATHS.summarize, toSummarizeRequest(request), { signal: deps.signal });
      return { result: fromSummarizeResponse(res.data, res.requestId), requestId: res.requestId };
    },
    async (model) => {
      const res = await deps.client.createChatCompletion({ model, messages: summaryFallbackMessages(request) }, { signal: deps.signal, route: chatRouteFor(deps.model) });
      return { result: { summary: parseSummaryAnswer(firstChoiceContent(res), res.requestId) }, requestId: res.requestId };
    },
  );
}

export async function suggestTaxonomy(deps: ContentDeps, input: TaxonomyInput): Promise<ContentOutcome<TaxonomyResult>> {
  assertNotEmpty(input.text, 'classify');
  assertFitsContextWindow(input.text, deps.model);
  const request: TaxonomyInput = { ...input, model: input.model ?? deps.model?.id };
  return withFallback(
    deps,
    'taxonomy',
    CONTENT_PATHS.suggestTaxonomy,
    async () => {
      const res = await deps.client.postJson<unknown>(CONTENT_PATHS.suggestTaxonomy, toTaxonomyRequest(request), { signal: deps.signal });
      return { result: fromTaxonomyResponse(res.data, res.requestId), requestId: res.requestId };
    },
    async (model) => {
      const res = await deps.client.createChatCompletion({ model, messages: taxonomyFallbackMessages(request) }, { signal: deps.signal, route: chatRouteFor(deps.model) });
      return { result: parseTaxonomyAnswer(firstChoiceContent(res), res.requestId), requestId: res.requestId };
    },
  );
}

function assertNotEmpty(text: string, verb: string): void {
  if (!text.trim()) throw new ContentError('empty_input', `There is no text to ${verb}: the selection and the document are empty.`);
}

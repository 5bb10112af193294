/**
 * The content endpoints of the local gateway. The paths and scopes are the spec's ("Endpoints known by
 * scope" in ai-gateway-api.md); the bodies are assumptions (spec: not shown), written out here on the
 * gateway's side and never imported from the client (src/core/content/wire.ts has its own copy):
 *   POST /v1/images/alt-text           image, write   {model?, image_url, context?, language?} -> {alt_text}
 *   POST /v1/content/summarize         chat, write    {model?, text, language?}                -> {summary}
 *   POST /v1/content/suggest-taxonomy  chat, write    {model?, text, existing?}                -> {categories, tags}
 * Answers are deterministic so tests can assert them. The alt text deliberately contains quotes and
 * brackets, so end-to-end tests see escaping at work.
 *
 * Making an endpoint "missing" (to exercise the client's 404/405 chat fallback):
 *  - in process: `setContentEndpointMissing(gateway, 'summarize', 405)` (gateway = RunningGateway, or
 *    anything holding the same `options` object handlers read); `undefined` restores it. Answered
 *    before authentication, like a route the gateway does not have.
 *  - out of process: the marker `[[content:404]]` or `[[content:405]]` in `text` (or in `context` for
 *    alt text) makes that request answer so, after authentication.
 *  - a 404 that is NOT a missing route: `setContentEndpointMissing(gateway, 'summarize', 'model_404')` or
 *    the marker `[[content:404-model]]`: 404 envelope `model '…' not found` (the client must not fall back).
 *
 * Decisions (spec gaps): an unknown or removed model is 400 invalid_request_error (not 404, which the
 * client reads as "endpoint missing"); a model without the capability (alt_text, summary, taxonomy)
 * is 400; text longer than the model's context_window (ceil(chars/4) tokens) is 400.
 */
import type { Model } from './wire';
import { isRemoved } from './catalog';
import { GatewayHttpError, type GatewayContext, type GatewayOptions, type Handler, type Req, type Res, type RouteModule, type Scope } from './context';

/** From the spec's scope table: summarize and suggest-taxonomy are chat/write, alt-text is image/write. */
export const CONTENT_PATHS = {
  altText: '/v1/images/alt-text',
  summarize: '/v1/content/summarize',
  suggestTaxonomy: '/v1/content/suggest-taxonomy',
} as const;

/** Assumed answers (spec: not shown). */
export interface AltTextWireResponse {
  alt_text: string;
}
export interface SummarizeWireResponse {
  summary: string;
}
export interface TaxonomyWireResponse {
  categories: string[];
  tags: string[];
}

export type ContentEndpoint = keyof typeof CONTENT_PATHS;
/**
 * 404 and 405: the route is missing. `model_404`: the route is there but answers 404 in the error
 * envelope for something else (`model '…' not found`), a plausible shape of another gateway (the spec
 * does not show 404 bodies); a client must not take it for a missing route.
 */
export type MissingStatus = 404 | 405 | 'model_404';

const missing = new WeakMap<object, Map<ContentEndpoint, MissingStatus>>();

/** Makes `endpoint` answer 404 or 405 on that gateway until set back to undefined. */
export function setContentEndpointMissing(gateway: { options: Required<GatewayOptions> }, endpoint: ContentEndpoint, status: MissingStatus | undefined): void {
  const map = missing.get(gateway.options) ?? new Map<ContentEndpoint, MissingStatus>();
  if (status === undefined) map.delete(endpoint);
  else map.set(endpoint, status);
  missing.set(gateway.options, map);
}

function invalid(message: string): GatewayHttpError {
  return new GatewayHttpError(400, 'invalid_request_error', message);
}

function sendMissing(req: Req, res: Res, ctx: GatewayContext, status: MissingStatus, path: string, model?: unknown): void {
  req.resume();
  if (status === 405) ctx.sendError(res, 405, 'invalid_request_error', `method ${req.method ?? 'POST'} is not allowed on ${path}`, { Allow: 'GET' });
  else if (status === 'model_404') ctx.sendError(res, 404, 'not_found_error', `model '${model ?? ''}' not found`);
  else ctx.sendError(res, 404, 'not_found_error', `no route for ${req.method ?? 'POST'} ${path}`);
}

function markerStatus(text: string | undefined): MissingStatus | undefined {
  const m = text ? /\[\[content:(404-model|404|405)\]\]/.exec(text) : null;
  if (!m) return undefined;
  return m[1] === '404-model' ? 'model_404' : (Number(m[1]) as MissingStatus);
}

function record(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('request body must be a JSON object');
  return body as Record<string, unknown>;
}

function optionalString(b: Record<string, unknown>, field: string): string | undefined {
  const v = b[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw invalid(`'${field}' must be a string`);
  return v;
}

function requiredText(b: Record<string, unknown>): string {
  const text = b.text;
  if (typeof text !== 'string' || text.trim() === '') throw invalid("missing required field 'text' (a non-empty string)");
  return text;
}

/** The model named in the body (must exist, not be removed, and have `capability`), or the catalog's first fit. */
function pickModel(ctx: GatewayContext, id: string | undefined, capability: string): Model {
  const now = ctx.options.now();
  const models = ctx.models();
  if (id === undefined) {
    const first = models.find((m) => m.capabilities?.includes(capability) && !isRemoved(m, now));
    if (!first) throw invalid(`no model offers ${capability}`);
    return first;
  }
  const model = models.find((m) => m.id === id);
  if (!model) throw invalid(`unknown model '${id}'`);
  if (isRemoved(model, now)) throw invalid(`model '${id}' was removed on ${model.removal_date}`);
  if (!model.capabilities?.includes(capability)) throw invalid(`model '${id}' does not offer ${capability}`);
  return model;
}

function checkContextWindow(model: Model, text: string): void {
  const tokens = Math.ceil(Array.from(text).length / 4);
  if (model.context_window !== undefined && tokens > model.context_window) {
    throw invalid(`input of ${tokens} tokens exceeds the context window of ${model.context_window} tokens of '${model.id}'`);
  }
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}][\p{L}\p{N}'-]*/gu) ?? [];
}

const STOP = new Set(['about', 'after', 'again', 'their', 'there', 'these', 'those', 'which', 'while', 'would', 'could', 'should', 'where', 'other', 'being', 'because']);

/** Frequent longer words, most frequent first, ties in order of first appearance. */
function keywords(text: string): string[] {
  const counts = new Map<string, number>();
  for (const w of words(text)) if (w.length >= 5 && !STOP.has(w) && !w.includes('[')) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([w]) => w);
}

export function localAltText(imageUrl: string): string {
  if (imageUrl.startsWith('data:')) {
    const m = /^data:([^;,]+);base64,(.*)$/s.exec(imageUrl);
    const bytes = m ? Buffer.from(m[2], 'base64').length : 0;
    return `Local "test" image: inline ${m?.[1] ?? 'image'} [${bytes} bytes]`;
  }
  const name = decodeURIComponent(imageUrl.replace(/[?#].*$/, '').split('/').pop() || 'image');
  return `Local "test" image: ${name} [remote]`;
}

export function localSummary(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const first = /^.*?[.!?](?=\s|$)/.exec(flat)?.[0] ?? flat;
  const clipped = Array.from(first).length > 120 ? `${Array.from(first).slice(0, 120).join('')}…` : first;
  return `Summary: ${clipped} (${words(flat).length} words)`;
}

export function localTaxonomy(text: string): TaxonomyWireResponse {
  const keys = keywords(text);
  const cap = (w: string) => w[0].toUpperCase() + w.slice(1);
  return { categories: keys.slice(0, 2).map(cap), tags: keys.slice(0, 5) };
}

function handler(endpoint: ContentEndpoint, scope: Scope, work: (b: Record<string, unknown>, ctx: GatewayContext) => { body: unknown; marker: string | undefined }): Handler {
  const path = CONTENT_PATHS[endpoint];
  return async (req, res, ctx) => {
    const forced = missing.get(ctx.options)?.get(endpoint);
    // A missing route answers before authentication; a model_404 after it, once the body names the model.
    if (forced !== undefined && forced !== 'model_404') {
      sendMissing(req, res, ctx, forced, path);
      return;
    }
    if (ctx.authorize(req, res, scope, 'write') === undefined) return;
    const b = record(await ctx.readJson(req));
    if (forced === 'model_404') {
      sendMissing(req, res, ctx, forced, path, b.model);
      return;
    }
    const { body, marker } = work(b, ctx);
    const status = markerStatus(marker);
    if (status !== undefined) {
      sendMissing(req, res, ctx, status, path, b.model);
      return;
    }
    ctx.events.push({ type: 'content-request', endpoint, model: b.model, requestId: ctx.requestId(res) });
    ctx.sendJson(res, 200, body);
  };
}

export const contentModule: RouteModule = {
  name: 'content',
  register(route) {
    route(
      'POST',
      CONTENT_PATHS.altText,
      handler('altText', 'image', (b, ctx) => {
        const imageUrl = b.image_url;
        if (typeof imageUrl !== 'string' || !(/^https?:\/\//.test(imageUrl) || /^data:image\/[\w.+-]+;base64,/.test(imageUrl))) {
          throw invalid("missing required field 'image_url' (an http(s) URL or a data:image/...;base64 URL)");
        }
        const context = optionalString(b, 'context');
        optionalString(b, 'language');
        pickModel(ctx, optionalString(b, 'model'), 'alt_text');
        const body: AltTextWireResponse = { alt_text: localAltText(imageUrl) };
        return { body, marker: context };
      }),
    );
    route(
      'POST',
      CONTENT_PATHS.summarize,
      handler('summarize', 'chat', (b, ctx) => {
        const text = requiredText(b);
        optionalString(b, 'language');
        checkContextWindow(pickModel(ctx, optionalString(b, 'model'), 'summary'), text);
        const body: SummarizeWireResponse = { summary: localSummary(text) };
        return { body, marker: text };
      }),
    );
    route(
      'POST',
      CONTENT_PATHS.suggestTaxonomy,
      handler('suggestTaxonomy', 'chat', (b, ctx) => {
        const text = requiredText(b);
        checkContextWindow(pickModel(ctx, optionalString(b, 'model'), 'taxonomy'), text);
        return { body: localTaxonomy(text), marker: text };
      }),
    );
  },
};

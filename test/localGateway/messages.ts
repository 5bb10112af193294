/**
 * POST /v1/messages/count_tokens (chat, write; the spec lists the path and scope, not the payload).
 *
 * Assumption (as the client's src/core/lm/tokenCount.ts, Anthropic-style): the body is `{ model,
 * messages: [{ role, content }] }` with string content (or text content parts), the answer
 * `{ input_tokens }`. Deterministic: per message ceil(code points / 4) + 4, the same rule as the chat
 * route's usage, so a count can be checked by hand. Unknown model 404, removed model 400.
 * Events: `count-tokens` (requestId, model, messageCount).
 */
import { isRemoved } from './catalog';
import { GatewayHttpError, type GatewayContext, type Req, type Res, type RouteModule } from './context';

function invalid(message: string): GatewayHttpError {
  return new GatewayHttpError(400, 'invalid_request_error', message);
}

function tokens(text: string): number {
  return Math.max(1, Math.ceil(Array.from(text).length / 4));
}

async function handleCount(req: Req, res: Res, ctx: GatewayContext): Promise<void> {
  const key = ctx.authorize(req, res, 'chat', 'write');
  if (key === undefined) {
    req.resume();
    return;
  }
  const requestId = ctx.requestId(res);
  const body = (await ctx.readJson(req)) as { model?: unknown; messages?: unknown } | null;
  if (typeof body !== 'object' || body === null || typeof body.model !== 'string') throw invalid("missing required field 'model'");
  if (!Array.isArray(body.messages) || body.messages.length === 0) throw invalid("missing required field 'messages' (a non-empty array)");
  let total = 0;
  body.messages.forEach((m: unknown, i) => {
    const content = (m as { content?: unknown } | null)?.content;
    let text: string;
    if (typeof content === 'string') text = content;
    else if (Array.isArray(content)) text = content.map((p: unknown) => ((p as { type?: unknown; text?: unknown })?.type === 'text' ? String((p as { text?: unknown }).text ?? '') : '')).join('\n');
    else throw invalid(`messages[${i}].content must be a string or an array of content parts`);
    total += tokens(text) + 4;
  });
  const model = ctx.models().find((x) => x.id === body.model);
  if (!model) throw new GatewayHttpError(404, 'not_found_error', `model '${body.model}' not found`);
  if (isRemoved(model, ctx.options.now())) throw invalid(`model '${model.id}' was removed on ${model.removal_date ?? ''} and is no longer served`);
  ctx.events.push({ type: 'count-tokens', requestId, keyName: key.name, model: model.id, messageCount: body.messages.length });
  ctx.sendJson(res, 200, { input_tokens: total });
}

export const messagesModule: RouteModule = {
  name: 'messages',
  register(route) {
    route('POST', '/v1/messages/count_tokens', (req, res, ctx) => handleCount(req, res, ctx));
  },
};

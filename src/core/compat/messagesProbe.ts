/**
 * The messages route's stream (POST /v1/messages, `stream: true`): the one probe that can cost
 * credits. It is sent only on a zero-cost model (every token rate "0"), or after the user approved
 * one tiny request with its estimated cost shown (`approve`, whose question puts Cancel first and
 * focused: src/compat/compatCommand.ts). It is sent once and never repeated, whatever happens.
 */
import { createParser } from 'eventsource-parser';
import { modelLifecycle } from '../catalog/deprecation';
import { joinUrl } from '../gateway/joinUrl';
import { costOfMessagesUsage, MESSAGES_PATH, usageFromMessages, type MessagesUsage } from '../gateway/messagesWire';
import type { ModelPricing, Usage } from '../gateway/types';
import { isRecord } from '../guards';
import * as l10n from '../l10n';
import { costOfUsage, parseDecimal, PricingError } from '../pricing';
import type { EstimateReason } from '../spend/charge';
import type { AssumptionId } from './assumptions';
import { failedAnswer, notChecked } from './probes';
import { probeRequest, ProbeNoAnswer, type ProbeAnswer, type ProbeHttp } from './probeHttp';
import type { Finding } from './report';
import { messagesUsageOf, recogniseMessagesStream, type StreamEvent } from './shapeChecks';

/** What is asked: as little as a model will answer. */
export const PROBE_PROMPT = 'Reply with the word OK.';
export const PROBE_MAX_TOKENS = 16;
/** Tokens the estimate counts for the prompt: its characters / 4, plus the per-message overhead, rounded up generously. */
export const PROBE_INPUT_TOKENS_ESTIMATE = 32;
/** Largest stream read: a 16-token reply is a few KiB. */
const MAX_STREAM_BYTES = 256 * 1024;
const MAX_EVENTS = 2_000;

export interface MessagesCandidate {
  model: string;
  pricing: ModelPricing;
  /** The most the request can cost: the estimated prompt and every allowed output token, in nanocredits. */
  estimateNano: bigint;
  free: boolean;
}

/** What the user is asked to approve. */
export interface BilledOffer {
  model: string;
  estimateNano: bigint;
  maxTokens: number;
}

/** What the request cost, for the spend ledger (the gateway's usage, or the estimate when it reported none). */
export interface BilledRequest {
  model: string;
  pricing: ModelPricing;
  usage: Usage;
  /** Set when `usage` is the estimate (no usage came back), and why; the ledger marks it so. */
  estimated?: EstimateReason;
  requestId?: string;
}

const TOKEN_RATES = ['input_per_million', 'output_per_million', 'cache_read_per_million', 'cache_write_per_million', 'reasoning_per_million'] as const;

function isZero(rate: string): boolean {
  try {
    return parseDecimal(rate).digits === 0n;
  } catch {
    return false;
  }
}

/**
 * The model the probe uses: a messages model that is not removed, priced in credits with readable
 * token rates; a zero-cost one when there is one, else the one with the lowest estimate.
 */
export function messagesCandidate(models: readonly unknown[], nowMs: number): MessagesCandidate | undefined {
  let best: MessagesCandidate | undefined;
  for (const m of models) {
    if (!isRecord(m) || typeof m.id !== 'string' || !Array.isArray(m.capabilities) || !m.capabilities.includes('messages')) continue;
    if (modelLifecycle({ deprecation_date: m.deprecation_date as string | undefined, removal_date: m.removal_date as string | undefined }, nowMs).state === 'removed') continue;
    const p = m.pricing;
    if (!isRecord(p) || p.unit !== 'credits' || typeof p.input_per_million !== 'string' || typeof p.output_per_million !== 'string') continue;
    const pricing = p as unknown as ModelPricing;
    let estimateNano: bigint;
    try {
      estimateNano = costOfUsage({ prompt_tokens: PROBE_INPUT_TOKENS_ESTIMATE, completion_tokens: PROBE_MAX_TOKENS, total_tokens: PROBE_INPUT_TOKENS_ESTIMATE + PROBE_MAX_TOKENS }, pricing).totalNano;
    } catch (e) {
      if (e instanceof PricingError) continue;
      throw e;
    }
    const free = TOKEN_RATES.every((f) => pricing[f] === undefined || isZero(pricing[f]));
    const c: MessagesCandidate = { model: m.id, pricing, estimateNano, free };
    if (!best || (c.free && !best.free) || (c.free === best.free && c.estimateNano < best.estimateNano)) best = c;
  }
  return best;
}

/** Reads the event stream of a bounded body, linearly, at most MAX_EVENTS events. */
export function streamEventsOf(text: string): StreamEvent[] {
  const events: StreamEvent[] = [];
  const parser = createParser({
    onEvent: (e) => {
      if (events.length >= MAX_EVENTS) return;
      let data: unknown;
      try {
        data = JSON.parse(e.data);
      } catch {
        data = e.data;
      }
      events.push({ event: e.event ?? 'message', data });
    },
  });
  parser.feed(text);
  return events;
}

export interface MessagesProbeOptions {
  key: string | undefined;
  models: readonly unknown[];
  nowMs: number;
  /** Asked before a billed request; resolves true only on the user's explicit approval. */
  approve: (offer: BilledOffer) => Promise<boolean>;
}

/**
 * The stream probe. Returns the findings for the stream and its usage, and `billed` when a request
 * was sent on a priced model (for the spend ledger).
 */
export async function probeMessagesStream(http: ProbeHttp, gatewayUrl: string, options: MessagesProbeOptions): Promise<{ findings: Finding[]; billed?: BilledRequest }> {
  const ids: AssumptionId[] = ['messages.stream', 'messages.usage'];
  if (!options.key?.trim()) return { findings: ids.map((id) => notChecked(id, l10n.t('needs an API key (AI Gateway: Add API Key)'))) };
  const candidate = messagesCandidate(options.models, options.nowMs);
  if (!candidate) return { findings: ids.map((id) => notChecked(id, l10n.t('no model in the catalog lists the messages capability with readable credit rates'))) };
  if (!candidate.free) {
    const approved = await options.approve({ model: candidate.model, estimateNano: candidate.estimateNano, maxTokens: PROBE_MAX_TOKENS });
    if (!approved) return { findings: ids.map((id) => notChecked(id, l10n.t('the tiny billed request on {0} was not approved', candidate.model))) };
  }
  const body = { model: candidate.model, max_tokens: PROBE_MAX_TOKENS, stream: true, messages: [{ role: 'user', content: PROBE_PROMPT }] };
  const estimate: BilledRequest = {
    model: candidate.model,
    pricing: candidate.pricing,
    usage: { prompt_tokens: PROBE_INPUT_TOKENS_ESTIMATE, completion_tokens: PROBE_MAX_TOKENS, total_tokens: PROBE_INPUT_TOKENS_ESTIMATE + PROBE_MAX_TOKENS },
    estimated: 'failed',
  };
  let answer: ProbeAnswer;
  try {
    answer = await probeRequest(
      http,
      joinUrl(gatewayUrl, MESSAGES_PATH).toString(),
      { method: 'POST', headers: { Authorization: `Bearer ${options.key.trim()}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' }, body: JSON.stringify(body) },
      `${MESSAGES_PATH} (stream, ${candidate.model})`,
      { billed: !candidate.free, maxBytes: MAX_STREAM_BYTES },
    );
  } catch (e) {
    // Cancelled while it was on its way: it may have reached the gateway, so it is counted at the estimate.
    if (http.signal.aborted) return { findings: ids.map((id) => notChecked(id, l10n.t('cancelled'))), ...(candidate.free ? {} : { billed: { ...estimate, estimated: 'stopped' } }) };
    if (!(e instanceof ProbeNoAnswer)) throw e;
    // It may have reached the gateway: counted at the estimate, never sent again.
    return { findings: ids.map((id) => ({ id, verdict: 'no_answer', found: e.message })), ...(candidate.free ? {} : { billed: estimate }) };
  }
  if (answer.status !== 200) return { findings: ids.map((id) => failedAnswer(id, answer)) };
  const events = streamEventsOf(answer.text);
  const stream = recogniseMessagesStream(answer.contentType, events);
  const usage = messagesUsageOf(events);
  const rid = answer.requestId ? { requestId: answer.requestId } : {};
  let usageFound = usage.verdict.found;
  let billed: BilledRequest | undefined = candidate.free ? undefined : { ...estimate, ...rid };
  if (usage.usage) {
    const wire = usage.usage as MessagesUsage;
    try {
      const cost = costOfMessagesUsage(wire, candidate.pricing).totalNano;
      usageFound = l10n.t('{0}; {1} nanocredits at the catalog rates', usageFound, cost.toString());
      if (!candidate.free) billed = { model: candidate.model, pricing: candidate.pricing, usage: usageFromMessages(wire), ...rid };
    } catch (e) {
      if (!(e instanceof PricingError)) throw e;
    }
  }
  return {
    findings: [
      { id: 'messages.stream', verdict: stream.held ? 'held' : 'not_held', found: l10n.t('{0} (model {1})', stream.found, candidate.model), ...rid, ...(stream.held ? {} : { raw: answer.text }) },
      { id: 'messages.usage', verdict: usage.verdict.held ? 'held' : 'not_held', found: usageFound, ...rid, ...(usage.verdict.held ? {} : { raw: answer.text }) },
    ],
    ...(billed ? { billed } : {}),
  };
}

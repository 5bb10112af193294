/**
 * The chat-completion fallback used when a dedicated content endpoint is missing on the gateway
 * (contentClient.ts isMissingEndpoint decides; a 404 that means something else is not one): the prompts that ask a chat model for the same result, and the parsing
 * of its free-text answer back into the domain types. Pure functions; contentClient.ts does the calls.
 */
import type { ChatMessage } from '../gateway/types';
import { GatewayError } from '../http/errors';
import { cleanTerms, imageSourceToUrl, type AltTextInput, type SummaryInput, type TaxonomyInput, type TaxonomyResult } from './wire';

/**
 * Assumption (spec: not shown): chat messages accept OpenAI-style content parts
 * (`[{type:'text'}, {type:'image_url', image_url:{url}}]`) on models with the `vision` capability. The
 * spec types `content` as a string only, so this one request keeps its own type (cast where it is sent, through
 * the one route decision) instead of widening the shared ChatMessage.
 */
export type VisionContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
export interface VisionChatRequest {
  model: string;
  messages: Array<{ role: 'system'; content: string } | { role: 'user'; content: VisionContentPart[] }>;
}

const ALT_SYSTEM =
  'You write alt text for images on web pages. Describe what the image shows and why it matters on the page, ' +
  'in one plain sentence of at most 125 characters. Do not start with "Image of" or "Picture of". ' +
  'Answer with the alt text only: no quotes, no label, no markdown.';

const SUMMARY_SYSTEM =
  'You summarise text written for the web. Write a faithful, concise summary in the language of the text, ' +
  'as plain prose of at most three short paragraphs. Answer with the summary only: no heading, no preamble.';

const TAXONOMY_SYSTEM =
  'You suggest taxonomy terms for a blog post or web page: a few broad categories (1 to 3) and several ' +
  'specific tags (3 to 8), in the language of the text. Reuse the spelling of existing terms when they fit. ' +
  'Answer with JSON only, exactly in the form {"categories": ["..."], "tags": ["..."]}.';

export function altTextFallbackRequest(input: AltTextInput, model: string): VisionChatRequest {
  const hints: string[] = [];
  if (input.context) hints.push(`The image appears next to this text:\n${input.context}`);
  if (input.language) hints.push(`Write the alt text in the language with tag "${input.language}".`);
  const text = ['Write the alt text for this image.', ...hints].join('\n\n');
  return {
    model,
    messages: [
      { role: 'system', content: ALT_SYSTEM },
      { role: 'user', content: [{ type: 'text', text }, { type: 'image_url', image_url: { url: imageSourceToUrl(input.image) } }] },
    ],
  };
}

export function summaryFallbackMessages(input: SummaryInput): ChatMessage[] {
  const lang = input.language ? `\n\n(Document language tag: ${input.language}.)` : '';
  return [
    { role: 'system', content: SUMMARY_SYSTEM },
    { role: 'user', content: `Summarise the following text.${lang}\n\n<text>\n${input.text}\n</text>` },
  ];
}

export function taxonomyFallbackMessages(input: TaxonomyInput): ChatMessage[] {
  const existing: string[] = [];
  if (input.existingCategories?.length) existing.push(`Existing categories: ${input.existingCategories.join(', ')}`);
  if (input.existingTags?.length) existing.push(`Existing tags: ${input.existingTags.join(', ')}`);
  const prefix = existing.length ? `${existing.join('\n')}\n\n` : '';
  return [
    { role: 'system', content: TAXONOMY_SYSTEM },
    { role: 'user', content: `${prefix}Suggest categories and tags for the following text.\n\n<text>\n${input.text}\n</text>` },
  ];
}

/** Strips a surrounding code fence, which chat models add despite being asked not to. */
function stripFence(text: string): string {
  const m = /^\s*```[\w-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```\s*$/.exec(text);
  return m ? m[1] : text;
}

function emptyAnswer(what: string, requestId?: string): GatewayError {
  return new GatewayError({ reason: 'protocol', message: `The chat model returned no ${what}.`, requestId });
}

export function parseAltTextAnswer(content: string, requestId?: string): string {
  let text = stripFence(content).trim();
  text = text.replace(/^(?:\*\*)?alt(?:[ -]?text)?(?:\*\*)?\s*:\s*(?:\*\*)?\s*/i, '');
  text = text.replace(/\s+/g, ' ').trim();
  // Strip one pair of wrapping quotes, straight or typographic.
  const quoted = /^(["'“‘«])(.*)(["'”’»])$/.exec(text);
  if (quoted) text = quoted[2].trim();
  if (!text) throw emptyAnswer('alt text', requestId);
  return text;
}

export function parseSummaryAnswer(content: string, requestId?: string): string {
  let text = stripFence(content).trim();
  text = text.replace(/^(?:#+\s*)?(?:\*\*)?summary(?:\*\*)?\s*:?(?:\*\*)?[ \t]*(?:\r?\n)?/i, '').trim();
  if (!text) throw emptyAnswer('summary', requestId);
  return text;
}

/**
 * Reads the JSON the taxonomy prompt asks for; when the model answered in prose instead, reads
 * "Categories: a, b" / "Tags: c, d" lines. Throws GatewayError(protocol) when neither gives a term.
 */
export function parseTaxonomyAnswer(content: string, requestId?: string): TaxonomyResult {
  const text = stripFence(content).trim();
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start >= 0 && end > start) {
    try {
      const parsed: unknown = JSON.parse(text.slice(start, end + 1));
      if (typeof parsed === 'object' && parsed !== null) {
        const rec = parsed as Record<string, unknown>;
        const result = { categories: cleanTerms(stringsOf(rec.categories)), tags: cleanTerms(stringsOf(rec.tags)) };
        if (result.categories.length + result.tags.length > 0) return result;
      }
    } catch {
      // Not JSON after all: try the line form below.
    }
  }
  const categories: string[] = [];
  const tags: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:[-*]\s*)?(?:\*\*)?(categories|category|tags|tag)(?:\*\*)?\s*:\s*(.*)$/i.exec(line);
    if (!m) continue;
    const terms = m[2].split(/[,;]/).map((t) => t.replace(/^["'\s#]+|["'\s]+$/g, ''));
    (m[1].toLowerCase().startsWith('cat') ? categories : tags).push(...terms);
  }
  const result = { categories: cleanTerms(categories), tags: cleanTerms(tags) };
  if (result.categories.length + result.tags.length === 0) throw emptyAnswer('categories or tags', requestId);
  return result;
}

function stringsOf(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

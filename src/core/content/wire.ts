/**
 * Request and response mappers for the three content endpoints. The spec lists the routes and their
 * scopes but not their payloads, so every field name below is an assumption. They are kept in this one
 * file, as plain data-in/data-out functions, so a correction to the real wire shape is a local edit:
 * the rest of the feature only sees the domain types (AltTextInput, SummaryResult, ...).
 *
 * The local gateway (test/localGateway/content.ts) implements the same shapes by importing these types.
 */
import { GatewayError } from '../http/errors';
import { isRecord } from '../guards';

export const CONTENT_PATHS = {
  altText: '/v1/images/alt-text',
  summarize: '/v1/content/summarize',
  suggestTaxonomy: '/v1/content/suggest-taxonomy',
} as const;

// ---------------------------------------------------------------------------------------------------
// Domain types (what the feature works with)

/** An image is sent either by URL (remote) or inline as base64 bytes (local file or data: URI). */
export type ImageSource = { kind: 'url'; url: string } | { kind: 'bytes'; mediaType: string; base64: string };

export interface AltTextInput {
  image: ImageSource;
  /** Catalog model id; omitted to let the gateway choose. */
  model?: string;
  /** Nearby prose (heading, paragraph), so the description fits the page. Optional. */
  context?: string;
  /** BCP 47 tag of the document's language, e.g. "en". Optional. */
  language?: string;
}

export interface SummaryInput {
  text: string;
  model?: string;
  language?: string;
}

export interface TaxonomyInput {
  text: string;
  model?: string;
  /** Terms already on the document, so the suggestions can reuse their spelling. */
  existingCategories?: string[];
  existingTags?: string[];
}

export interface AltTextResult {
  altText: string;
}
export interface SummaryResult {
  summary: string;
}
export interface TaxonomyResult {
  categories: string[];
  tags: string[];
}

// ---------------------------------------------------------------------------------------------------
// Wire types

/**
 * Assumption (spec: not shown): POST /v1/images/alt-text takes
 * `{ model?, image_url, context?, language? }` where `image_url` is an http(s) URL or a
 * `data:<media type>;base64,<bytes>` URL (the OpenAI convention for inline images), and answers
 * `{ alt_text: string }`.
 */
export interface AltTextWireRequest {
  model?: string;
  image_url: string;
  context?: string;
  language?: string;
}
export interface AltTextWireResponse {
  alt_text: string;
}

/**
 * Assumption (spec: not shown): POST /v1/content/summarize takes `{ model?, text, language? }` and
 * answers `{ summary: string }`.
 */
export interface SummarizeWireRequest {
  model?: string;
  text: string;
  language?: string;
}
export interface SummarizeWireResponse {
  summary: string;
}

/**
 * Assumption (spec: not shown): POST /v1/content/suggest-taxonomy takes
 * `{ model?, text, existing?: { categories, tags } }` and answers
 * `{ categories: string[], tags: string[] }`.
 */
export interface TaxonomyWireRequest {
  model?: string;
  text: string;
  existing?: { categories: string[]; tags: string[] };
}
export interface TaxonomyWireResponse {
  categories: string[];
  tags: string[];
}

// ---------------------------------------------------------------------------------------------------
// Mappers

export function imageSourceToUrl(image: ImageSource): string {
  return image.kind === 'url' ? image.url : `data:${image.mediaType};base64,${image.base64}`;
}

export function toAltTextRequest(input: AltTextInput): AltTextWireRequest {
  const body: AltTextWireRequest = { image_url: imageSourceToUrl(input.image) };
  if (input.model) body.model = input.model;
  if (input.context) body.context = input.context;
  if (input.language) body.language = input.language;
  return body;
}

export function toSummarizeRequest(input: SummaryInput): SummarizeWireRequest {
  const body: SummarizeWireRequest = { text: input.text };
  if (input.model) body.model = input.model;
  if (input.language) body.language = input.language;
  return body;
}

export function toTaxonomyRequest(input: TaxonomyInput): TaxonomyWireRequest {
  const body: TaxonomyWireRequest = { text: input.text };
  if (input.model) body.model = input.model;
  const categories = input.existingCategories ?? [];
  const tags = input.existingTags ?? [];
  if (categories.length > 0 || tags.length > 0) body.existing = { categories, tags };
  return body;
}

/** Throws GatewayError(protocol) when the body is not the assumed shape or carries no text. */
export function fromAltTextResponse(body: unknown, requestId?: string): AltTextResult {
  const altText = stringField(body, 'alt_text', CONTENT_PATHS.altText, requestId).trim();
  if (!altText) throw protocolError(CONTENT_PATHS.altText, 'an empty alt_text', requestId);
  return { altText };
}

export function fromSummarizeResponse(body: unknown, requestId?: string): SummaryResult {
  const summary = stringField(body, 'summary', CONTENT_PATHS.summarize, requestId).trim();
  if (!summary) throw protocolError(CONTENT_PATHS.summarize, 'an empty summary', requestId);
  return { summary };
}

export function fromTaxonomyResponse(body: unknown, requestId?: string): TaxonomyResult {
  const path = CONTENT_PATHS.suggestTaxonomy;
  if (!isRecord(body)) throw protocolError(path, 'a body that is not an object', requestId);
  return {
    categories: cleanTerms(termList(body.categories, 'categories', path, requestId)),
    tags: cleanTerms(termList(body.tags, 'tags', path, requestId)),
  };
}

/** Trims, drops empties and case-insensitive duplicates, keeping the first spelling. */
export function cleanTerms(terms: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of terms) {
    const term = raw.replace(/\s+/g, ' ').trim();
    const key = term.toLowerCase();
    if (!term || seen.has(key)) continue;
    seen.add(key);
    out.push(term);
  }
  return out;
}

function termList(value: unknown, field: string, path: string, requestId?: string): string[] {
  // A missing list is read as "no suggestions of that kind", not as an error.
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
    throw protocolError(path, `a ${field} field that is not a list of strings`, requestId);
  }
  return value;
}

function stringField(body: unknown, field: string, path: string, requestId?: string): string {
  if (!isRecord(body) || typeof body[field] !== 'string') {
    throw protocolError(path, `no string ${field} field`, requestId);
  }
  return body[field];
}


function protocolError(path: string, what: string, requestId?: string): GatewayError {
  return new GatewayError({ reason: 'protocol', message: `${path} answered with ${what}.`, requestId });
}

/**
 * GET /v1/sites/{site_identifier} on the AI gateway (#39.14): read-only, through the shared gateway
 * client with the key's `collections` scope at read (the spec's "Endpoints known by scope" table).
 * Nothing here writes: the same path's create, update and delete are never called.
 *
 * Its payload is not shown in the spec, so what is assumed lives in SITE_DETAILS_ASSUMED only, and an
 * answer of any other shape is shown as it came (raw JSON), never with fields made up for it.
 * vscode-free.
 */
import type { CallOptions, IGatewayClient } from '../gateway/api';
import { GatewayError } from '../http/errors';
import * as l10n from '../l10n';

/**
 * Assumption (spec: "payloads and exact per-route methods and paths of the endpoints in this table
 * ... not shown"): `GET /v1/sites/{site_identifier}` with the identifier `list_account_sites` reports
 * as `site_id`, answering one JSON object with the fields that tool reports per site: `site_id` (the
 * same identifier), `name` and `url` (strings) and, optionally, `cms_connection_status` (string).
 * Change it here when the real payload is known; any other answer is shown raw.
 */
export const SITE_DETAILS_ASSUMED = {
  path: (siteId: string): string => `/v1/sites/${encodeURIComponent(siteId)}`,
  required: ['site_id', 'name', 'url'] as const,
  optional: ['cms_connection_status'] as const,
} as const;

export interface KnownSite {
  site_id: string;
  name: string;
  url: string;
  cms_connection_status?: string;
}

export type SiteDetailsShape =
  | { kind: 'recognised'; site: KnownSite; otherFields: string[] }
  | { kind: 'unrecognised'; problem: string };

export interface SiteDetails {
  shape: SiteDetailsShape;
  /** The answer as JSON text (pretty-printed, cut at MAX_RAW_CHARS): what is shown for an unknown shape. */
  raw: string;
  requestId?: string;
}

export const MAX_RAW_CHARS = 64 * 1024;
const MAX_SITE_ID_CHARS = 200;

/** Recognises (or refuses) a parsed site details answer for `siteId` (exported for the compatibility check). */
export function recogniseSiteDetails(body: unknown, siteId: string): SiteDetailsShape {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { kind: 'unrecognised', problem: l10n.t('the answer is not a JSON object') };
  const o = body as Record<string, unknown>;
  const missing = SITE_DETAILS_ASSUMED.required.filter((k) => typeof o[k] !== 'string');
  if (missing.length) {
    const fields = Object.keys(o).slice(0, 8).map((k) => JSON.stringify(k.slice(0, 40))).join(', ') || l10n.t('none');
    return { kind: 'unrecognised', problem: l10n.t('the answer has no string {0} (its fields: {1})', missing.map((k) => `"${k}"`).join(', '), fields) };
  }
  if (o.site_id !== siteId) return { kind: 'unrecognised', problem: l10n.t('the answer is about another site_id') };
  const status = o.cms_connection_status;
  if (status !== undefined && typeof status !== 'string') return { kind: 'unrecognised', problem: l10n.t('"cms_connection_status" is not a string') };
  const known = new Set<string>([...SITE_DETAILS_ASSUMED.required, ...SITE_DETAILS_ASSUMED.optional]);
  return {
    kind: 'recognised',
    site: { site_id: o.site_id, name: o.name as string, url: o.url as string, ...(typeof status === 'string' ? { cms_connection_status: status } : {}) },
    otherFields: Object.keys(o).filter((k) => !known.has(k)),
  };
}

/** Refuses an identifier that cannot be one (empty, too long, control characters) before anything is sent. */
export function checkSiteId(siteId: string): string | undefined {
  if (siteId === '' || siteId.length > MAX_SITE_ID_CHARS || siteId.trim() !== siteId) return l10n.t('A site identifier is 1 to {0} characters without surrounding spaces.', MAX_SITE_ID_CHARS);
  for (let i = 0; i < siteId.length; i++) {
    const c = siteId.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return l10n.t('A site identifier has no control characters.');
  }
  return undefined;
}

/** One GET; a refused or failed request throws the shared client's GatewayError (403 names the scope). */
export async function fetchSiteDetails(client: IGatewayClient, siteId: string, options?: CallOptions): Promise<SiteDetails> {
  const bad = checkSiteId(siteId);
  if (bad) throw new GatewayError({ reason: 'invalid_request', message: bad });
  const res = await client.getJson<unknown>(SITE_DETAILS_ASSUMED.path(siteId), options);
  let raw = JSON.stringify(res.data, null, 2) ?? String(res.data);
  if (raw.length > MAX_RAW_CHARS) raw = `${raw.slice(0, MAX_RAW_CHARS)}\n… (${raw.length - MAX_RAW_CHARS} more characters not shown)`;
  return { shape: recogniseSiteDetails(res.data, siteId), raw, requestId: res.requestId };
}

/** Markdown for a details document: the assumed fields when recognised, and always the answer as sent. */
export function siteDetailsMarkdown(siteId: string, d: SiteDetails): string {
  const esc = (s: string): string => s.replace(/[\\`*_[\]<>|#\r\n]/g, (c) => (c === '\r' || c === '\n' ? ' ' : `\\${c}`));
  const fence = '`'.repeat(Math.max(3, ...[...d.raw.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  const lines = [`# ${l10n.t('Site {0}', esc(siteId))}`, ''];
  if (d.shape.kind === 'recognised') {
    const s = d.shape.site;
    lines.push(`- ${l10n.t('Name: {0}', esc(s.name))}`, `- ${l10n.t('Address: {0}', esc(s.url))}`);
    if (s.cms_connection_status !== undefined) lines.push(`- ${l10n.t('WordPress connection: {0}', esc(s.cms_connection_status))}`);
    if (d.shape.otherFields.length) lines.push(`- ${l10n.t('Other fields (as sent below): {0}', d.shape.otherFields.slice(0, 20).map(esc).join(', '))}`);
  } else {
    lines.push(`> ${l10n.t('The gateway answered in a shape this extension does not recognise ({0}). It is shown as sent; no field is read from it.', esc(d.shape.problem))}`);
  }
  lines.push('', `## ${l10n.t('Answer as sent')}`, '', `${fence}json`, d.raw, fence, '');
  if (d.requestId) lines.push(l10n.t('Request id: {0}', esc(d.requestId)), '');
  return lines.join('\n');
}

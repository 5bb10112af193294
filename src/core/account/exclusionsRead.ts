/**
 * Recognising the answer of GET /v1/installs/{install_id}/cache_exclusions (and of the PUT, whose
 * response is documented as `results`) before it can become an editable list (#39.6).
 *
 * A read that is misunderstood is dangerous: the editable document is the full replacement set that a
 * save PUTs (H-CE-1), so an answer read as "no exclusions" (another envelope) or as "these few" (one
 * page of several) would delete every entry the client did not see. So anything this file does not
 * recognise exactly is refused, with the reason and the raw answer, and no list is made from it.
 * vscode-free; exported for the compatibility check.
 */
import * as l10n from '../l10n';
import { EXCLUSION_TYPES, HostingError, type CacheExclusion } from './hosting';

/**
 * Assumption (spec: "the envelope of the read endpoint beyond entries of type and value: not shown"):
 * the read answers like the PUT does (its Response row: `results`, an array of objects with `type` and
 * `value`): one JSON object whose ONLY field is `results`, each entry having exactly `type` (one of
 * the documented types) and `value` (a string), the whole list on one page (no paging field, no
 * `Link: rel="next"` header). Change it here when the real envelope is known; every other answer is
 * refused (shown raw, never editable, so no PUT can be sent from it).
 */
export const EXCLUSIONS_READ_ENVELOPE = { listField: 'results' } as const;

/** Field names that mean "there is more than this page" (or a count that might say so). */
const PAGING_FIELD = /next|cursor|page|more|offset|limit|total|count|links|continuation/i;

export type ExclusionsReadShape =
  | { kind: 'recognised'; exclusions: CacheExclusion[] }
  | {
      kind: 'unrecognised';
      /** A sentence saying what was not recognised (field names only, never values). */
      problem: string;
      /** True when the answer looks like one page of several. */
      paged: boolean;
    };

/**
 * Recognises (or refuses) an exclusions read or PUT answer: `body` is the parsed JSON, `linkHeader`
 * the response's Link header when there was one. Exported for the compatibility check.
 */
export function recogniseExclusionsRead(body: unknown, linkHeader?: string | null): ExclusionsReadShape {
  const refuse = (problem: string, paged = false): ExclusionsReadShape => ({ kind: 'unrecognised', problem, paged });
  if (linkHeader && /rel\s*=\s*"?next\b/i.test(linkHeader)) return refuse(l10n.t('the answer is paged (a Link header with rel="next"); this extension reads one page only'), true);
  if (Array.isArray(body)) return refuse(l10n.t('the answer is a bare array, not an object with "{0}"', EXCLUSIONS_READ_ENVELOPE.listField));
  if (typeof body !== 'object' || body === null) return refuse(l10n.t('the answer is not a JSON object'));
  const fields = Object.keys(body);
  const list = (body as Record<string, unknown>)[EXCLUSIONS_READ_ENVELOPE.listField];
  const paging = fields.filter((k) => k !== EXCLUSIONS_READ_ENVELOPE.listField && PAGING_FIELD.test(k));
  if (paging.length) return refuse(l10n.t('the answer looks paged (field {0}); this extension reads one page only', names(paging)), true);
  if (!Array.isArray(list)) {
    return refuse(
      fields.length
        ? l10n.t('the answer has no "{0}" array (its fields: {1})', EXCLUSIONS_READ_ENVELOPE.listField, names(fields))
        : l10n.t('the answer has no "{0}" array (it is an empty object)', EXCLUSIONS_READ_ENVELOPE.listField),
    );
  }
  const others = fields.filter((k) => k !== EXCLUSIONS_READ_ENVELOPE.listField);
  if (others.length) return refuse(l10n.t('the answer has fields this extension does not know: {0}', names(others)));
  const out: CacheExclusion[] = [];
  for (const [i, item] of list.entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return refuse(l10n.t('entry {0} is not an object', i + 1));
    const r = item as Record<string, unknown>;
    const extra = Object.keys(r).filter((k) => k !== 'type' && k !== 'value');
    if (extra.length) return refuse(l10n.t('entry {0} has fields this extension does not know: {1}', i + 1, names(extra)));
    if (typeof r.type !== 'string' || !(EXCLUSION_TYPES as readonly string[]).includes(r.type)) return refuse(l10n.t('entry {0} has a type that is not one of the documented types', i + 1));
    if (typeof r.value !== 'string') return refuse(l10n.t('entry {0} has no string "value"', i + 1));
    out.push({ type: r.type as CacheExclusion['type'], value: r.value });
  }
  return { kind: 'recognised', exclusions: out };
}

function names(keys: readonly string[]): string {
  const shown = keys.slice(0, 5).map((k) => JSON.stringify(k.slice(0, 40)));
  return keys.length > 5 ? `${shown.join(', ')}, …` : shown.join(', ');
}

/** The most of a raw answer kept for "Show Raw Answer". */
export const MAX_RAW_CHARS = 256 * 1024;

/**
 * The raw answer as the user may see it: each secret replaced by `[redacted]` (the credentials the
 * request carried, should a server echo them), cut at MAX_RAW_CHARS.
 */
export function redactRaw(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[redacted]');
  return out.length > MAX_RAW_CHARS ? `${out.slice(0, MAX_RAW_CHARS)}\n… (${out.length - MAX_RAW_CHARS} more characters not shown)` : out;
}

const UNRECOGNISED = 'ExclusionsReadUnrecognisedError';

/**
 * A cache exclusions answer this extension does not recognise: nothing was made of it. `raw` is the
 * answer with secrets removed, for "Show Raw Answer". For a read, nothing was changed; for a PUT (the
 * write was applied), the list must be read again before anything else is saved.
 */
export class ExclusionsReadUnrecognisedError extends HostingError {
  constructor(
    readonly problem: string,
    readonly raw: string,
    readonly paged: boolean,
    readonly afterWrite: boolean,
    status?: number,
  ) {
    super(
      'protocol',
      afterWrite
        ? l10n.t('The hosting API applied the save, but answered in a shape this extension does not recognise ({0}). Reopen the cache exclusions to see the list on the server.', problem)
        : l10n.t('The hosting API answered the cache exclusions read in a shape this extension does not recognise ({0}). Nothing was opened for editing, so no save can replace the list on the server.', problem),
      status,
      undefined,
      [],
      { mayHaveReachedServer: true },
    );
    this.name = UNRECOGNISED;
  }
}

/** True for an ExclusionsReadUnrecognisedError of this bundle or another copy (checked by shape). */
export function isExclusionsReadUnrecognised(e: unknown): e is ExclusionsReadUnrecognisedError {
  return e instanceof ExclusionsReadUnrecognisedError || (e instanceof Error && e.name === UNRECOGNISED && typeof (e as { raw?: unknown }).raw === 'string' && typeof (e as { problem?: unknown }).problem === 'string');
}

/** The writable entries of `before` that are absent from `after` (what a full replacement removes). */
export function removedExclusions(before: readonly CacheExclusion[], after: readonly CacheExclusion[]): CacheExclusion[] {
  const key = (e: CacheExclusion): string => `${e.type}\u0000${e.value}`;
  const kept = new Set(after.map(key));
  const seen = new Set<string>();
  return before.filter((e) => e.type !== 'cookie' && !kept.has(key(e)) && !seen.has(key(e)) && Boolean(seen.add(key(e))));
}

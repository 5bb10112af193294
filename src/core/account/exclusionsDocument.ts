/**
 * The editable cache-exclusions document (vscode-free): the list read with GET is serialised as
 * JSON with comments (JSONC), the user edits it, and on save it is parsed back into the full
 * replacement set for PUT (H-CE-1). Parsing errors name the line; nothing is sent when parsing fails.
 */
import { EXCLUSION_TYPES, HostingValidationError, prepareExclusions, type CacheExclusion } from './hosting';
import { isRecord } from '../guards';

export class ExclusionsDocumentError extends Error {
  constructor(
    message: string,
    /** Where in the document the problem is (0-based offsets), when it is one entry or one spot. */
    readonly range?: TextRange,
  ) {
    super(message);
    this.name = 'ExclusionsDocumentError';
  }
}

/** Offsets into the document text: start inclusive, end exclusive. */
export interface TextRange {
  start: number;
  end: number;
}

/**
 * The ranges of the entries of the exclusions array in `text` (comments already blanked by
 * stripJsonComments: offsets are the same), and inside each the range of its "type" and "value"
 * strings when present. The array is the top-level one, or the one under the top-level object's
 * "exclusions" / "results" key. One linear pass; nothing here throws on malformed text (what cannot
 * be located is left out).
 */
export interface EntryRanges {
  entry: TextRange;
  type?: TextRange;
  value?: TextRange;
}

export function locateEntries(json: string): EntryRanges[] {
  const out: EntryRanges[] = [];
  let depth = 0;
  let arrayDepth = -1;
  let topIsObject = false;
  let lastKey: string | undefined;
  let pendingKeyAtDepth1: string | undefined;
  let current: EntryRanges | undefined;
  let memberKey: string | undefined;
  let expectKey = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === '"' && current === undefined && arrayDepth >= 0 && depth === arrayDepth + 1) {
      current = { entry: { start: i, end: i + 1 } };
      out.push(current);
    }
    if (c === '"') {
      const start = i;
      for (i++; i < json.length && json[i] !== '"'; i++) if (json[i] === '\\') i++;
      const range = { start, end: Math.min(i + 1, json.length) };
      const literal = json.slice(start + 1, i);
      if (current && depth === arrayDepth + 1) current.entry.end = range.end;
      if (current && depth === arrayDepth + 2) {
        // Inside an entry object: a key, or the value of the last key.
        if (expectKey) memberKey = literal;
        else if (memberKey === 'type' || memberKey === 'value') current[memberKey] = range;
      } else if (depth === 1 && topIsObject && arrayDepth < 0) {
        lastKey = literal;
      }
      continue;
    }
    if (/\s/.test(c)) continue;
    if (current === undefined && arrayDepth >= 0 && depth === arrayDepth + 1 && c !== ']' && c !== ',') {
      current = { entry: { start: i, end: i + 1 } };
      out.push(current);
    }
    switch (c) {
      case '{':
        if (depth === 0) topIsObject = true;
        depth++;
        if (current && depth === arrayDepth + 2) expectKey = true;
        break;
      case '[':
        if (arrayDepth < 0 && (depth === 0 || (depth === 1 && topIsObject && (pendingKeyAtDepth1 === 'exclusions' || pendingKeyAtDepth1 === 'results')))) arrayDepth = depth;
        depth++;
        break;
      case '}':
      case ']':
        if (c === ']' && depth === arrayDepth + 1) {
          depth--;
          return out;
        }
        depth--;
        if (current && depth === arrayDepth + 1) current.entry.end = i + 1;
        break;
      case ':':
        if (current && depth === arrayDepth + 2) expectKey = false;
        if (depth === 1 && topIsObject && arrayDepth < 0) pendingKeyAtDepth1 = lastKey;
        break;
      case ',':
        if (current && depth === arrayDepth + 2) expectKey = true;
        else if (current && depth === arrayDepth + 1) current = undefined;
        else if (depth === 1 && topIsObject) pendingKeyAtDepth1 = undefined;
        break;
      default:
        if (current && depth === arrayDepth + 1) current.entry.end = i + 1;
    }
  }
  return out;
}

/** The range to mark for a problem with entry `index` (its field when located, else the whole entry). */
export function problemRange(text: string, index: number, field?: string): TextRange | undefined {
  let json: string;
  try {
    json = stripJsonComments(text);
  } catch {
    return undefined;
  }
  const entry = locateEntries(json)[index];
  if (!entry) return undefined;
  return (field === 'type' ? entry.type : field === 'value' ? entry.value : undefined) ?? entry.entry;
}

/**
 * Maps a server error's `errors[].field` (e.g. `exclusions[2].value`, H-ERR-1) on the list that was
 * sent back to the entry of the document: the sent list had duplicates collapsed (H-CE-2), so the
 * index is looked up by content.
 */
export function documentIndexOfSent(text: string, sent: readonly CacheExclusion[], field: string | undefined): { index: number; field?: string } | undefined {
  const m = /^exclusions\[(\d+)\](?:\.(type|value))?$/.exec(field ?? '');
  if (!m) return undefined;
  const target = sent[Number(m[1])];
  if (!target) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(stripJsonComments(text));
  } catch {
    return undefined;
  }
  if (isRecord(raw)) raw = Array.isArray(raw.exclusions) ? raw.exclusions : Array.isArray(raw.results) ? raw.results : raw;
  if (!Array.isArray(raw)) return undefined;
  const index = raw.findIndex((e) => isRecord(e) && e.type === target.type && e.value === target.value);
  return index < 0 ? undefined : { index, field: m[2] };
}

/** The explanation at the top of the document. Comments are dropped on save; only the array counts. */
export function exclusionsHeader(installId: string): string[] {
  return [
    `// Cache exclusions of install ${installId}.`,
    '// Requests matching a rule bypass the cache. Save (Ctrl+S / Cmd+S) to replace the WHOLE set:',
    '// an entry you delete here is removed on the server, and [] clears every writable entry.',
    `// "type" is one of ${EXCLUSION_TYPES.map((t) => `"${t}"`).join(', ')}; "value" is a regular expression.`,
    '// "cookie" entries are platform-managed: they are shown here, and ignored when you save',
    '// (adding, changing or removing one has no effect).',
    '// If the save is refused (invalid regular expression, install being transferred), your text stays',
    '// here unsaved and the server keeps its previous list.',
  ];
}

/** Stable, diff-friendly text: one entry per line, keys in the documented order. */
export function serializeExclusions(installId: string, list: readonly CacheExclusion[]): string {
  const lines = exclusionsHeader(installId);
  if (list.length === 0) return `${lines.join('\n')}\n[]\n`;
  const body = list.map((e, i) => `  { "type": ${JSON.stringify(e.type)}, "value": ${JSON.stringify(e.value)} }${i < list.length - 1 ? ',' : ''}`);
  return `${lines.join('\n')}\n[\n${body.join('\n')}\n]\n`;
}

/**
 * Removes // and /* *\/ comments outside strings, keeping line breaks (so JSON.parse positions map
 * to the user's lines) and replacing comment characters by spaces.
 */
export function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  let inString = false;
  while (i < text.length) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\' && i + 1 < text.length) {
        out += text[i + 1];
        i += 2;
        continue;
      }
      if (c === '"') inString = false;
      i++;
    } else if (c === '"') {
      inString = true;
      out += c;
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') {
        out += text[i] === '\r' ? '\r' : ' ';
        i++;
      }
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw new ExclusionsDocumentError('A /* comment is not closed.');
      for (; i < end + 2; i++) out += text[i] === '\n' || text[i] === '\r' ? text[i] : ' ';
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

function lineOf(text: string, position: number): number {
  return text.slice(0, position).split('\n').length;
}

/**
 * Parses the edited document into the replacement set. Accepts the array itself or, for a list pasted
 * from the API, an object `{ "exclusions": [...] }` or `{ "results": [...] }`. Checks JSON syntax, the
 * entry shape, the type (H-CE-7) and each regular expression (H-CE-4, via prepareExclusions), and
 * collapses duplicates (H-CE-2). Throws ExclusionsDocumentError with a sentence the user can act on.
 */
export function parseExclusionsDocument(text: string): CacheExclusion[] {
  const json = stripJsonComments(text);
  if (json.trim() === '') throw new ExclusionsDocumentError('The document is empty. To remove every writable exclusion, save [] instead.');
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    const msg = (e as Error).message;
    const pos = /position (\d+)/.exec(msg);
    const where = pos ? ` (line ${lineOf(json, Number(pos[1]))})` : '';
    const at = pos ? Math.min(Number(pos[1]), Math.max(0, json.length - 1)) : undefined;
    throw new ExclusionsDocumentError(`The document is not valid JSON${where}: ${msg}. Check for a missing or extra comma or quote.`, at === undefined ? undefined : { start: at, end: at + 1 });
  }
  if (isRecord(raw)) {
    const o = raw;
    raw = Array.isArray(o.exclusions) ? o.exclusions : Array.isArray(o.results) ? o.results : raw;
  }
  if (!Array.isArray(raw)) throw new ExclusionsDocumentError('The document must be a JSON array of { "type": ..., "value": ... } objects.');
  let entries: EntryRanges[] | undefined;
  const at = (i: number, field?: 'type' | 'value'): TextRange | undefined => {
    entries ??= locateEntries(json);
    const e = entries[i];
    return e && ((field && e[field]) || e.entry);
  };
  const list: CacheExclusion[] = raw.map((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw new ExclusionsDocumentError(`Exclusion ${i + 1} must be an object with "type" and "value".`, at(i));
    }
    const r = item as Record<string, unknown>;
    const extra = Object.keys(r).filter((k) => k !== 'type' && k !== 'value');
    if (extra.length) throw new ExclusionsDocumentError(`Exclusion ${i + 1} has unknown field${extra.length > 1 ? 's' : ''} ${extra.map((k) => `"${k}"`).join(', ')}; only "type" and "value" are allowed.`, at(i));
    if (typeof r.type !== 'string') throw new ExclusionsDocumentError(`Exclusion ${i + 1}: "type" must be one of ${EXCLUSION_TYPES.map((t) => `"${t}"`).join(', ')}.`, at(i, 'type'));
    if (typeof r.value !== 'string') throw new ExclusionsDocumentError(`Exclusion ${i + 1}: "value" must be a string (a regular expression).`, at(i, 'value'));
    return { type: r.type as CacheExclusion['type'], value: r.value };
  });
  try {
    return prepareExclusions(list);
  } catch (e) {
    if (e instanceof HostingValidationError) {
      const field = e.field === 'type' || e.field === 'value' ? e.field : undefined;
      throw new ExclusionsDocumentError(e.message, e.index === undefined ? undefined : at(e.index, field));
    }
    throw e;
  }
}

/** What a save will do, for the confirmation after success: written entries and ignored cookies. */
export function summarizeReplacement(before: readonly CacheExclusion[], after: readonly CacheExclusion[]): string {
  const key = (e: CacheExclusion) => `${e.type}\u0000${e.value}`;
  const writable = (l: readonly CacheExclusion[]) => l.filter((e) => e.type !== 'cookie');
  const b = new Set(writable(before).map(key));
  const a = new Set(writable(after).map(key));
  const added = [...a].filter((k) => !b.has(k)).length;
  const removed = [...b].filter((k) => !a.has(k)).length;
  const cookies = after.filter((e) => e.type === 'cookie').length;
  const parts = [`${a.size} writable exclusion${a.size === 1 ? '' : 's'}`, `${added} added`, `${removed} removed`];
  if (cookies) parts.push(`${cookies} platform-managed cookie entr${cookies === 1 ? 'y' : 'ies'} unchanged`);
  return parts.join(', ');
}

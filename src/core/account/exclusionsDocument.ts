/**
 * The editable cache-exclusions document (vscode-free): the list read with GET is serialised as
 * JSON with comments (JSONC), the user edits it, and on save it is parsed back into the full
 * replacement set for PUT (H-CE-1). Parsing errors name the line; nothing is sent when parsing fails.
 */
import { EXCLUSION_TYPES, HostingValidationError, prepareExclusions, type CacheExclusion } from '../hosting/hosting';
import { isRecord } from '../guards';

export class ExclusionsDocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExclusionsDocumentError';
  }
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
    throw new ExclusionsDocumentError(`The document is not valid JSON${where}: ${msg}. Check for a missing or extra comma or quote.`);
  }
  if (isRecord(raw)) {
    const o = raw;
    raw = Array.isArray(o.exclusions) ? o.exclusions : Array.isArray(o.results) ? o.results : raw;
  }
  if (!Array.isArray(raw)) throw new ExclusionsDocumentError('The document must be a JSON array of { "type": ..., "value": ... } objects.');
  const list: CacheExclusion[] = raw.map((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw new ExclusionsDocumentError(`Exclusion ${i + 1} must be an object with "type" and "value".`);
    }
    const r = item as Record<string, unknown>;
    const extra = Object.keys(r).filter((k) => k !== 'type' && k !== 'value');
    if (extra.length) throw new ExclusionsDocumentError(`Exclusion ${i + 1} has unknown field${extra.length > 1 ? 's' : ''} ${extra.map((k) => `"${k}"`).join(', ')}; only "type" and "value" are allowed.`);
    if (typeof r.type !== 'string') throw new ExclusionsDocumentError(`Exclusion ${i + 1}: "type" must be one of ${EXCLUSION_TYPES.map((t) => `"${t}"`).join(', ')}.`);
    if (typeof r.value !== 'string') throw new ExclusionsDocumentError(`Exclusion ${i + 1}: "value" must be a string (a regular expression).`);
    return { type: r.type as CacheExclusion['type'], value: r.value };
  });
  try {
    return prepareExclusions(list);
  } catch (e) {
    if (e instanceof HostingValidationError) throw new ExclusionsDocumentError(e.message);
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

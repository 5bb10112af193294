/**
 * Merging chosen categories and tags into a Markdown file's YAML front matter.
 *
 * The `yaml` Document API is used to *read* (values and exact source ranges), but the change is made
 * as small text insertions at those ranges rather than by re-serialising the document: that is what
 * keeps comments, quoting, key order, blank lines, empty lists elsewhere and CRLF line endings exactly
 * as the author wrote them. The result is parsed again and compared with the original before it is
 * returned, so a merge that would change anything else is refused instead of applied.
 */
import { isDeepStrictEqual } from 'node:util';
import { isMap, isScalar, isSeq, parse, parseDocument, type Document, type Node as YamlNode, type Pair } from 'yaml';
import type { OffsetEdit } from './altText';
import { ContentError } from './contentErrors';
import { cleanTerms } from './wire';

export type TaxonomyKey = 'categories' | 'tags';
export const TAXONOMY_KEYS: readonly TaxonomyKey[] = ['categories', 'tags'];

export interface FrontMatterBlock {
  /** Offsets of the YAML between the `---` lines (from after the opening line's EOL to the closing line). */
  bodyStart: number;
  bodyEnd: number;
  body: string;
  eol: '\n' | '\r\n';
}

export interface Taxonomy {
  categories: string[];
  tags: string[];
}

export function findFrontMatter(text: string): FrontMatterBlock | undefined {
  const open = /^\uFEFF?---[ \t]*(\r?\n)/.exec(text);
  if (!open) return undefined;
  const bodyStart = open[0].length;
  const closeRe = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/gm;
  closeRe.lastIndex = bodyStart;
  for (let m = closeRe.exec(text); m; m = closeRe.exec(text)) {
    // The closing marker must start a line at or after the body start.
    if (m.index >= bodyStart) {
      return { bodyStart, bodyEnd: m.index, body: text.slice(bodyStart, m.index), eol: open[1] === '\r\n' ? '\r\n' : '\n' };
    }
  }
  return undefined;
}

/** The categories and tags already in the front matter (empty lists when there is none). */
export function readTaxonomy(text: string): Taxonomy {
  const fm = findFrontMatter(text);
  if (!fm) return { categories: [], tags: [] };
  const doc = parseDocument(fm.body);
  if (doc.errors.length > 0 || !isMap(doc.contents)) return { categories: [], tags: [] };
  return { categories: termsOf(findPair(doc, 'categories')?.value), tags: termsOf(findPair(doc, 'tags')?.value) };
}

export interface MergeResult {
  /** One edit replacing the front matter body, or undefined when every term was already there. */
  edit: OffsetEdit | undefined;
  /** The terms actually added (not already present, case-insensitively). */
  added: Taxonomy;
}

/**
 * Merges `terms` into the front matter of `text`. Returns undefined when the file has no front matter.
 * Throws ContentError('front_matter') when the YAML is invalid, a key holds something other than a
 * list or a scalar, or the merged YAML would not read back as exactly the old data plus the new terms.
 */
export function mergeTaxonomy(text: string, terms: Taxonomy): MergeResult | undefined {
  const fm = findFrontMatter(text);
  if (!fm) return undefined;
  const doc = parseDocument(fm.body);
  if (doc.errors.length > 0) {
    throw new ContentError('front_matter', `The front matter is not valid YAML (${doc.errors[0].message.split('\n')[0]}); it was left unchanged.`);
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw new ContentError('front_matter', 'The front matter is not a mapping of keys to values; it was left unchanged.');
  }
  const edits: OffsetEdit[] = [];
  const added: Taxonomy = { categories: [], tags: [] };
  const expected = new Map<TaxonomyKey, string[]>();
  for (const key of TAXONOMY_KEYS) {
    const pair = findPair(doc, key);
    const existing = termsOf(pair?.value);
    const have = new Set(existing.map((t) => t.toLowerCase()));
    const toAdd = cleanTerms(terms[key]).filter((t) => !have.has(t.toLowerCase()));
    if (toAdd.length === 0) continue;
    added[key] = toAdd;
    expected.set(key, [...existing, ...toAdd]);
    edits.push(editFor(fm, doc, key, pair, toAdd));
  }
  if (edits.length === 0) return { edit: undefined, added };

  let body = fm.body;
  for (const e of edits.sort((a, b) => b.start - a.start)) body = body.slice(0, e.start) + e.newText + body.slice(e.end);
  verify(fm.body, body, expected);
  return { edit: { start: fm.bodyStart, end: fm.bodyEnd, newText: body }, added };
}

/** Front matter for a Markdown file that has none, to insert at offset 0. */
export function newFrontMatter(terms: Taxonomy, eol: '\n' | '\r\n'): string {
  const lines = ['---'];
  for (const key of TAXONOMY_KEYS) {
    const list = cleanTerms(terms[key]);
    if (list.length === 0) continue;
    lines.push(`${key}:`, ...list.map((t) => `  - ${yamlScalar(t)}`));
  }
  lines.push('---', '');
  return lines.join(eol);
}

/** A YAML scalar for a term: plain when that reads back as the same string, else double-quoted. */
export function yamlScalar(term: string): string {
  if (/^[\p{L}\p{N}][\p{L}\p{N} _./+-]*$/u.test(term) && !/\s$/.test(term)) {
    try {
      if (parse(`[${term}]`)?.[0] === term) return term;
    } catch {
      // Not plain-safe: fall through to quoting.
    }
  }
  return JSON.stringify(term);
}

function findPair(doc: Document, key: string): Pair<unknown, unknown> | undefined {
  if (!isMap(doc.contents)) return undefined;
  return doc.contents.items.find((p) => isScalar(p.key) && p.key.value === key);
}

function termsOf(value: unknown): string[] {
  if (isSeq(value)) return value.items.flatMap((i) => (isScalar(i) && i.value !== null && i.value !== undefined ? [String(i.value)] : []));
  if (isScalar(value) && value.value !== null && value.value !== undefined && String(value.value).trim() !== '') return [String(value.value)];
  return [];
}

function lineEndAt(body: string, offset: number): number {
  const nl = body.indexOf('\n', offset);
  if (nl < 0) return body.length;
  return body[nl - 1] === '\r' ? nl - 1 : nl;
}

function lineStartAt(body: string, offset: number): number {
  return body.lastIndexOf('\n', offset - 1) + 1;
}

/** The indentation used for block sequences elsewhere in this front matter; two spaces by default. */
function blockItemIndent(doc: Document, body: string): string {
  if (!isMap(doc.contents)) return '  ';
  for (const p of doc.contents.items) {
    const v = p.value as YamlNode | null;
    if (isSeq(v) && !v.flow && v.range) {
      const start = v.range[0];
      const indent = body.slice(lineStartAt(body, start), start);
      if (/^[ \t]*$/.test(indent)) return indent;
    }
  }
  return '  ';
}

function editFor(fm: FrontMatterBlock, doc: Document, key: TaxonomyKey, pair: Pair<unknown, unknown> | undefined, toAdd: string[]): OffsetEdit {
  const { body, eol } = fm;
  const value = pair?.value as YamlNode | null | undefined;
  const blockItems = (indent: string) => toAdd.map((t) => `${eol}${indent}- ${yamlScalar(t)}`).join('');
  if (!pair) {
    // Appended as the last key, after whatever (including comments) ends the front matter.
    const sep = body.length === 0 || body.endsWith('\n') ? '' : eol;
    const text = `${sep}${key}:${blockItems(blockItemIndent(doc, body))}${eol}`;
    return { start: body.length, end: body.length, newText: text };
  }
  if (isSeq(value) && value.range) {
    if (value.flow) {
      const last = value.items[value.items.length - 1] as YamlNode | undefined;
      const flowText = toAdd.map(yamlScalar).join(', ');
      if (last?.range) return { start: last.range[1], end: last.range[1], newText: `, ${flowText}` };
      const close = body.lastIndexOf(']', value.range[1]);
      return { start: close, end: close, newText: flowText };
    }
    const lastItem = value.items[value.items.length - 1] as YamlNode | undefined;
    const after = lineEndAt(body, lastItem?.range ? lastItem.range[1] - (lastItem.range[1] > 0 && body[lastItem.range[1] - 1] === '\n' ? 1 : 0) : value.range[1]);
    const indent = body.slice(lineStartAt(body, value.range[0]), value.range[0]);
    return { start: after, end: after, newText: blockItems(/^[ \t]*$/.test(indent) ? indent : '  ') };
  }
  if (isScalar(value) && value.range) {
    const empty = value.value === null || value.value === undefined || String(value.value).trim() === '';
    if (empty && value.range[0] === value.range[1]) {
      // `tags:` with nothing after it (maybe a comment): the list goes on the following lines.
      const after = lineEndAt(body, isScalar(pair.key) && pair.key.range ? pair.key.range[1] : value.range[0]);
      return { start: after, end: after, newText: blockItems(blockItemIndent(doc, body)) };
    }
    const items = empty ? toAdd : [String(value.value), ...toAdd];
    return { start: value.range[0], end: value.range[1], newText: `[${items.map(yamlScalar).join(', ')}]` };
  }
  throw new ContentError('front_matter', `"${key}" in the front matter is neither a list nor a single value; it was left unchanged.`);
}

function verify(before: string, after: string, expected: Map<TaxonomyKey, string[]>): void {
  const fail = () => new ContentError('front_matter', 'The terms could not be merged without changing other front matter; it was left unchanged.');
  const a = parseDocument(after);
  if (a.errors.length > 0) throw fail();
  const oldData = (parseDocument(before).toJS() ?? {}) as Record<string, unknown>;
  const newData = (a.toJS() ?? {}) as Record<string, unknown>;
  const want: Record<string, unknown> = { ...oldData };
  for (const [key, list] of expected) want[key] = list;
  const got: Record<string, unknown> = { ...newData };
  for (const key of expected.keys()) got[key] = termsOf(findPair(a, key)?.value);
  if (!isDeepStrictEqual(Object.keys(got).sort(), Object.keys(want).sort()) || !isDeepStrictEqual(got, want)) throw fail();
}

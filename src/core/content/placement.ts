/**
 * Where content commands read their input and put their output, as offset maths on plain text, so the
 * editor layer only converts offsets to positions: the text to send (selection, else the document
 * without its front matter), the Replace Selection edit, and markup for a new image. Insertions (Insert
 * Below, images, terms, transcripts) are placed by ./insertion.ts.
 */
import { escapeAlt, type OffsetEdit } from './altText';
import { findFrontMatter, type Taxonomy } from './frontMatter';
import type { ImageSyntax } from './imageRefs';

export interface OffsetRange {
  start: number;
  end: number;
}

export interface RequestText {
  text: string;
  /** The part of the document the text came from. */
  range: OffsetRange;
  /** True when nothing was selected and the whole document (minus front matter) is used. */
  wholeDocument: boolean;
}

/**
 * The selection when it holds more than whitespace, else the whole document; a Markdown document's
 * front matter is left out, since it is metadata rather than prose.
 */
export function requestText(docText: string, selection: OffsetRange | undefined, isMarkdown: boolean): RequestText {
  if (selection && selection.end > selection.start && docText.slice(selection.start, selection.end).trim() !== '') {
    return { text: docText.slice(selection.start, selection.end), range: { ...selection }, wholeDocument: false };
  }
  const fm = isMarkdown ? findFrontMatter(docText) : undefined;
  let start = 0;
  if (fm) {
    const closeLineEnd = docText.indexOf('\n', fm.bodyEnd);
    start = closeLineEnd < 0 ? docText.length : closeLineEnd + 1;
  }
  return { text: docText.slice(start), range: { start, end: docText.length }, wholeDocument: true };
}

export function eolOf(docText: string): '\n' | '\r\n' {
  const i = docText.indexOf('\n');
  return i > 0 && docText[i - 1] === '\r' ? '\r\n' : '\n';
}

export function replaceRangeEdit(range: OffsetRange, text: string, eol: '\n' | '\r\n'): OffsetEdit {
  return { start: range.start, end: range.end, newText: text.replace(/\r?\n/g, eol) };
}

/** Markup that shows an image with its alt text, for inserting an image picked in the explorer. */
export function imageMarkup(syntax: ImageSyntax, src: string, alt: string): string {
  switch (syntax) {
    case 'markdown':
      return `![${escapeAlt(alt, 'markdown')}](${/[\s()<>]/.test(src) ? `<${src}>` : src})`;
    case 'html':
      return `<img src="${src.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}" alt="${escapeAlt(alt, 'html')}">`;
    case 'jsx':
      return `<img src=${JSON.stringify(src)} alt=${escapeAlt(alt, 'jsx')} />`;
  }
}

/** Categories and tags as lines, for copying or inserting where there is no front matter. */
export function taxonomyAsText(terms: Taxonomy, eol: '\n' | '\r\n' = '\n'): string {
  const lines: string[] = [];
  if (terms.categories.length) lines.push(`Categories: ${terms.categories.join(', ')}`);
  if (terms.tags.length) lines.push(`Tags: ${terms.tags.join(', ')}`);
  return lines.join(eol);
}

/** A relative path from the folder of `fromFile` to `toFile` (both POSIX paths), for image markup. */
export function relativePath(fromFile: string, toFile: string): string {
  const from = fromFile.split('/').slice(0, -1);
  const to = toFile.split('/');
  let i = 0;
  while (i < from.length && i < to.length - 1 && from[i] === to[i]) i++;
  const up = from.slice(i).map(() => '..');
  return [...up, ...to.slice(i)].join('/');
}

/**
 * Where `original` (the text once at `oldRange`) is now, after the document was edited: the
 * occurrence nearest the old start, or undefined when it is gone. Lets Insert Below and Replace
 * Selection still land on the summarised text after edits elsewhere in the document.
 */
export function relocateRange(docText: string, original: string, oldRange: OffsetRange): OffsetRange | undefined {
  if (docText.slice(oldRange.start, oldRange.end) === original) return { ...oldRange };
  if (original.length === 0) return undefined;
  let best: number | undefined;
  for (let i = docText.indexOf(original); i >= 0; i = docText.indexOf(original, i + 1)) {
    if (best === undefined || Math.abs(i - oldRange.start) < Math.abs(best - oldRange.start)) best = i;
  }
  return best === undefined ? undefined : { start: best, end: best + original.length };
}

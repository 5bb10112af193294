/**
 * The text Read Aloud sends: a selection of Markdown, HTML (or PHP templates) or plain text with the
 * front matter, code and markup taken out, so the voice reads prose and the character count (cost and
 * limit) covers only what is spoken. The document is untrusted: every pass is linear (indexOf scans
 * and anchored per-line patterns without nested quantifiers).
 */
import { findFrontMatter } from '../content/frontMatter';

export type SpeechSourceKind = 'markdown' | 'html' | 'plaintext';

/** Removes every `open ... close` span (case-insensitive open/close), and an unclosed one to the end. */
function dropSpans(text: string, open: string, close: string, replacement = ' '): string {
  const lower = text.toLowerCase();
  let out = '';
  let at = 0;
  for (;;) {
    const start = lower.indexOf(open, at);
    if (start === -1) return out + text.slice(at);
    out += text.slice(at, start) + replacement;
    const end = lower.indexOf(close, start + open.length);
    if (end === -1) return out;
    at = end + close.length;
  }
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', hellip: '…', rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : ' ';
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function stripHtml(text: string): string {
  let t = dropSpans(text, '<!--', '-->');
  t = dropSpans(t, '<?php', '?>');
  t = dropSpans(t, '<?=', '?>');
  t = dropSpans(t, '<script', '</script>');
  t = dropSpans(t, '<style', '</style>');
  // Block-level ends become line breaks so sentences do not run together.
  t = t.replace(/<\/?(?:p|div|br|li|h[1-6]|tr|section|article|blockquote)\b[^<>]*>/gi, '\n');
  t = t.replace(/<[^<>]*>/g, '');
  return decodeEntities(t);
}

function stripFrontMatter(text: string): string {
  const fm = findFrontMatter(text);
  if (!fm) return text;
  const eol = text.indexOf('\n', fm.bodyEnd);
  return eol === -1 ? '' : text.slice(eol + 1);
}

function stripMarkdown(text: string): string {
  let t = stripFrontMatter(text);
  t = dropSpans(t, '```', '```', '\n');
  t = dropSpans(t, '~~~', '~~~', '\n');
  t = stripHtml(t);
  const TABLE_RULE = /^ {0,3}\|?(?:[ \t]*:?-+:?[ \t]*\|)+[ \t]*:?-*:?[ \t]*$/;
  const lines = t
    .split(/\r?\n/)
    .filter((line) => !TABLE_RULE.test(line))
    .map((line) =>
      line
        .replace(/^ {0,3}(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+|\d{1,9}[.)][ \t]+)/, '') // heading, quote, list marker
        .replace(/^ {0,3}(?:[-*_][ \t]*){3,}$/, '') // thematic break
        .replace(/!\[([^\]]*)\]\([^()]*\)/g, '$1') // image: its alt text
        .replace(/\[([^\]]*)\]\([^()]*\)/g, '$1') // link: its text
        .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1') // reference link
        .replace(/`([^`]*)`/g, '$1')
        .replace(/(\*\*|__|\*|_|~~)(?=\S)([^*_~]*?\S)\1/g, '$2')
        .replace(/\|/g, ' '),
    );
  return lines.join('\n');
}

/**
 * Prose to read aloud. Paragraph breaks are kept (one blank line), other runs of whitespace become one
 * space, and the result is trimmed. An empty string means there is nothing to read.
 */
export function speechTextFrom(text: string, kind: SpeechSourceKind): string {
  const stripped = kind === 'markdown' ? stripMarkdown(text) : kind === 'html' ? stripHtml(text) : text;
  return stripped
    .split(/\n[ \t]*\n(?:[ \t]*\n)*/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p !== '')
    .join('\n\n');
}

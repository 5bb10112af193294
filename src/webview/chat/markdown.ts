/**
 * Model output is untrusted. It goes: markdown-it (raw HTML off) -> HTML string -> DOMPurify ->
 * DocumentFragment. Nothing touches the live DOM before DOMPurify has seen it.
 *
 * - Images never load: the image rule emits a button placeholder; clicking it asks the host to open
 *   the URL externally (the host confirms non-https). This blocks exfiltration through image URLs.
 * - Links keep their href for display but are intercepted on click and opened by the host.
 * - highlight.js with a small set of languages keeps the bundle small.
 */
import MarkdownIt from 'markdown-it';
import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGUAGES = { bash, css, diff, go, java, javascript, json, php, python, rust, sql, typescript, xml, yaml };
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);
hljs.registerAliases(['sh', 'shell', 'zsh', 'console'], { languageName: 'bash' });
hljs.registerAliases(['js', 'jsx', 'mjs', 'cjs'], { languageName: 'javascript' });
hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['html', 'svg', 'xhtml'], { languageName: 'xml' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });
hljs.registerAliases(['rs'], { languageName: 'rust' });

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function highlight(code: string, lang: string): string {
  if (lang && hljs.getLanguage(lang)) {
    try {
      return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
    } catch {
      // fall through to plain
    }
  }
  return '';
}

type Md = InstanceType<typeof MarkdownIt>;

function configure(md: Md): Md {
  md.renderer.rules.image = (tokens, idx) => {
    const t = tokens[idx];
    const src = String(t.attrGet('src') ?? '');
    const alt = t.content || 'image';
    return `<button type="button" class="remote-image" data-action="openImage" data-href="${escapeHtml(src)}" title="${escapeHtml(
      src,
    )}">Image not loaded: ${escapeHtml(alt)} (open externally)</button>`;
  };
  return md;
}

/** Settled blocks: highlighted once. */
const mdHighlighted = configure(new MarkdownIt({ html: false, linkify: true, highlight }));
/** The block still being written: no highlighting, it is re-rendered every frame. */
const mdPlain = configure(new MarkdownIt({ html: false, linkify: true }));

const FORBID_TAGS = ['style', 'img', 'svg', 'math', 'form', 'input', 'textarea', 'select', 'iframe', 'frame', 'object', 'embed', 'video', 'audio', 'source', 'picture', 'link', 'meta', 'base', 'script', 'template'];
const FORBID_ATTR = ['style', 'src', 'srcset', 'action', 'formaction', 'background', 'poster', 'xlink:href'];

/** Sanitises an HTML string into a fragment. Exported so tests and the bench use the same policy. */
export function sanitize(html: string): DocumentFragment {
  return DOMPurify.sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    FORBID_TAGS,
    FORBID_ATTR,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
  });
}

/** Adds Copy / Insert at Cursor / New File buttons to code blocks (DOM APIs only, never HTML strings). */
export function decorateCodeBlocks(root: DocumentFragment | HTMLElement): void {
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    if (pre.parentElement?.classList.contains('code-block')) continue;
    const wrap = document.createElement('div');
    wrap.className = 'code-block';
    const bar = document.createElement('div');
    bar.className = 'code-actions';
    for (const [action, label] of [
      ['copyCode', 'Copy'],
      ['insertCode', 'Insert at Cursor'],
      ['newFile', 'New File'],
    ] as const) {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.action = action;
      b.textContent = label;
      bar.append(b);
    }
    pre.replaceWith(wrap);
    wrap.append(bar, pre);
  }
}

export function renderMarkdown(text: string, settled: boolean): DocumentFragment {
  const frag = sanitize((settled ? mdHighlighted : mdPlain).render(text));
  decorateCodeBlocks(frag);
  return frag;
}

/** The language named on a rendered code block (`language-xxx` class), if any. */
export function codeLanguage(code: Element): string | undefined {
  for (const c of Array.from(code.classList)) if (c.startsWith('language-')) return c.slice('language-'.length);
  return undefined;
}

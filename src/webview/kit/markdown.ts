/**
 * The webview kit's one markdown + sanitise pipeline for untrusted text (model output, tool output,
 * tool descriptions). It goes: markdown-it (raw HTML off) -> HTML string -> DOMPurify -> DocumentFragment.
 * Nothing touches the live DOM before DOMPurify has seen it.
 *
 * - Images never load: the image rule emits a button placeholder with `data-href`; the kit's link
 *   interceptor (./links.ts) asks the host to open it. This blocks exfiltration through image URLs.
 * - Links keep their href for display; the link interceptor opens them through the host.
 * - Only https, http, mailto and fragment URIs survive; no style, forms, media, frames or SVG.
 *
 * API: `sanitize(html)` -> DocumentFragment; `markdownRenderer({ highlight? })` -> `(text) => fragment`
 * (pass a highlighter, e.g. highlight.js, to colour code blocks; the kit itself ships none, so a
 * webview that does not need it does not carry it).
 */
import MarkdownIt from 'markdown-it';
import DOMPurify from 'dompurify';
import * as l10n from '../../core/l10n';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const FORBID_TAGS = ['style', 'img', 'svg', 'math', 'form', 'input', 'textarea', 'select', 'iframe', 'frame', 'object', 'embed', 'video', 'audio', 'source', 'picture', 'link', 'meta', 'base', 'script', 'template'];
const FORBID_ATTR = ['style', 'src', 'srcset', 'action', 'formaction', 'background', 'poster', 'xlink:href'];

/**
 * The kit's own DOMPurify instance, configured once: a config passed to each `sanitize` call is parsed
 * again on every call (its allow-lists rebuilt), which was most of the cost of rendering a short block.
 * Nothing else configures this instance, so the policy cannot be changed under it.
 */
const purifier = DOMPurify(window);
purifier.setConfig({
  RETURN_DOM_FRAGMENT: true,
  FORBID_TAGS,
  FORBID_ATTR,
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
});

/** Sanitises an HTML string into a fragment. Exported so tests and the bench use the same policy. */
export function sanitize(html: string): DocumentFragment {
  // RETURN_DOM_FRAGMENT is in the instance's config, so this is a fragment (the typings cannot know).
  return purifier.sanitize(html) as unknown as DocumentFragment;
}

export interface MarkdownOptions {
  /** Returns highlighted HTML for a code block, or '' to leave it plain. */
  highlight?: (code: string, lang: string) => string;
}

export function markdownRenderer(o: MarkdownOptions = {}): (text: string) => DocumentFragment {
  const md = new MarkdownIt({ html: false, linkify: true, ...(o.highlight ? { highlight: o.highlight } : {}) });
  md.renderer.rules.image = (tokens, idx) => {
    const t = tokens[idx];
    const src = String(t.attrGet('src') ?? '');
    const alt = t.content || l10n.t({ message: 'image', comment: ['an image without a description'] });
    return `<button type="button" class="remote-image" data-href="${escapeHtml(src)}" title="${escapeHtml(src)}">${escapeHtml(l10n.t('Image not loaded: {0} (open externally)', alt))}</button>`;
  };
  return (text) => sanitize(md.render(text));
}

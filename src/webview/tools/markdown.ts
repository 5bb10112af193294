/**
 * Tool output is untrusted: markdown-it with raw HTML off -> DOMPurify -> DocumentFragment. Images
 * in Markdown never load (rendered as a link the host opens on request); links are intercepted by
 * the caller and opened by the host after confirmation.
 */
import MarkdownIt from 'markdown-it';
import DOMPurify from 'dompurify';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });
md.renderer.rules.image = (tokens, idx) => {
  const t = tokens[idx];
  const src = String(t.attrGet('src') ?? '');
  const alt = md.utils.escapeHtml(String(t.content || 'image'));
  return `<a href="${md.utils.escapeHtml(src)}" class="image-link" title="Remote image not loaded">[image: ${alt}]</a>`;
};

export function renderMarkdown(text: string): DocumentFragment {
  const html = md.render(text);
  return DOMPurify.sanitize(html, { RETURN_DOM_FRAGMENT: true, FORBID_TAGS: ['style', 'img', 'form', 'input'], FORBID_ATTR: ['style'] });
}

/**
 * Renders one call: status, request ids, tool-error banner with the retry policy, every content block
 * (text as sanitised Markdown, images as data: URIs, resource links, embedded resources), and
 * structuredContent as JSON with the host's output-schema verdict.
 */
import type { CallView } from '../../shared/toolsProtocol';
import { isWebLink, linkHandler } from './links';
import { renderMarkdown } from './markdown';

export interface ResultActions {
  retry(callId: string): void;
  openLink(uri: string): void;
  copyText(text: string): void;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<Record<string, string>> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) if (v !== undefined) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

const SAFE_IMAGE = /^image\/(png|jpeg|gif|webp|bmp)$/i;

/** Every link click (primary or middle) goes to the host only: see links.ts for why. */
function guardLink(a: HTMLElement, href: string, actions: ResultActions): void {
  const handler = linkHandler(href, (h) => actions.openLink(h));
  a.addEventListener('click', handler);
  a.addEventListener('auxclick', handler);
}

function interceptLinks(root: ParentNode, actions: ResultActions): void {
  root.querySelectorAll<HTMLAnchorElement>('a[href]').forEach((a) => guardLink(a, a.getAttribute('href') ?? '', actions));
}

function renderBlock(block: { type: string; [key: string]: unknown }, actions: ResultActions): HTMLElement {
  const wrap = el('div', { class: 'block', 'data-block': block.type });
  switch (block.type) {
    case 'text': {
      const frag = renderMarkdown(String(block.text ?? ''));
      interceptLinks(frag, actions);
      wrap.append(frag);
      break;
    }
    case 'image': {
      const mime = String(block.mimeType ?? '');
      const data = String(block.data ?? '');
      if (SAFE_IMAGE.test(mime) && /^[A-Za-z0-9+/=\s]+$/.test(data)) wrap.append(el('img', { src: `data:${mime};base64,${data}`, alt: `Image result (${mime})` }));
      else wrap.append(el('p', { class: 'muted' }, `[image ${mime} not shown: unsupported type]`));
      break;
    }
    case 'audio':
      wrap.append(el('p', { class: 'muted' }, `[audio ${String(block.mimeType ?? '')}, ${Math.round((String(block.data ?? '').length * 3) / 4)} bytes]`));
      break;
    case 'resource_link': {
      const uri = String(block.uri ?? '');
      const label = String(block.title ?? block.name ?? uri);
      wrap.append(el('span', { class: 'badge' }, 'resource link'), ' ');
      if (isWebLink(uri)) {
        const a = el('a', { href: uri }, label);
        guardLink(a, uri, actions);
        wrap.append(a);
      } else {
        // Not a web link (kb:, vscode:, javascript:, file:): text plus Copy, never clickable (review L4).
        const copy = el('button', { type: 'button', class: 'secondary', title: `Copy ${uri}` }, 'Copy');
        copy.addEventListener('click', () => actions.copyText(uri));
        wrap.append(label !== uri ? `${label} ` : '', el('code', { class: 'resource-uri' }, uri), ' ', copy);
      }
      if (block.mimeType) wrap.append(' ', el('span', { class: 'muted' }, String(block.mimeType)));
      if (block.description) wrap.append(el('div', { class: 'muted' }, String(block.description)));
      break;
    }
    case 'resource': {
      const r = (block.resource ?? {}) as { uri?: string; mimeType?: string; text?: string; blob?: string };
      wrap.append(el('div', {}, el('span', { class: 'badge' }, 'embedded resource'), ' ', el('code', {}, String(r.uri ?? '')), r.mimeType ? ` ${r.mimeType}` : ''));
      if (typeof r.text === 'string') {
        if (r.mimeType === 'text/markdown') {
          const frag = renderMarkdown(r.text);
          interceptLinks(frag, actions);
          wrap.append(frag);
        } else wrap.append(el('pre', {}, r.text));
      } else if (typeof r.blob === 'string') wrap.append(el('p', { class: 'muted' }, `[binary, ${Math.round((r.blob.length * 3) / 4)} bytes]`));
      break;
    }
    default:
      wrap.append(el('span', { class: 'badge' }, block.type), el('pre', {}, JSON.stringify(block, null, 2)));
  }
  return wrap;
}

export function renderCall(call: CallView, actions: ResultActions): HTMLElement {
  const root = el('section', { class: 'result', 'aria-label': 'Result' });
  const ok = !call.failure && !call.toolError && !call.result?.isError;
  root.append(el('h2', {}, ok ? 'Result' : call.failure ? 'Call failed' : 'Tool error'));
  const meta = el('p', { class: 'muted' }, `${call.tool} · ${call.durationMs} ms · ${new Date(call.startedAt).toLocaleString()}`);
  for (const id of call.requestIds) {
    const b = el('button', { type: 'button', class: 'secondary', title: 'Copy request id' }, `Request ${id}`);
    b.addEventListener('click', () => actions.copyText(id));
    meta.append(' ', b);
  }
  root.append(meta);

  if (call.toolError || call.failure) {
    const te = call.toolError;
    const banner = el('div', { class: `banner ${te?.code === 'ambiguous_outcome' ? 'warning' : 'error'}`, role: 'alert' });
    if (te) {
      banner.append(el('strong', {}, te.code === 'other' ? 'The tool reported an error' : `Tool error: ${te.code}`), el('div', {}, te.advice));
    } else if (call.failure) {
      banner.append(el('strong', {}, call.failure.status ? `HTTP ${call.failure.status}` : 'Failed'), el('pre', {}, call.failure.message));
    }
    const allowed = te ? te.retryAllowed : true;
    const reasonId = `retry-reason-${call.id}`;
    const retry = el('button', { type: 'button', 'aria-describedby': reasonId }, 'Retry');
    if (!allowed) retry.setAttribute('disabled', '');
    retry.title = te?.retryReason ?? 'Runs the same call again.';
    retry.addEventListener('click', () => actions.retry(call.id));
    banner.append(el('div', { class: 'toolbar' }, retry, el('span', { id: reasonId, class: 'muted' }, te?.retryReason ?? 'Runs the same call again.')));
    root.append(banner);
  }

  for (const block of call.result?.content ?? []) root.append(renderBlock(block, actions));

  if (call.result?.structuredContent !== undefined) {
    const head = el('h3', {}, 'Structured content');
    if (call.outputValidation) {
      head.append(' ', el('span', { class: 'badge' }, call.outputValidation.valid ? 'matches output schema' : 'does not match output schema'));
      if (call.outputValidation.unchecked) head.append(' ', el('span', { class: 'muted' }, call.outputValidation.unchecked));
    }
    root.append(head);
    if (call.outputValidation && !call.outputValidation.valid) root.append(el('div', { class: 'banner warning' }, call.outputValidation.issues.join('\n')));
    root.append(el('pre', {}, JSON.stringify(call.result.structuredContent, null, 2)));
  }
  if (call.truncated) root.append(el('p', { class: 'muted' }, 'Large parts of this result were shortened in the history.'));
  return root;
}

/**
 * Renders one call: status, request ids, tool-error banner with the retry policy, every content block
 * (text as sanitised Markdown, images as data: URIs, resource links, embedded resources), and
 * structuredContent as JSON with the host's output-schema verdict.
 */
import type { CallView } from '../../protocol/toolsProtocol';
import { h } from '../kit/dom';
import { isWebLink } from '../kit/links';
import { renderMarkdown } from './markdown';
import * as l10n from '../../core/l10n';

export interface ResultActions {
  retry(callId: string): void;
  copyText(text: string): void;
  /** Show Site Details for a site of a list_account_sites result (#39.14). */
  siteDetails?(siteId: string): void;
}

const MAX_SITE_BUTTONS = 10;

/** The sites of a `list_account_sites` result that have a string site_id (others get no button). */
function listedSites(call: CallView): Array<{ id: string; name: string }> {
  if (call.tool !== 'list_account_sites') return [];
  const sites = call.result?.structuredContent?.sites;
  if (!Array.isArray(sites)) return [];
  const out: Array<{ id: string; name: string }> = [];
  for (const s of sites) {
    if (typeof s !== 'object' || s === null) continue;
    const r = s as Record<string, unknown>;
    if (typeof r.site_id === 'string' && r.site_id.length > 0 && r.site_id.length <= 200) out.push({ id: r.site_id, name: typeof r.name === 'string' ? r.name.slice(0, 60) : r.site_id });
    if (out.length >= MAX_SITE_BUTTONS) break;
  }
  return out;
}

function hostOf(uri: string): string | undefined {
  try {
    return new URL(uri).host;
  } catch {
    return undefined;
  }
}

const SAFE_IMAGE = /^image\/(png|jpeg|gif|webp|bmp)$/i;

export function renderBlock(block: { type: string; [key: string]: unknown }, actions: ResultActions): HTMLElement {
  const wrap = h('div', { class: 'block', 'data-block': block.type });
  switch (block.type) {
    case 'text': {
      wrap.append(renderMarkdown(String(block.text ?? '')));
      break;
    }
    case 'image': {
      const mime = String(block.mimeType ?? '');
      const data = String(block.data ?? '');
      if (SAFE_IMAGE.test(mime) && /^[A-Za-z0-9+/=\s]+$/.test(data)) wrap.append(h('img', { src: `data:${mime};base64,${data}`, alt: l10n.t('Image result ({0})', mime) }));
      else wrap.append(h('p', { class: 'muted' }, l10n.t('[image {0} not shown: unsupported type]', mime)));
      break;
    }
    case 'audio':
      wrap.append(h('p', { class: 'muted' }, l10n.t('[audio {0}, {1} bytes]', String(block.mimeType ?? ''), Math.round((String(block.data ?? '').length * 3) / 4).toLocaleString(l10n.displayLocale()))));
      break;
    case 'resource_link': {
      const uri = String(block.uri ?? '');
      const label = String(block.title ?? block.name ?? uri);
      wrap.append(h('span', { class: 'badge' }, l10n.t('resource link')), ' ');
      if (isWebLink(uri)) {
        // Opens through the host (main.ts's link interceptor -> toolPanel.ts openLink): the user confirms the host first.
        wrap.append(h('a', { href: uri, title: uri }, label));
        const host = hostOf(uri);
        if (host && label !== uri) wrap.append(' ', h('span', { class: 'muted link-host' }, `(${host})`));
      } else {
        // Not a web link (kb:, vscode:, javascript:, file:): text plus Copy, never clickable: only http(s) links open through the host.
        const copy = h('button', { type: 'button', class: 'secondary', title: l10n.t('Copy {0}', uri) }, l10n.t('Copy'));
        copy.addEventListener('click', () => actions.copyText(uri));
        wrap.append(label !== uri ? `${label} ` : '', h('code', { class: 'resource-uri' }, uri), ' ', copy);
      }
      if (block.mimeType) wrap.append(' ', h('span', { class: 'muted' }, String(block.mimeType)));
      if (block.description) wrap.append(h('div', { class: 'muted' }, String(block.description)));
      break;
    }
    case 'resource': {
      const r = (block.resource ?? {}) as { uri?: string; mimeType?: string; text?: string; blob?: string };
      wrap.append(h('div', {}, h('span', { class: 'badge' }, l10n.t('embedded resource')), ' ', h('code', {}, String(r.uri ?? '')), r.mimeType ? ` ${r.mimeType}` : ''));
      if (typeof r.text === 'string') {
        if (r.mimeType === 'text/markdown') {
          wrap.append(renderMarkdown(r.text));
        } else wrap.append(h('pre', {}, r.text));
      } else if (typeof r.blob === 'string' && SAFE_IMAGE.test(String(r.mimeType ?? '')) && /^[A-Za-z0-9+/=\s]+$/.test(r.blob)) {
        wrap.append(h('img', { src: `data:${String(r.mimeType)};base64,${r.blob}`, alt: l10n.t('Image result ({0})', String(r.mimeType)) }));
      } else if (typeof r.blob === 'string') wrap.append(h('p', { class: 'muted' }, l10n.t('[binary, {0} bytes]', Math.round((r.blob.length * 3) / 4).toLocaleString(l10n.displayLocale()))));
      break;
    }
    default:
      wrap.append(h('span', { class: 'badge' }, block.type), h('pre', {}, JSON.stringify(block, null, 2)));
  }
  return wrap;
}

export function renderCall(call: CallView, actions: ResultActions): HTMLElement {
  const root = h('section', { class: 'result', 'aria-label': l10n.t('Result') });
  const ok = !call.failure && !call.toolError && !call.result?.isError;
  root.append(h('h2', {}, ok ? l10n.t('Result') : call.failure ? l10n.t('Call failed') : l10n.t('Tool error')));
  const meta = h('p', { class: 'muted' }, `${call.tool} · ${l10n.t('{0} ms', call.durationMs.toLocaleString(l10n.displayLocale()))} · ${new Date(call.startedAt).toLocaleString(l10n.displayLocale())}`);
  for (const id of call.requestIds) {
    const b = h('button', { type: 'button', class: 'secondary', title: l10n.t('Copy request id') }, l10n.t('Request {0}', id));
    b.addEventListener('click', () => actions.copyText(id));
    meta.append(' ', b);
  }
  root.append(meta);

  if (call.toolError || call.failure) {
    const te = call.toolError;
    const banner = h('div', { class: `banner ${te?.code === 'ambiguous_outcome' ? 'warning' : 'error'}`, role: 'alert' });
    if (te) {
      banner.append(h('strong', {}, te.code === 'other' ? l10n.t('The tool reported an error') : l10n.t('Tool error: {0}', te.code)), h('div', {}, te.advice));
    } else if (call.failure) {
      banner.append(h('strong', {}, call.failure.status ? `HTTP ${call.failure.status}` : l10n.t('Failed')), h('pre', {}, call.failure.message));
    }
    const allowed = te ? te.retryAllowed : true;
    const reasonId = `retry-reason-${call.id}`;
    const retry = h('button', { type: 'button', 'aria-describedby': reasonId }, l10n.t('Retry'));
    if (!allowed) retry.setAttribute('disabled', '');
    retry.title = te?.retryReason ?? l10n.t('Runs the same call again.');
    retry.addEventListener('click', () => actions.retry(call.id));
    banner.append(h('div', { class: 'toolbar' }, retry, h('span', { id: reasonId, class: 'muted' }, te?.retryReason ?? l10n.t('Runs the same call again.'))));
    root.append(banner);
  }

  for (const block of call.result?.content ?? []) root.append(renderBlock(block, actions));

  const verdict = call.outputValidation;
  if (call.result?.structuredContent !== undefined || verdict) {
    // The output schema's verdict (#42.4): a mismatch, a missing structuredContent or a schema that
    // could not be used is a visible warning with its reason; the text blocks above stay shown.
    const head = h('h3', {}, l10n.t('Structured content'));
    if (verdict) {
      const word = verdict.notChecked ? l10n.t('not checked against the output schema') : verdict.valid ? l10n.t('matches output schema') : l10n.t('does not match output schema');
      head.append(' ', h('span', { class: `badge${verdict.valid && !verdict.notChecked ? '' : ' warning'}`, 'data-verdict': verdict.notChecked ? 'not-checked' : verdict.valid ? 'valid' : 'invalid' }, word));
      if (verdict.unchecked) head.append(' ', h('span', { class: 'muted' }, verdict.unchecked));
    }
    root.append(head);
    if (verdict?.notChecked) {
      root.append(h('div', { class: 'banner warning output-verdict', role: 'alert' }, h('strong', {}, l10n.t("The structured content was not checked against the tool's output schema:")), h('div', {}, verdict.notChecked)));
    } else if (verdict && !verdict.valid) {
      const list = h('ul', {});
      for (const issue of verdict.issues) list.append(h('li', {}, issue));
      root.append(h('div', { class: 'banner warning output-verdict', role: 'alert' }, h('strong', {}, l10n.t("The structured content does not match the tool's output schema:")), list));
    }
    if (call.result?.structuredContent !== undefined) root.append(h('pre', { class: 'structured' }, JSON.stringify(call.result.structuredContent, null, 2)));
    const sites = actions.siteDetails ? listedSites(call) : [];
    if (sites.length) {
      const bar = h('div', { class: 'toolbar', role: 'group', 'aria-label': l10n.t('Site details') });
      for (const site of sites) {
        const b = h('button', { type: 'button', class: 'site-details' }, l10n.t('Show Site Details: {0}', site.name));
        b.addEventListener('click', () => actions.siteDetails?.(site.id));
        bar.append(b);
      }
      root.append(bar);
    }
  }
  if (call.truncated) root.append(h('p', { class: 'muted' }, l10n.t('Large parts of this result were shortened in the history.')));
  return root;
}

/**
 * Tool-call blocks of agent chat in the transcript: a collapsible <details class="tool-call"> per
 * call with its name, arguments, status, duration and request id, and its result drawn by the tool
 * runner's safe renderer (src/webview/tools/results.ts: sanitised Markdown, data: images of safe
 * types only, non-web links as text). A call waiting for the user shows Approve and Deny inline,
 * with the site, the ability and (for a repeat) the earlier call whose outcome is unknown.
 * Everything here is model or server output: text only, through h() and the renderer, never HTML.
 */
import type { ToolCallView } from '../../protocol/chatProtocol';
import { h } from '../kit/dom';
import { withRenderer } from './rendererLoader';
import * as l10n from '../../core/l10n';

function statusText(status: ToolCallView['status']): string {
  switch (status) {
    case 'awaiting-approval':
      return l10n.t('waiting for your approval');
    case 'running':
      return l10n.t('running…');
    case 'done':
      return l10n.t({ message: 'done', comment: ['a tool call\'s status'] });
    case 'error':
      return l10n.t({ message: 'failed', comment: ['a tool call\'s status'] });
    case 'denied':
      return l10n.t({ message: 'denied', comment: ['a tool call\'s status'] });
    case 'refused':
      return l10n.t('not run');
    case 'invalid':
      return l10n.t('not run (bad arguments)');
    case 'outcome-unknown':
      return l10n.t('outcome unknown');
    case 'stopped':
      return l10n.t({ message: 'stopped', comment: ['a tool call\'s status'] });
    case 'skipped':
      return l10n.t('not run (round limit)');
  }
}

const FAILED = new Set<ToolCallView['status']>(['error', 'invalid', 'refused', 'outcome-unknown']);

function prettyArgs(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

/**
 * The one key that reaches a waiting approval from anywhere in the chat (the message box included):
 * it moves the keyboard to the approval card, never onto Approve, and approves nothing. Typing cannot
 * produce it (Enter with Ctrl/Cmd and Shift; Enter alone sends, Shift+Enter adds a line). An approval
 * that arrives never takes the keyboard by itself: a user still typing would answer it with Space or
 * Enter (issue 27, item 5).
 */
export const GO_TO_APPROVAL_KEY = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent) ? 'Cmd+Shift+Enter' : 'Ctrl+Shift+Enter';

export function isGoToApprovalKey(e: KeyboardEvent): boolean {
  return e.key === 'Enter' && e.shiftKey && (e.ctrlKey || e.metaKey) && !e.altKey && !e.isComposing;
}

export interface ToolCallActions {
  copyText(text: string): void;
}

export function renderToolCall(c: ToolCallView, actions: ToolCallActions): HTMLElement {
  const waiting = c.status === 'awaiting-approval';
  const el = h('details', { class: `tool-call ${c.status}${FAILED.has(c.status) ? ' failed' : ''}`, 'data-call-id': c.id, 'data-status': c.status });
  // Open while it needs the user, and when it went wrong; a finished call stays folded.
  if (waiting || c.status === 'outcome-unknown' || c.status === 'error') el.setAttribute('open', '');
  const meta = [statusText(c.status), c.durationMs !== undefined ? l10n.t('{0} ms', c.durationMs.toLocaleString(l10n.displayLocale())) : '', c.retried ? l10n.t('retried once') : ''].filter(Boolean).join(' · ');
  el.append(
    h(
      'summary',
      { 'aria-label': l10n.t('Tool call {0}: {1}', c.name, statusText(c.status)) },
      h('span', { class: 'codicon codicon-tools', 'aria-hidden': 'true' }),
      h('span', { class: 'tool-name', text: c.name }),
      h('span', { class: 'tool-args', text: c.args.length > 200 ? `${c.args.slice(0, 200)}…` : c.args }),
      h('span', { class: 'tool-status', text: meta }),
    ),
  );
  const inner = h('div', { class: 'tool-detail' });
  if (c.serverLabel) inner.append(h('div', { class: 'muted', text: l10n.t('Server: {0}', c.serverLabel) }));
  if (c.approval && (c.approval.site || c.approval.ability)) {
    inner.append(h('div', { class: 'tool-target', text: l10n.t('Site: {0} · Ability: {1}', c.approval.site ?? l10n.t('(not given)'), c.approval.ability ?? l10n.t('(not given)')) }));
  }
  inner.append(h('div', { class: 'muted', text: l10n.t('Arguments') }), h('pre', { class: 'tool-args-full', text: prettyArgs(c.args) }));
  if (waiting) inner.append(approvalBox(c));
  else if (c.approval?.decision) inner.append(h('div', { class: 'muted', text: c.approval.decision === 'approved' ? l10n.t('Approved by you.') : l10n.t('Denied.') }));
  if (c.note) inner.append(h('div', { class: `tool-note${c.status === 'outcome-unknown' ? ' warning' : FAILED.has(c.status) ? ' failed' : ''}`, role: c.status === 'outcome-unknown' ? 'alert' : 'note', text: c.note }));
  if (c.result) {
    const result = h('div', { class: 'tool-result' });
    // Drawn now once the renderer has loaded (rendererLoader.ts), else when it has, in the same place.
    const content = c.result.content;
    withRenderer((r) => result.prepend(...content.map((block) => r.renderBlock(block, { retry: () => undefined, copyText: (t) => actions.copyText(t) }))));
    if (c.result.structuredContent !== undefined && c.result.content.length === 0) result.append(h('pre', { text: JSON.stringify(c.result.structuredContent, null, 2) }));
    if (c.result.truncated) result.append(h('p', { class: 'muted', text: l10n.t('Large parts of this result were shortened in the history.') }));
    inner.append(result);
  }
  if (c.requestId) {
    const copy = h('button', { type: 'button', class: 'secondary request-id-button', title: l10n.t('Copy request id'), 'data-action': 'copyRequestIdOf', 'data-request-id': c.requestId, text: l10n.t('Request {0}', c.requestId) });
    inner.append(h('div', { class: 'muted' }, copy));
  }
  el.append(inner);
  return el;
}

/** Ids tying an approval card to its question (a call id is the model's text: never used as an id). */
let approvalSeq = 0;

function approvalBox(c: ToolCallView): HTMLElement {
  const a = c.approval;
  const questionId = `approval-q-${++approvalSeq}`;
  const question =
    a?.kind === 'repeat'
      ? (a.earlierAt
          ? l10n.t('The same call at {0} had an UNKNOWN outcome: it may already have happened. Check the site before running it again.', a.earlierAt)
          : l10n.t('The same call had an UNKNOWN outcome: it may already have happened. Check the site before running it again.')) + (a.earlierRequestId ? ` ${l10n.t('Earlier request id: {0}.', a.earlierRequestId)}` : '')
      : a?.kind === 'ability'
        ? a.site
          ? l10n.t('Run the site ability {0} on {1}? It can change your live site.', a.ability ?? '', a.site)
          : l10n.t('Run the site ability {0} on the site? It can change your live site.', a.ability ?? '')
        : l10n.t('Run {0}? Its server does not mark it read-only, so it may change something.', c.name);
  // Focusable (tabindex -1) but not in the Tab order by itself: GO_TO_APPROVAL_KEY lands here, on the
  // card and its question, and Tab then reaches Deny and Approve.
  return h(
    'div',
    { class: `tool-approval${a?.kind === 'repeat' ? ' warning' : ''}`, role: 'group', tabindex: '-1', 'aria-label': l10n.t('Approve or deny {0}', c.name), 'aria-describedby': questionId, 'aria-keyshortcuts': GO_TO_APPROVAL_KEY.replace('Cmd', 'Meta').replace('Ctrl', 'Control') },
    h('div', { id: questionId, text: question }),
    h('div', { class: 'muted approval-key', text: l10n.t('{0} comes here from the message box; nothing runs until you choose.', GO_TO_APPROVAL_KEY) }),
    h(
      'div',
      { class: 'tool-approval-actions' },
      // Deny first: the first button Tab reaches from the card is the safe one.
      h('button', { type: 'button', class: 'secondary', 'data-action': 'denyTool', 'data-call-id': c.id, text: l10n.t('Deny') }),
      h('button', { type: 'button', class: 'primary', 'data-action': 'approveTool', 'data-call-id': c.id, text: a?.kind === 'repeat' ? l10n.t('Run Again Anyway') : l10n.t('Approve') }),
    ),
  );
}

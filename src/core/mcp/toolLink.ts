/**
 * The tool runner's rule for a link a tool result or a tool's description names (#42.4), without the
 * editor: src/mcp/toolPanel.ts acts on the verdict.
 */
import * as l10n from '../l10n';
import { checkServerUrl } from '../http/serverUrl';

/** What to do with a link a tool result (or a tool's description) names. */
export type ToolLinkVerdict =
  | { kind: 'refuse'; reason: string }
  /** Not a web link (kb:, file:, vscode:...): offered for copying, never opened. */
  | { kind: 'copy'; uri: string }
  /** An http(s) link: opened only after the user confirms its host; `warning` when it points at this computer, the private network, or plain http. */
  | { kind: 'confirm'; url: URL; host: string; warning?: string };

export const MAX_LINK_CHARS = 4096;

/**
 * The tool runner's rule for links (#42.4): only http(s) ever opens, and only after the user confirms
 * the host; a link carrying credentials is refused; a link to loopback, a private or link-local
 * address, or over plain http is named as such in the confirmation (the same address rules as
 * src/core/http/serverUrl.ts applies to URLs a server names).
 */
export function judgeToolLink(raw: string): ToolLinkVerdict {
  const text = raw.trim();
  if (text.length > MAX_LINK_CHARS) return { kind: 'refuse', reason: l10n.t('the link is longer than {0} characters', MAX_LINK_CHARS) };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { kind: 'copy', uri: text };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { kind: 'copy', uri: text };
  if (url.username || url.password) return { kind: 'refuse', reason: l10n.t('the link carries a user name or password') };
  // The host judged as if the link were https (serverUrl.ts's address rules); plain http is named on its own.
  const asHttps = new URL(url.href);
  asHttps.protocol = 'https:';
  const verdict = checkServerUrl(asHttps);
  const warnings: string[] = [];
  if (!verdict.ok) warnings.push(l10n.t('This link points at this computer or a private network ({0}), not a public site.', verdict.problem));
  if (url.protocol === 'http:') warnings.push(l10n.t('This link uses plain http: what you send and see there can be read on the way.'));
  const warning = warnings.length ? warnings.join(' ') : undefined;
  return { kind: 'confirm', url, host: url.host, ...(warning ? { warning } : {}) };
}

/**
 * The chat webview's security decisions, kept free of vscode so plain-Node tests cover them:
 * the Content-Security-Policy, and which links from model output may be opened (and whether the user
 * must confirm first). src/chat/webviewHtml.ts and src/chat/editorHost.ts act on them.
 */
import * as l10n from '../core/l10n';
import { webviewCsp } from '../webviewKit/html';

/** The kit's policy (src/webviewKit/html.ts) with the extension's own images allowed (media/ icons). */
export function chatCsp(cspSource: string, nonce: string): string {
  return webviewCsp(cspSource, nonce, { localImages: true });
}

export type LinkVerdict = { kind: 'open'; url: URL } | { kind: 'confirm'; url: URL } | { kind: 'refuse'; reason: string };

export function judgeLink(href: string): LinkVerdict {
  let url: URL;
  try {
    url = new URL(href.trim());
  } catch {
    return { kind: 'refuse', reason: l10n.t('not an absolute URL') };
  }
  switch (url.protocol) {
    case 'https:':
      return { kind: 'open', url };
    case 'http:':
    case 'mailto:':
      // Not https: could be plain-text traffic or an unexpected app; the user decides.
      return { kind: 'confirm', url };
    default:
      // javascript:, data:, file:, vscode:, command: and anything else are never opened from chat.
      return { kind: 'refuse', reason: l10n.t('{0} links are not opened from chat', url.protocol) };
  }
}

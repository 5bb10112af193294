/**
 * The chat's inline error view: the words of describeError (src/core/errorText.ts, the one place that
 * phrases failures) adapted to a reply. What is the chat's own here is only what depends on the reply:
 * a reply cut off mid-stream says it is incomplete, Stop says "Stopped.", an unknown model offers
 * Switch Model, and a request id becomes Copy Request ID.
 */
import { CONTENT_POLICY_TEXT, contentPolicyText, describeError, MAY_HAVE_RECEIVED } from '../errorText';
import * as l10n from '../l10n';
import { isGatewayError } from '../http/errors';
import type { ChatErrorView, ChatErrorAction } from '../../protocol/chatProtocol';

export { CONTENT_POLICY_TEXT, MAY_HAVE_RECEIVED };

/**
 * Maps any thrown value to the chat's error view. `partial` says text had already arrived: the reply
 * is then kept and marked incomplete, with Retry.
 */
export function toChatErrorView(error: unknown, partial = false): ChatErrorView {
  if (!isGatewayError(error)) {
    // Not a classified failure (a bug, a thrown TypeError): its text is internals, not words for people.
    return {
      message: partial ? l10n.t('The reply is incomplete: something went wrong while receiving it.') : l10n.t('Something went wrong while sending the message.'),
      actions: ['retry'],
    };
  }
  const e = error;
  const rid = e.requestId;
  const view = (message: string, actions: ChatErrorAction[]): ChatErrorView => ({
    message,
    actions: rid ? [...actions, 'copyRequestId'] : actions,
    ...(rid ? { requestId: rid } : {}),
  });
  // Exactly these words and nothing of the server's (G-CHAT-4).
  if (e.reason === 'content_policy') return view(contentPolicyText(), []);
  if (e.reason === 'aborted') return view(l10n.t('Stopped.'), ['retry']);
  const broken = e.reason === 'network' || e.reason === 'timeout' || e.reason === 'protocol';
  if (broken && (partial || e.partial)) return view(l10n.t('The connection broke: the reply is incomplete.'), ['retry']);
  const words = describeError(e);
  // The chat has no settings button; what it can offer is Set API Key, Retry and Switch Model.
  const actions: ChatErrorAction[] = [];
  if (words.actions.includes('setApiKey')) actions.push('setApiKey');
  if (words.actions.includes('retry') || broken) actions.push('retry');
  if (e.reason === 'not_found') actions.push('switchModel');
  return view(words.message, actions);
}

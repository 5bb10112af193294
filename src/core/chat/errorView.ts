/**
 * Turns a classified GatewayError into what the chat shows inline: one line of words and the actions that help (Set API Key, Retry, Copy Request ID) per error reason.
 * This is the edge where errors become words; classification happened once, in the client.
 */
import { isGatewayError, type GatewayError } from '../http/errors';
import type { ChatErrorView, ErrorAction } from '../../shared/chatProtocol';

/** Exactly what the chat shows for a moderation block: the spec forbids naming filter or category. */
export const CONTENT_POLICY_TEXT = 'Blocked by content moderation';

function withRequestId(actions: ErrorAction[], requestId: string | undefined): ErrorAction[] {
  return requestId ? [...actions, 'copyRequestId'] : actions;
}

function permissionDetail(e: GatewayError): string | undefined {
  const p = e.permission;
  if (p && (p.scope || p.required || p.granted)) {
    return `Scope: ${p.scope ?? 'unknown'} · required: ${p.required ?? 'unknown'} · granted: ${p.granted ?? 'unknown'}`;
  }
  // The server's message names scope, required and granted level (G-AUTH-4); show it when not parsed.
  return e.message || undefined;
}

/** Said whenever a request failed after it may have reached the gateway; Retry is then the user's choice. */
export const MAY_HAVE_RECEIVED = 'The gateway may have received this request; check before retrying.';

/**
 * Maps any thrown value to the chat's error view. `partial` says text had already arrived: the reply
 * is then kept and marked incomplete, with Retry.
 */
export function toChatErrorView(error: unknown, partial = false): ChatErrorView {
  if (!isGatewayError(error)) {
    return { message: partial ? 'The reply is incomplete: something went wrong while receiving it.' : 'Something went wrong while sending the message.', actions: ['retry'] };
  }
  const e = error;
  const rid = e.requestId;
  const base = (message: string, actions: ErrorAction[], detail?: string): ChatErrorView => ({
    message,
    ...(detail ? { detail } : {}),
    actions: withRequestId(actions, rid),
    ...(rid ? { requestId: rid } : {}),
  });
  switch (e.reason) {
    case 'authentication':
      return base('The API key is invalid or revoked.', ['setApiKey']);
    case 'permission':
      return base('The API key lacks the permission this needs.', [], permissionDetail(e));
    case 'content_policy':
      // Nothing else: no detail, no server message (G-CHAT-4).
      return base(CONTENT_POLICY_TEXT, []);
    case 'entitlement_required':
      return base('Your account does not have the entitlement for this product.', []);
    case 'account_required':
      return base('No billing account could be resolved for this key.', []);
    case 'throttled':
      return base('The gateway is throttling requests (429). Automatic retries did not get through.', ['retry']);
    case 'unavailable':
      return base('The gateway is temporarily unavailable (503). Automatic retries did not get through.', ['retry']);
    case 'invalid_request':
      return base('The gateway rejected the request.', ['retry'], e.message || undefined);
    case 'not_found':
      return base('The gateway does not know this model or route (404).', ['switchModel']);
    case 'network':
    case 'timeout':
    case 'protocol':
    {
      if (partial || e.partial) return base('The connection broke: the reply is incomplete.', ['retry']);
      // Not re-sent automatically: the gateway may have read the message and be answering (and billing).
      const sent = e.reason !== 'protocol' && e.mayHaveReachedServer === true;
      return base(e.reason === 'timeout' ? 'The gateway did not answer in time.' : sent ? 'The connection broke.' : 'Could not reach the gateway.', ['retry'], sent ? MAY_HAVE_RECEIVED : undefined);
    }
    case 'aborted':
      return base('Stopped.', ['retry']);
    default:
      return base(`The gateway failed${e.status ? ` (${e.status})` : ''}.`, ['retry']);
  }
}

/**
 * Words for a GatewayError, at the edge (notifications; webviews may reuse them). vscode-free so it
 * is tested in plain Node. Classification happened once in the client; this only phrases it.
 */
import { type GatewayError, isGatewayError } from './core/http/errors';
import { redactSecrets } from './core/log';
import { MAY_HAVE_RECEIVED } from './core/chat/errorView';

export interface ErrorText {
  /** One or two sentences for the user. Never contains a secret. */
  message: string;
  /** The fix is a different or re-entered API key. */
  suggestSetKey: boolean;
  /** Worth trying again as is (throttling, outage, network, timeout). */
  suggestRetry: boolean;
  /** The gateway could not be reached: the base URL or proxy settings may be wrong. */
  suggestSettings: boolean;
  requestId?: string;
}

export function describeError(error: unknown, context?: string): ErrorText {
  if (!isGatewayError(error)) {
    const raw = error instanceof Error ? error.message : String(error);
    return { message: prefix(context, redactSecrets(raw)), suggestSetKey: false, suggestRetry: false, suggestSettings: false };
  }
  return {
    message: prefix(context, redactSecrets(gatewayErrorMessage(error))),
    suggestSetKey: error.reason === 'authentication',
    suggestRetry: ['throttled', 'unavailable', 'network', 'timeout', 'server'].includes(error.reason),
    suggestSettings: error.reason === 'network' || (error.reason === 'timeout' && error.timeoutPhase === 'connect'),
    requestId: error.requestId,
  };
}

function gatewayErrorMessage(e: GatewayError): string {
  switch (e.reason) {
    case 'authentication':
      return 'The gateway refused the API key (401): it is missing, invalid or revoked. Set a valid API key.';
    case 'permission': {
      const p = e.permission;
      if (p?.scope) {
        const levels = p.required ? ` at ${p.required} level${p.granted ? ` (this key has ${p.granted})` : ''}` : '';
        return `This API key lacks the "${p.scope}" scope${levels}. Use a key with that permission, or change the key's permissions in the portal.`;
      }
      return `Permission denied (403): ${e.message}`;
    }
    case 'entitlement_required':
      return 'Your account is not entitled to the AI gateway (403 entitlement_required).';
    case 'account_required':
      return 'No billing account could be resolved for this key (403 account_required).';
    case 'content_policy':
      return 'The request was blocked by content moderation.';
    case 'throttled':
      return 'The gateway is throttling requests (429). Wait a moment and try again.';
    case 'unavailable':
      return 'The gateway is temporarily unavailable (503). Try again shortly.';
    case 'invalid_request':
      return `The gateway rejected the request (400): ${e.message}`;
    case 'not_found':
      return `Not found (404): ${e.message}`;
    case 'network':
      if (e.mayHaveReachedServer === true) return `${e.message}. ${MAY_HAVE_RECEIVED}`;
      return `Could not reach the gateway: ${e.message}. Check aiGateway.baseUrl and your proxy settings.`;
    case 'timeout':
      return `The gateway did not answer in time${e.timeoutPhase ? ` (${e.timeoutPhase} timeout)` : ''}.${e.mayHaveReachedServer === true ? ` ${MAY_HAVE_RECEIVED}` : ''}`;
    case 'aborted':
      return 'Cancelled.';
    default:
      return e.message;
  }
}

function prefix(context: string | undefined, message: string): string {
  return context ? `${context}: ${message}` : message;
}

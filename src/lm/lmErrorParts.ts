/**
 * What a failed request through the language model provider says: the message and the
 * LanguageModelError code chatProvider.ts builds its error from. vscode-free (like src/core/errorText.ts,
 * whose words it reuses) so it is tested in plain Node against the local gateway.
 *
 * The message is the gateway's explanation (a missing scope is named with the required and granted
 * levels; a refused key is said to be missing, invalid or revoked) followed by the request id, which
 * VS Code shows in its chat and which support needs to find the request.
 */
import { isGatewayError } from '../core/http/errors';
import { describeError } from '../core/errorText';
import * as l10n from '../core/l10n';

export type LmErrorCode = 'NoPermissions' | 'Blocked' | 'NotFound' | 'Unknown';

export interface LmErrorParts {
  message: string;
  code: LmErrorCode;
}

export function lmErrorParts(e: unknown): LmErrorParts {
  const text = describeError(e);
  const message = text.requestId ? l10n.t('{0} (request id {1})', text.message, text.requestId) : text.message;
  if (!isGatewayError(e)) return { message, code: 'Unknown' };
  switch (e.reason) {
    case 'authentication':
    case 'permission':
    case 'entitlement_required':
    case 'account_required':
      return { message, code: 'NoPermissions' };
    case 'content_policy':
      return { message, code: 'Blocked' };
    case 'not_found':
      return { message, code: 'NotFound' };
    default:
      return { message, code: 'Unknown' };
  }
}

/**
 * The one place where a failure becomes words and actions: GatewayError, McpCallError and
 * HostingError (all AppError, src/core/appError.ts) and anything else thrown. Classification happened
 * once, in the clients; this only phrases it. Notifications (src/platform/errorNotifications.ts), the hosting
 * commands, the MCP tool history, the language model provider, the knowledge views and the chat's
 * inline error view (src/core/chat/errorView.ts, which only adapts these words to the reply) all call
 * describeError. In src/core because the chat controller is core code; vscode-free, tested in plain Node.
 */
import { isAppError, type AppError } from './appError';
import { NO_API_KEY_CODE, type GatewayError } from './http/errors';
import { certificateSetting, findErrorCode, isCertificateErrorCode, PROXY_AUTH_ERROR_CODE, PROXY_REFUSED_ERROR_CODE } from './http/connectErrors';
import type { HostingError, HostingErrorDetail } from './account/hosting';
import { OUTCOME_UNKNOWN_ADVICE, type McpCallError } from './mcp/errors';
import { redactSecrets } from './log';
import * as l10n from './l10n';

/** What the user can do about a failure; the notification turns each into a button. */
export type ErrorAction =
  | 'setApiKey' // enter a different gateway API key
  | 'setHostingCredentials' // enter hosting API username and password
  | 'retry' // worth trying again as is; offered only when the caller can retry
  | 'openSettings' // the address or proxy settings may be wrong (settingKey says which)
  | 'openDocs'; // the server named a documentation page (documentationUrl)

/** The hosting operations whose failures need their own explanation (a 409 means a different thing for each). */
export type HostingOperation = 'readExclusions' | 'saveExclusions' | 'transfer' | 'cancelTransfer';

export interface DescribeOptions {
  /** What was being done, e.g. "Loading models": the message starts with it. */
  context?: string;
  /** For hosting failures: which operation failed (also gives the default context). */
  operation?: HostingOperation;
  /** Secrets to remove from the words, in addition to the generic patterns. */
  knownSecrets?: readonly string[];
}

export interface ErrorText {
  /** One or two sentences for the user. Never contains a secret. */
  message: string;
  /** In the order they should be offered. */
  actions: ErrorAction[];
  /** The setting that 'openSettings' opens. */
  settingKey?: string;
  /** Server-provided (hosting documentation_url); open it only when it is https. */
  documentationUrl?: string;
  /** Users quote it to support; offered as "Copy Request ID". */
  requestId?: string;
  /** The user cancelled: show nothing. */
  cancelled: boolean;
  /** Same as actions including 'setApiKey' / 'retry' / 'openSettings'. */
  suggestSetKey: boolean;
  suggestRetry: boolean;
  suggestSettings: boolean;
}

const GATEWAY_URL_SETTING = 'aiGateway.baseUrl';
const HOSTING_URL_SETTING = 'aiGateway.hosting.baseUrl';

interface Words {
  message: string;
  actions: ErrorAction[];
  settingKey?: string;
  /** Set when the words already name the operation (hosting); otherwise the context is prefixed. */
  tail?: string;
}

export function describeError(error: unknown, options: string | DescribeOptions = {}): ErrorText {
  const opts: DescribeOptions = typeof options === 'string' ? { context: options } : options;
  let words: Words;
  if (!isAppError(error)) {
    words = { message: error instanceof Error ? error.message : String(error), actions: [] };
  } else {
    switch (error.family) {
      case 'gateway':
        words = gatewayWords(error as GatewayError);
        break;
      case 'mcp':
        words = mcpWords(error as McpCallError);
        break;
      case 'hosting':
        words = hostingWords(error as HostingError, opts.operation);
        break;
    }
  }
  const app: AppError | undefined = isAppError(error) ? error : undefined;
  const context = opts.context ?? (app?.family === 'hosting' && opts.operation ? operationContext(opts.operation) : undefined);
  const body = `${words.message}${words.tail ?? ''}`;
  const sentence = context ? l10n.t({ message: '{0}: {1}', args: [context, body], comment: ['what was being done, then what went wrong'] }) : body;
  const documentationUrl = app?.family === 'hosting' ? (error as HostingError).documentationUrl : undefined;
  const actions = documentationUrl ? [...words.actions, 'openDocs' as const] : words.actions;
  return {
    message: redactSecrets(sentence, opts.knownSecrets),
    actions,
    ...(words.settingKey ? { settingKey: words.settingKey } : {}),
    ...(documentationUrl ? { documentationUrl } : {}),
    ...(app?.requestId ? { requestId: app.requestId } : {}),
    cancelled: app?.reason === 'aborted',
    suggestSetKey: actions.includes('setApiKey'),
    suggestRetry: actions.includes('retry'),
    suggestSettings: actions.includes('openSettings'),
  };
}

/** The text as one sentence: ends in exactly one full stop (server and classifier texts vary). */
function sentence(text: string): string {
  const t = text.trimEnd();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

// ---- gateway (ai-gateway-api.md, "Errors") ----

/** Said whenever a request failed after it may have reached the gateway; Retry is then the user's choice. */
export const MAY_HAVE_RECEIVED = 'The gateway may have received this request; check before retrying.';

/** Exactly what is shown for a moderation block: the spec forbids naming the filter or category (G-CHAT-4). */
export const CONTENT_POLICY_TEXT = 'Blocked by content moderation';

/** MAY_HAVE_RECEIVED in the display language. */
export function mayHaveReceived(): string {
  return l10n.t('The gateway may have received this request; check before retrying.');
}

/** CONTENT_POLICY_TEXT in the display language. */
export function contentPolicyText(): string {
  return l10n.t('Blocked by content moderation');
}

function gatewayWords(e: GatewayError): Words {
  const retry: ErrorAction[] = ['retry'];
  switch (e.reason) {
    case 'authentication':
      // No key at all: nothing was sent (a newcomer's first message before Add API Key), so nothing was "refused".
      if (e.code === NO_API_KEY_CODE) return { message: l10n.t('No API key is set yet, so nothing was sent. Add one with AI Gateway: Add API Key.'), actions: ['setApiKey'] };
      return { message: l10n.t('The gateway refused the API key (401): it is missing, invalid or revoked. Set a valid API key.'), actions: ['setApiKey'] };
    case 'permission': {
      const p = e.permission;
      if (p?.scope) {
        const message = !p.required
          ? l10n.t('This API key lacks the "{0}" scope. Use a key with that permission, or change the key\'s permissions in the portal.', p.scope)
          : p.granted
            ? l10n.t('This API key lacks the "{0}" scope at {1} level (this key has {2}). Use a key with that permission, or change the key\'s permissions in the portal.', p.scope, p.required, p.granted)
            : l10n.t('This API key lacks the "{0}" scope at {1} level. Use a key with that permission, or change the key\'s permissions in the portal.', p.scope, p.required);
        return { message, actions: [] };
      }
      return { message: l10n.t('Permission denied (403): {0}', e.message), actions: [] };
    }
    case 'entitlement_required':
      return { message: l10n.t('Your account is not entitled to the AI gateway (403 entitlement_required).'), actions: [] };
    case 'account_required':
      return { message: l10n.t('No billing account could be resolved for this key (403 account_required).'), actions: [] };
    case 'content_policy':
      // Nothing from the server: the spec forbids naming the filter or category.
      return { message: `${contentPolicyText()}.`, actions: [] };
    case 'throttled':
      return { message: l10n.t('The gateway is throttling requests (429). Wait a moment and try again.'), actions: retry };
    case 'unavailable':
      return { message: l10n.t('The gateway is temporarily unavailable (503). Try again shortly.'), actions: retry };
    case 'invalid_request':
      return { message: l10n.t('The gateway rejected the request (400): {0}', e.message), actions: [] };
    case 'not_found':
      return { message: l10n.t('Not found (404): {0}', e.message), actions: [] };
    case 'network':
      if (!e.mayHaveReachedServer) {
        const words = connectWords(e, GATEWAY_URL_SETTING);
        if (words) return words;
      }
      if (e.mayHaveReachedServer) return { message: `${sentence(e.message)} ${mayHaveReceived()}`, actions: ['retry', 'openSettings'], settingKey: GATEWAY_URL_SETTING };
      return {
        message: l10n.t('Could not reach the gateway: {0} Check {1} and your proxy settings.', sentence(e.message), GATEWAY_URL_SETTING),
        actions: ['retry', 'openSettings'],
        settingKey: GATEWAY_URL_SETTING,
      };
    case 'timeout':
      return {
        message: `${e.timeoutPhase ? l10n.t('The gateway did not answer in time ({0} timeout).', e.timeoutPhase) : l10n.t('The gateway did not answer in time.')}${e.mayHaveReachedServer ? ` ${mayHaveReceived()}` : ''}`,
        actions: e.timeoutPhase === 'connect' ? ['retry', 'openSettings'] : retry,
        ...(e.timeoutPhase === 'connect' ? { settingKey: GATEWAY_URL_SETTING } : {}),
      };
    case 'aborted':
      return { message: l10n.t('Cancelled.'), actions: [] };
    case 'server':
      return { message: e.message, actions: retry };
    default:
      return { message: e.message, actions: [] };
  }
}

/**
 * A connection refused for its certificate or by the proxy (classified in http/classify.ts
 * connectProblem, which wrote the words): the action opens the setting that fixes it, and Retry is
 * offered only where it can help (a refused certificate or proxy password does not change by itself).
 */
function connectWords(e: AppError, addressSetting: string): Words | undefined {
  const code = findErrorCode(e, (c) => isCertificateErrorCode(c) || c === PROXY_AUTH_ERROR_CODE || c === PROXY_REFUSED_ERROR_CODE);
  if (code === undefined) return undefined;
  if (code === PROXY_AUTH_ERROR_CODE) return { message: sentence(e.message), actions: ['openSettings'], settingKey: 'http.proxy' };
  if (code === PROXY_REFUSED_ERROR_CODE) {
    return {
      message: `${sentence(e.message)} ${l10n.t('Check {0}, or ask your administrator whether this address is allowed.', 'http.proxy')}`,
      actions: ['retry', 'openSettings'],
      settingKey: 'http.proxy',
    };
  }
  const setting = certificateSetting(code, addressSetting);
  return { message: sentence(e.message), actions: setting ? ['openSettings'] : [], ...(setting ? { settingKey: setting } : {}) };
}

// ---- MCP (/v1/mcp and configured MCP servers) ----

function mcpWords(e: McpCallError): Words {
  // The call was sent and no answer came: say so first, whatever the reason was, and never offer a
  // one-click retry (a write may have happened).
  if (e.outcomeUnknown && e.reason !== 'aborted') return { message: `Outcome unknown: ${e.message}\n${OUTCOME_UNKNOWN_ADVICE}`, actions: [] };
  switch (e.reason) {
    case 'authentication':
      return { message: `${e.message} — check the API key (or identity token).`, actions: ['setApiKey'] };
    case 'permission':
      return { message: /'mcp'/.test(e.message) && /has read/.test(e.message) ? `${e.message} — tool calls need mcp at write; this key has read only.` : e.message, actions: [] };
    case 'aborted':
      return { message: 'Cancelled before the result arrived. If the tool writes, the change may still have happened.', actions: [] };
    case 'network':
      // Not outcome-unknown, so it provably never left this machine.
      return { message: `${e.message} — check the server address and your proxy settings.`, actions: ['retry'] };
    default:
      return { message: e.message, actions: [] };
  }
}

// ---- hosting account API (hosting-account-api.md, H-ERR-1) ----

function operationContext(op: HostingOperation): string {
  switch (op) {
    case 'readExclusions':
      return l10n.t('Reading cache exclusions');
    case 'saveExclusions':
      return l10n.t('Saving cache exclusions');
    case 'transfer':
      return l10n.t('Requesting the site transfer');
    case 'cancelTransfer':
      return l10n.t('Cancelling the site transfer');
  }
}

/** The server's message with one line per detail: "Invalid (scheduled_time: must be at least 1 hour ahead)". */
function hostingDetail(e: HostingError): string {
  const lines = e.errors.map((d: HostingErrorDetail) => [d.field ?? d.resource, d.message ?? d.code ?? d.type].filter(Boolean).join(': ')).filter(Boolean);
  return lines.length ? `${e.message} (${lines.join('; ')})` : e.message;
}

function hostingWords(e: HostingError, op: HostingOperation | undefined): Words {
  const detail = hostingDetail(e);
  let message: string;
  const actions: ErrorAction[] = [];
  let settingKey: string | undefined;
  switch (e.reason) {
    case 'authentication':
      message = l10n.t('The hosting API refused the credentials (401): {0}. Set your hosting API username and password.', detail);
      actions.push('setHostingCredentials');
      break;
    case 'permission':
      message = l10n.t('Not allowed (403): {0}. Your user needs the right access on this install, site or account.', detail);
      break;
    case 'not_found':
      message = l10n.t('Not found (404): {0}. Check the id.', detail);
      break;
    case 'conflict':
      message = conflictText(op, detail);
      break;
    case 'invalid_request':
    case 'validation':
      message = l10n.t('Refused ({0}): {1}.', e.status ?? '', detail);
      break;
    case 'throttled':
    case 'unavailable':
    case 'server':
    case 'timeout':
      message = `${detail}.`;
      actions.push('retry');
      break;
    case 'network': {
      const words = e.mayHaveReachedServer ? undefined : connectWords(e, HOSTING_URL_SETTING);
      if (words) {
        message = words.message;
        actions.push(...words.actions);
        settingKey = words.settingKey;
        break;
      }
      message = l10n.t('{0}. Check {1} and your proxy settings.', detail, HOSTING_URL_SETTING);
      actions.push('openSettings', 'retry');
      settingKey = HOSTING_URL_SETTING;
      break;
    }
    case 'aborted':
      message =
        op === 'saveExclusions'
          ? l10n.t('Save cancelled. The server may or may not have applied it; your edits are kept in the editor (reopen the document to see the server list).')
          : l10n.t('Cancelled.');
      break;
    default:
      message = `${detail}.`;
  }
  // A refusal (4xx) changed nothing; after a 500, a 503 or a lost connection the write may have been
  // applied (the client never retries writes), so say so instead of promising the opposite.
  const refused = ['invalid_request', 'authentication', 'permission', 'not_found', 'conflict', 'validation', 'throttled'].includes(e.reason);
  let tail = '';
  if (op === 'saveExclusions' && e.reason !== 'aborted') {
    tail = ` ${
      refused
        ? l10n.t('Your edits are kept in the editor; nothing was changed on the server.')
        : l10n.t('Your edits are kept in the editor; the server may or may not have applied them (close and reopen the document to see its list).')
    }`;
  } else if ((op === 'transfer' || op === 'cancelTransfer') && e.reason === 'conflict') {
    tail = ` ${l10n.t('Nothing was changed.')}`;
  }
  return { message: message.replace(/\.\.$/, '.'), actions, ...(settingKey ? { settingKey } : {}), tail };
}

function conflictText(op: HostingOperation | undefined, detail: string): string {
  switch (op) {
    case 'saveExclusions':
      return l10n.t('the install is transferable, so its cache exclusions cannot be modified until the transfer is done or cancelled (409: {0}).', detail);
    case 'cancelTransfer':
      return l10n.t('the transfer has already started and can no longer be cancelled (409: {0}).', detail);
    case 'transfer':
      return l10n.t('the site already has an active transfer, is not in a transferable state, or the destination account is not eligible (409: {0}).', detail);
    default:
      return l10n.t('conflict (409): {0}.', detail);
  }
}

/**
 * "Is this key any good?" as one cheap authenticated call, classified into what the user can act
 * on: valid, invalid or revoked (401), missing scope (403 permission_error, naming the scope), an
 * account problem (403 entitlement_required / account_required), or any other failure.
 *
 * Assumption (spec: not shown): there is no "whoami" or key-introspection route. The probe is the chat
 * scope's probe of scopeCheck.ts (`POST /v1/chat/completions` with a deliberately invalid body: no model
 * runs, no credits are spent), used alone where one request must do (Add API Key). It relies on
 * the gateway checking the key before the body; that assumption lives in scopeCheck.ts
 * (`passedScopeCheck`). Any answer past it means "this key works for chat", but only when it is a
 * documented gateway answer: an error carrying the gateway's error envelope, or a 2xx chat completion.
 * Anything else (a web server answering 404 HTML to every path, a 200 login page) says the address is
 * not a gateway, so the key was not checked at all. Check API Key asks every scope (checkKeyScopes).
 */
import * as l10n from '../l10n';
import type { IGatewayClient } from '../gateway/api';
import { GatewayError, isGatewayError } from '../http/errors';
import { passedScopeCheck, SCOPE_PROBES, summarizeScopeReport, type ScopeReport } from './scopeCheck';

const CHAT_PROBE = SCOPE_PROBES.chat[0]!;
export const KEY_CHECK_PATH = CHAT_PROBE.route.path;
export const KEY_CHECK_BODY = CHAT_PROBE.body;
/** The scope the probe exercises, named in the "valid" message. */
export const KEY_CHECK_SCOPE = 'chat';

export type KeyCheckResult =
  | { kind: 'valid'; requestId?: string }
  | { kind: 'invalid'; requestId?: string; message: string }
  | { kind: 'missing-scope'; requestId?: string; scope?: string; required?: string; granted?: string; message: string }
  | { kind: 'account'; requestId?: string; reason: 'entitlement_required' | 'account_required'; message: string }
  | { kind: 'error'; requestId?: string; error: GatewayError };

export async function checkKey(client: Pick<IGatewayClient, 'postJson'>, signal?: AbortSignal): Promise<KeyCheckResult> {
  try {
    const res = await client.postJson<unknown>(KEY_CHECK_PATH, KEY_CHECK_BODY, { signal });
    const d = res.data as { choices?: unknown } | null | undefined;
    if (typeof d === 'object' && d !== null && Array.isArray(d.choices)) return { kind: 'valid', requestId: res.requestId };
    return { kind: 'error', requestId: res.requestId, error: notAGateway(`HTTP ${res.status} without a chat completion`, res.status, res.requestId) };
  } catch (e) {
    return classifyKeyCheckError(e);
  }
}

export function classifyKeyCheckError(e: unknown): KeyCheckResult {
  const error = isGatewayError(e) ? e : new GatewayError({ reason: 'network', message: e instanceof Error ? e.message : String(e), cause: e });
  const requestId = error.requestId;
  if (passedScopeCheck(error)) return { kind: 'valid', requestId };
  switch (error.reason) {
    case 'invalid_request':
    case 'not_found':
      return { kind: 'error', requestId, error: notAGateway(`HTTP ${error.status ?? '?'} without the gateway's error format`, error.status, requestId) };
    case 'authentication':
      return { kind: 'invalid', requestId, message: error.message };
    case 'permission':
      return {
        kind: 'missing-scope',
        requestId,
        scope: error.permission?.scope,
        required: error.permission?.required,
        granted: error.permission?.granted,
        message: error.message,
      };
    case 'entitlement_required':
    case 'account_required':
      return { kind: 'account', requestId, reason: error.reason, message: error.message };
    default:
      return { kind: 'error', requestId, error };
  }
}

function notAGateway(what: string, status: number | undefined, requestId: string | undefined): GatewayError {
  return new GatewayError({
    reason: 'protocol',
    status,
    requestId,
    message: l10n.t('The address did not answer like an AI gateway ({0}), so the key could not be checked. Check the setting {1}.', what, 'aiGateway.baseUrl'),
  });
}

/** One sentence for a notification. Never contains the key. */
export function describeKeyCheck(result: KeyCheckResult, keyLabel: string): string {
  switch (result.kind) {
    case 'valid':
      return l10n.t('API key {0} is valid and can use {1}.', keyLabel, KEY_CHECK_SCOPE);
    case 'invalid':
      return l10n.t('API key {0} was refused (401): it is invalid or has been revoked. Revocation cannot be undone; create a new key in the portal.', keyLabel);
    case 'missing-scope': {
      if (!result.scope) return l10n.t('API key {0} is valid but lacks a required scope: {1}', keyLabel, result.message);
      if (!result.required) return l10n.t('API key {0} is valid but lacks the {1} scope: {2}', keyLabel, result.scope, result.message);
      return result.granted
        ? l10n.t('API key {0} is valid but lacks the {1} scope (needs {2}, has {3}): {4}', keyLabel, result.scope, result.required, result.granted, result.message)
        : l10n.t('API key {0} is valid but lacks the {1} scope (needs {2}): {3}', keyLabel, result.scope, result.required, result.message);
    }
    case 'account':
      return result.reason === 'entitlement_required'
        ? l10n.t('API key {0} is valid, but the account lacks the AI gateway entitlement.', keyLabel)
        : l10n.t('API key {0} is valid, but no billing account could be resolved for it.', keyLabel);
    case 'error':
      return l10n.t('Could not check API key {0}: {1}', keyLabel, result.error.message);
  }
}

/**
 * What Add API Key does with a new key after its live check (#29.9): a key the gateway refused
 * (invalid or revoked) is never saved; a key the gateway could not judge (unreachable, throttled, not a
 * gateway at that address, any other failure) is saved with a warning that it is unchecked; a working
 * key is saved, with a warning when it lacks the probed scope or its account has a problem.
 */
export interface AddKeyVerdict {
  save: boolean;
  level: 'info' | 'warning' | 'error';
  message: string;
}

export function addKeyVerdict(result: KeyCheckResult, keyLabel: string, gatewayUrl: string): AddKeyVerdict {
  switch (result.kind) {
    case 'valid':
      return { save: true, level: 'info', message: l10n.t('API key {0} checked (valid for {1}), saved and active.', keyLabel, KEY_CHECK_SCOPE === 'chat' ? l10n.t({ message: 'chat', comment: ['the API scope a key was checked for (chat requests)'] }) : KEY_CHECK_SCOPE) };
    case 'invalid':
      return {
        save: false,
        level: 'error',
        message: l10n.t('API key {0} was not saved: the gateway refused it (401), so it is invalid or has been revoked. Create a new key in the portal and add that one.', keyLabel),
      };
    case 'missing-scope':
    case 'account':
      return { save: true, level: 'warning', message: `${describeKeyCheck(result, keyLabel)} ${l10n.t('It is saved and active.')}` };
    case 'error':
      return {
        save: true,
        level: 'warning',
        message: l10n.t(
          'API key {0} is saved and active, but UNCHECKED: the gateway at {1} could not be reached ({2}). Run Check API Key once it answers.',
          keyLabel,
          gatewayUrl,
          result.error.message,
        ),
      };
  }
}

/**
 * Add API Key when the one-request chat probe found no chat scope (#39.12): the scope-by-scope report
 * says what the key can do instead of "lacks chat". Saved and active either way; a warning only when the
 * key can use none of the checked scopes.
 */
export function addKeyVerdictFromScopes(report: ScopeReport, keyLabel: string, gatewayUrl: string): AddKeyVerdict {
  if (report.kind === 'invalid') return addKeyVerdict({ kind: 'invalid', requestId: report.requestId, message: report.message }, keyLabel, gatewayUrl);
  if (report.kind === 'error') return addKeyVerdict({ kind: 'error', requestId: report.requestId, error: report.error }, keyLabel, gatewayUrl);
  const usable = report.kind === 'scopes' && report.findings.some((f) => f.level === 'write' || f.level === 'read');
  return { save: true, level: usable ? 'info' : 'warning', message: `${summarizeScopeReport(report, keyLabel)} ${l10n.t('It is saved and active.')}` };
}

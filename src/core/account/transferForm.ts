/**
 * Site transfer and cancel forms (vscode-free): per-field validation for the input boxes, the
 * confirmation summary, the result text, and the words for hosting API failures.
 */
import { isCalendarDate } from './usageReport';
import { HostingValidationError, MAX_SCHEDULE_MS, MIN_SCHEDULE_MS, describeHostingError, isUuid, prepareTransfer, type HostingError, type SiteTransfer, type TransferRequest } from '../hosting/hosting';

/** Input-box validator for a UUID field: undefined when valid, else the sentence to show. */
export function validateUuidInput(value: string, what: string): string | undefined {
  const v = value.trim();
  if (v === '') return `Enter the ${what} (a UUID).`;
  return isUuid(v) ? undefined : `The ${what} must be a UUID such as 4c5d6e7f-8091-42a3-b485-d6e7f8091008.`;
}

/**
 * Parses the scheduled time typed by the user: an RFC 3339 date-time with an offset
 * ("2026-11-23T14:00:00Z", "2026-11-23T14:00+01:00"), "YYYY-MM-DD HH:MM" read as UTC, or a time
 * relative to now ("+2h", "+3d", "+90m"). It must lie between 1 hour and 7 days ahead (H-TR-4).
 */
export function parseScheduledTime(text: string, nowMs: number): { date: Date } | { error: string } {
  const t = text.trim();
  let ms: number;
  const rel = /^\+(\d+)\s*(m|h|d)$/i.exec(t);
  if (rel) {
    ms = nowMs + Number(rel[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2].toLowerCase() as 'm' | 'h' | 'd'];
  } else {
    const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:\d{2})?$/i.exec(t);
    if (!m) return { error: 'Use a date-time such as 2026-11-23 14:00 (UTC), 2026-11-23T14:00+01:00, or a relative time such as +2h or +3d.' };
    ms = Date.parse(`${m[1]}T${m[2]}${m[3] ? m[3].toUpperCase() : 'Z'}`);
    if (Number.isNaN(ms) || !isCalendarDate(m[1])) return { error: `'${t}' is not a valid date-time.` };
  }
  const delta = ms - nowMs;
  if (delta < MIN_SCHEDULE_MS) return { error: `The scheduled time must be at least 1 hour ahead (that is ${describeAhead(delta)}).` };
  if (delta > MAX_SCHEDULE_MS) return { error: `The scheduled time must be at most 7 days ahead (that is ${describeAhead(delta)}).` };
  return { date: new Date(ms) };
}

function describeAhead(deltaMs: number): string {
  if (deltaMs < 0) return 'in the past';
  const h = deltaMs / 3_600_000;
  return h < 48 ? `${Math.round(h * 10) / 10} hours ahead` : `${Math.round((h / 24) * 10) / 10} days ahead`;
}

export interface TransferForm {
  siteId: string;
  destinationAccountId: string;
  /** Undefined = immediately. */
  scheduledTime?: Date;
  maintenanceMode: boolean;
}

/**
 * Validates the whole form as it will be sent (so a confirmation that sat open past the window is
 * caught) and returns the request body. Throws HostingValidationError.
 */
export function transferRequestFromForm(form: TransferForm, nowMs: number): TransferRequest {
  const siteError = validateUuidInput(form.siteId, 'site id');
  if (siteError) throw new HostingValidationError(siteError, 'site_id');
  return prepareTransfer({ destinationAccountId: form.destinationAccountId.trim(), scheduledTime: form.scheduledTime, maintenanceMode: form.maintenanceMode }, nowMs);
}

/** The modal confirmation's detail text: everything that will be sent, in plain words. */
export function transferSummary(form: TransferForm): string {
  return [
    `Site: ${form.siteId.trim()}`,
    `Destination account: ${form.destinationAccountId.trim()}`,
    `When: ${form.scheduledTime ? `scheduled for ${form.scheduledTime.toISOString()} (UTC)` : 'immediately'}`,
    `Maintenance mode during the transfer: ${form.maintenanceMode ? 'yes' : 'no'}`,
    '',
    'The site and all its installs move to the destination account. You can cancel until the transfer starts.',
  ].join('\n');
}

/** One or two sentences describing a transfer returned by the API. */
export function describeTransfer(t: SiteTransfer): string {
  const when = t.scheduled_time ? `scheduled for ${t.scheduled_time}` : 'immediate';
  const installs = t.installs.length ? ` (installs: ${t.installs.join(', ')})` : '';
  return `Transfer of site '${t.site}'${installs} from ${t.origin_account} to ${t.destination_account}: status ${t.status}, ${when}. Transfer ID ${t.id}.`;
}

export type HostingAction = 'setCredentials' | 'openSettings' | 'openDocs' | 'retry';

export interface HostingErrorText {
  message: string;
  actions: HostingAction[];
}

/** Duck-typed: the HostingError class of the lazily loaded core chunk is not the one this module sees. */
export function isHostingError(e: unknown): e is HostingError {
  return typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'HostingError' && typeof (e as { reason?: unknown }).reason === 'string';
}

export type HostingOperation = 'readExclusions' | 'saveExclusions' | 'transfer' | 'cancelTransfer';

const WHAT: Record<HostingOperation, string> = {
  readExclusions: 'Reading cache exclusions',
  saveExclusions: 'Saving cache exclusions',
  transfer: 'Requesting the site transfer',
  cancelTransfer: 'Cancelling the site transfer',
};

/** Words for a hosting failure at the edge, with the actions that help. */
export function hostingErrorText(e: HostingError, op: HostingOperation): HostingErrorText {
  const detail = describeHostingError(e);
  const actions: HostingAction[] = [];
  let message: string;
  switch (e.reason) {
    case 'authentication':
      message = `The hosting API refused the credentials (401): ${detail}. Set your hosting API username and password.`;
      actions.push('setCredentials');
      break;
    case 'permission':
      message = `Not allowed (403): ${detail}. Your user needs the right access on this install, site or account.`;
      break;
    case 'not_found':
      message = `Not found (404): ${detail}. Check the id.`;
      break;
    case 'conflict':
      message = conflictText(op, detail);
      break;
    case 'invalid_request':
    case 'validation':
      message = `Refused (${e.status}): ${detail}.`;
      break;
    case 'throttled':
    case 'unavailable':
    case 'server':
    case 'timeout':
      message = `${detail}.`;
      actions.push('retry');
      break;
    case 'network':
      message = `${detail}. Check aiGateway.hosting.baseUrl and your proxy settings.`;
      actions.push('openSettings', 'retry');
      break;
    default:
      message = `${detail}.`;
  }
  if (e.documentationUrl) actions.push('openDocs');
  // A refusal (4xx) changed nothing; after a 500, a 503 or a lost connection the write may have been
  // applied (the client never retries writes), so say so instead of promising the opposite.
  const refused = ['invalid_request', 'authentication', 'permission', 'not_found', 'conflict', 'validation', 'throttled'].includes(e.reason);
  let tail = '';
  if (op === 'saveExclusions' && e.reason !== 'aborted') {
    tail = refused
      ? ' Your edits are kept in the editor; nothing was changed on the server.'
      : ' Your edits are kept in the editor; the server may or may not have applied them (close and reopen the document to see its list).';
  } else if ((op === 'transfer' || op === 'cancelTransfer') && e.reason === 'conflict') {
    tail = ' Nothing was changed.';
  }
  return { message: `${WHAT[op]}: ${message.replace(/\.\.$/, '.')}${tail}`, actions };
}

function conflictText(op: HostingOperation, detail: string): string {
  switch (op) {
    case 'saveExclusions':
      return `the install is transferable, so its cache exclusions cannot be modified until the transfer is done or cancelled (409: ${detail}).`;
    case 'cancelTransfer':
      return `the transfer has already started and can no longer be cancelled (409: ${detail}).`;
    case 'transfer':
      return `the site already has an active transfer, is not in a transferable state, or the destination account is not eligible (409: ${detail}).`;
    default:
      return `conflict (409): ${detail}.`;
  }
}

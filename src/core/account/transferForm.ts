/**
 * Site transfer and cancel forms (vscode-free): per-field validation for the input boxes, the
 * confirmation summary and the result text. Hosting API failures are put into words by src/core/errorText.ts.
 */
import { isCalendarDate } from './usageReport';
import { HostingValidationError, MAX_SCHEDULE_MS, MIN_SCHEDULE_MS, isUuid, prepareTransfer, type SiteTransfer, type TransferRequest } from '../hosting/hosting';

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
  const n = h < 48 ? Math.round(h * 10) / 10 : Math.round((h / 24) * 10) / 10;
  return `${n} ${h < 48 ? 'hour' : 'day'}${n === 1 ? '' : 's'} ahead`;
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


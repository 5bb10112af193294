/**
 * Site transfer and cancel forms (vscode-free): per-field validation for the input boxes, the
 * confirmation summary and the result text. Hosting API failures are put into words by src/core/errorText.ts.
 */
import * as l10n from '../l10n';
import { isCalendarDate } from './usageReport';
import { HostingValidationError, MAX_SCHEDULE_MS, MIN_SCHEDULE_MS, isUuid, prepareTransfer, type SiteTransfer, type TransferRequest } from './hosting';

/** Input-box validator for a UUID field: undefined when valid, else the sentence to show. */
export function validateUuidInput(value: string, what: string): string | undefined {
  const v = value.trim();
  if (v === '') return l10n.t('Enter the {0} (a UUID).', what);
  return isUuid(v) ? undefined : l10n.t('The {0} must be a UUID such as {1}.', what, '4c5d6e7f-8091-42a3-b485-d6e7f8091008');
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
    if (!m) {
      const ex = scheduleExamples(nowMs);
      return { error: l10n.t('Use a date-time such as {0} (UTC), {1}, or a relative time such as +2h or +3d.', ex.utc, ex.withOffset) };
    }
    ms = Date.parse(`${m[1]}T${m[2]}${m[3] ? m[3].toUpperCase() : 'Z'}`);
    if (Number.isNaN(ms) || !isCalendarDate(m[1])) return { error: l10n.t("'{0}' is not a valid date-time.", t) };
  }
  const delta = ms - nowMs;
  if (delta < MIN_SCHEDULE_MS) return { error: l10n.t('The scheduled time must be at least 1 hour ahead (that is {0}).', describeAhead(delta)) };
  if (delta > MAX_SCHEDULE_MS) return { error: l10n.t('The scheduled time must be at most 7 days ahead (that is {0}).', describeAhead(delta)) };
  return { date: new Date(ms) };
}

/**
 * Example times for the scheduled-time prompt, relative to now (#41.11): tomorrow at 14:00 UTC, which
 * always lies inside the allowed window (10 to 38 hours ahead), written both ways the box accepts.
 */
export function scheduleExamples(nowMs: number): { utc: string; withOffset: string } {
  const day = new Date(Math.floor(nowMs / 86_400_000) * 86_400_000 + 86_400_000);
  const date = day.toISOString().slice(0, 10);
  return { utc: `${date} 14:00`, withOffset: `${date}T15:00+01:00` };
}

/** A moment as people read it (#41.10): "2026-11-30 14:00 UTC", seconds only when there are some, never milliseconds. */
export function formatUtcTime(d: Date): string {
  const iso = d.toISOString();
  const seconds = iso.slice(17, 19);
  return l10n.t('{0} UTC', `${iso.slice(0, 10)} ${iso.slice(11, 16)}${seconds === '00' ? '' : `:${seconds}`}`);
}

/** A time the hosting API sent (RFC 3339), shown as formatUtcTime; anything else verbatim. */
export function formatApiTime(text: string): string {
  if (text.length > 64 || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)) return text;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? text : formatUtcTime(new Date(ms));
}

/** "blog (4c5d…-…)" when the API named it, else the bare id. */
export function namedId(name: string | undefined, id: string): string {
  return name?.trim() ? l10n.t('{0} ({1})', name.trim(), id) : id;
}

/**
 * A hosting resource in a dialog's detail (#41.10): `line` shows its name (or that none is known yet:
 * the hosting API names a site and an account only in a transfer's answer), and its id follows alone on
 * the next line, as secondary detail short enough for a modal's width, so it never wraps mid-id.
 */
export function namedIdLines(line: (shown: string) => string, name: string | undefined, id: string): string {
  return `${line(name?.trim() || l10n.t('name not known yet'))}\n${l10n.t('ID: {0}', id)}`;
}

function describeAhead(deltaMs: number): string {
  if (deltaMs < 0) return l10n.t('in the past');
  const h = deltaMs / 3_600_000;
  const n = h < 48 ? Math.round(h * 10) / 10 : Math.round((h / 24) * 10) / 10;
  const shown = n.toLocaleString(l10n.displayLocale());
  if (h < 48) return n === 1 ? l10n.t('1 hour ahead') : l10n.t('{0} hours ahead', shown);
  return n === 1 ? l10n.t('1 day ahead') : l10n.t('{0} days ahead', shown);
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
  const siteError = validateUuidInput(form.siteId, l10n.t('site id'));
  if (siteError) throw new HostingValidationError(siteError, 'site_id');
  return prepareTransfer({ destinationAccountId: form.destinationAccountId.trim(), scheduledTime: form.scheduledTime, maintenanceMode: form.maintenanceMode }, nowMs);
}

/**
 * The modal confirmation's detail text: everything that will be sent, in plain words; the site and
 * account by the names the API gave them before (#41.10), with their ids.
 */
export function transferSummary(form: TransferForm, names: { site?: string; destination?: string } = {}): string {
  return [
    namedIdLines((n) => l10n.t('Site: {0}', n), names.site, form.siteId.trim()),
    namedIdLines((n) => l10n.t('Destination account: {0}', n), names.destination, form.destinationAccountId.trim()),
    form.scheduledTime ? l10n.t('When: scheduled for {0}', formatUtcTime(form.scheduledTime)) : l10n.t('When: immediately'),
    form.maintenanceMode ? l10n.t('Maintenance mode during the transfer: yes') : l10n.t('Maintenance mode during the transfer: no'),
    '',
    l10n.t('The site and all its installs move to the destination account. You can cancel until the transfer starts.'),
  ].join('\n');
}

/** One or two sentences describing a transfer returned by the API. */
export function describeTransfer(t: SiteTransfer): string {
  const when = t.scheduled_time ? l10n.t('scheduled for {0}', formatApiTime(t.scheduled_time)) : l10n.t({ message: 'immediate', comment: ['a site transfer that starts at once'] });
  return t.installs.length
    ? l10n.t("Transfer of site '{0}' (installs: {1}) from {2} to {3}: status {4}, {5}. Transfer ID {6}.", t.site, t.installs.join(', '), t.origin_account, t.destination_account, t.status, when, t.id)
    : l10n.t("Transfer of site '{0}' from {1} to {2}: status {3}, {4}. Transfer ID {5}.", t.site, t.origin_account, t.destination_account, t.status, when, t.id);
}


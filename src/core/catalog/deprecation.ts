/**
 * Deprecation arithmetic (G-CAT-10/11/12), in whole UTC days.
 *
 * Assumption (spec: not shown): `deprecation_date` and `removal_date` are calendar dates in UTC, and a
 * date "has passed" from 00:00 UTC of that day on. So a model is removed ON its removal_date (the spec
 * calls it "the date the model stops being served") and deprecated ON its deprecation_date (the date
 * the deprecation was announced). The day before, "removed in 1 day" is shown.
 *
 * Assumption (spec: not shown): a model with a future `removal_date` but no passed `deprecation_date`
 * is shown as deprecated too: its removal is already scheduled, and hiding that would let users pick a
 * model that is about to disappear.
 */
import * as l10n from '../l10n';
import type { Model } from '../gateway/types';

const MS_PER_DAY = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export type ModelState = 'active' | 'deprecated' | 'removed';

export interface ModelLifecycle {
  state: ModelState;
  /** Parsed deprecation date (YYYY-MM-DD, verbatim) when present and valid. */
  deprecationDate?: string;
  /** Parsed removal date (YYYY-MM-DD, verbatim) when present and valid. */
  removalDate?: string;
  /** Whole UTC days from today until removal; only while the model is not yet removed and a date exists. */
  daysUntilRemoval?: number;
}

/**
 * Days since 1970-01-01 for a strict `YYYY-MM-DD` date, or undefined when the string is not a real
 * calendar date (2026-02-30 is rejected, not rolled over).
 */
export function parseUtcDay(date: string | undefined): number | undefined {
  if (typeof date !== 'string') return undefined;
  const m = DATE_RE.exec(date);
  if (!m) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const ms = Date.UTC(y, mo - 1, d);
  const check = new Date(ms);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return undefined;
  return ms / MS_PER_DAY;
}

/** The UTC calendar day (days since epoch) that contains the instant `now`. */
export function utcDayOf(now: Date | number): number {
  const ms = typeof now === 'number' ? now : now.getTime();
  return Math.floor(ms / MS_PER_DAY);
}

export function modelLifecycle(model: Pick<Model, 'deprecation_date' | 'removal_date'>, now: Date | number): ModelLifecycle {
  const today = utcDayOf(now);
  const dep = parseUtcDay(model.deprecation_date);
  const rem = parseUtcDay(model.removal_date);
  const out: ModelLifecycle = { state: 'active' };
  if (dep !== undefined) out.deprecationDate = model.deprecation_date;
  if (rem !== undefined) out.removalDate = model.removal_date;
  if (rem !== undefined && today >= rem) {
    out.state = 'removed';
    return out;
  }
  if (rem !== undefined) out.daysUntilRemoval = rem - today;
  if ((dep !== undefined && today >= dep) || rem !== undefined) out.state = 'deprecated';
  return out;
}

/** "removed in 3 days" / "removed in 1 day"; undefined when no removal is scheduled. */
export function removalPhrase(lifecycle: ModelLifecycle): string | undefined {
  const n = lifecycle.daysUntilRemoval;
  if (n === undefined) return undefined;
  if (n === 1) return l10n.t('removed in 1 day');
  return l10n.t('removed in {0} days', n.toLocaleString(l10n.displayLocale()));
}

/**
 * The hosting ids the user gave before (install, site, account, transfer), with the names the hosting
 * API reported for them, so the next command offers them in a pick list instead of asking for a UUID
 * from memory (#29.2). vscode-free; the editor keeps the list in globalState.
 *
 * The hosting API documents no route that lists installs, sites or accounts ("fields of install, site
 * and account resources beyond their identifiers: not shown"), so names come from the answers it does
 * give: a transfer names its site (`site`), the site's installs and both accounts. An id is remembered
 * only after the API accepted it (a read or write succeeded), never a mistyped one.
 */
import { isUuid } from './hosting';
import type { SiteTransfer } from './hosting';

export type HostingIdKind = 'install' | 'site' | 'account' | 'transfer';

export interface RecentId {
  kind: HostingIdKind;
  id: string;
  /** What the API calls it, when it said. */
  name?: string;
  /** For a transfer: the site it belongs to. */
  siteId?: string;
  /** Epoch ms of the last use. */
  usedAt: number;
}

/** The most ids kept per kind. */
export const MAX_RECENT_PER_KIND = 15;

/** Reads a stored list defensively (globalState may hold anything an older version wrote). */
export function readRecentIds(stored: unknown): RecentId[] {
  if (!Array.isArray(stored)) return [];
  const kinds: readonly string[] = ['install', 'site', 'account', 'transfer'];
  return stored.filter(
    (r): r is RecentId =>
      typeof r === 'object' &&
      r !== null &&
      kinds.includes((r as RecentId).kind) &&
      typeof (r as RecentId).id === 'string' &&
      isUuid((r as RecentId).id) &&
      typeof (r as RecentId).usedAt === 'number' &&
      ((r as RecentId).name === undefined || typeof (r as RecentId).name === 'string'),
  );
}

/**
 * Records a use: the entry moves to the front of its kind, keeps a known name unless a new one is
 * given, and each kind is cut to MAX_RECENT_PER_KIND (the oldest go).
 */
export function rememberId(list: readonly RecentId[], entry: Omit<RecentId, 'usedAt'> & { usedAt?: number }, now: number): RecentId[] {
  const id = entry.id.toLowerCase();
  const old = list.find((r) => r.kind === entry.kind && r.id === id);
  const name = entry.name?.trim() ? entry.name.trim().slice(0, 120) : old?.name;
  const next: RecentId = { kind: entry.kind, id, usedAt: entry.usedAt ?? now, ...(name ? { name } : {}), ...((entry.siteId ?? old?.siteId) ? { siteId: (entry.siteId ?? old?.siteId)?.toLowerCase() } : {}) };
  const rest = list.filter((r) => !(r.kind === entry.kind && r.id === id));
  const merged = [next, ...rest].sort((a, b) => b.usedAt - a.usedAt);
  const perKind = new Map<HostingIdKind, number>();
  return merged.filter((r) => {
    const n = (perKind.get(r.kind) ?? 0) + 1;
    perKind.set(r.kind, n);
    return n <= MAX_RECENT_PER_KIND;
  });
}

/** What a transfer answer teaches: the site's name, and the transfer itself (for Cancel Site Transfer). */
export function idsFromTransfer(siteId: string, destinationAccountId: string, t: Pick<SiteTransfer, 'id' | 'site' | 'destination_account'>): Array<Omit<RecentId, 'usedAt'>> {
  return [
    { kind: 'site', id: siteId, name: t.site },
    { kind: 'account', id: destinationAccountId, name: t.destination_account },
    { kind: 'transfer', id: t.id, name: `transfer of ${t.site}`, siteId },
  ];
}

export interface IdChoice {
  id: string;
  label: string;
  description?: string;
  detail?: string;
  /** Where the choice comes from: a recent use, the clipboard, or what was typed. */
  source: 'recent' | 'clipboard' | 'typed';
}

/**
 * The choices for a pick list of `kind`: recent ids first (newest first, named when the API named
 * them), then a UUID found in the clipboard, then what the user typed when it is a UUID. `filter`
 * narrows transfers to one site.
 */
export function idChoices(list: readonly RecentId[], kind: HostingIdKind, options: { clipboard?: string; typed?: string; siteId?: string; now: number }): IdChoice[] {
  const out: IdChoice[] = [];
  const seen = new Set<string>();
  for (const r of list) {
    if (r.kind !== kind || (options.siteId && kind === 'transfer' && r.siteId !== options.siteId.toLowerCase())) continue;
    seen.add(r.id);
    out.push({ id: r.id, label: r.name ?? r.id, description: r.name ? r.id : undefined, detail: `used ${ago(options.now - r.usedAt)}`, source: 'recent' });
  }
  const clip = options.clipboard?.trim().toLowerCase();
  if (clip && isUuid(clip) && !seen.has(clip)) {
    seen.add(clip);
    out.push({ id: clip, label: clip, description: 'from the clipboard', source: 'clipboard' });
  }
  const typed = options.typed?.trim().toLowerCase();
  if (typed && isUuid(typed) && !seen.has(typed)) out.unshift({ id: typed, label: typed, description: 'the id you pasted or typed', source: 'typed' });
  return out;
}

function ago(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  const days = Math.round(hours / 24);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

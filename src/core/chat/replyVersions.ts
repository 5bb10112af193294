/**
 * Regenerate keeps versions (#29.8): a regenerated reply keeps the replies it replaced as versions
 * the user can flip between ("‹ 2/3 ›"), saved with the conversation. Pure functions over the stored
 * message: the version shown is the message's own fields; the others are in `versions`, and
 * `versionAt` says where the shown one sits among them. Only the shown version is sent to the model.
 */
import type { Conversation, ReplyVersion, StoredMessage } from './conversation';

/** At most this many versions per reply are kept (the oldest go first). */
export const MAX_VERSIONS = 10;

const FIELDS = ['content', 'status', 'createdAt', 'modelId', 'usage', 'costNano', 'requestId', 'error', 'stopped', 'stopNote', 'costEstimated', 'costBasis', 'finish', 'toolCalls', 'rounds'] as const;

/** The fields of `m` that make up one version. */
export function versionOf(m: StoredMessage): ReplyVersion {
  const v: Record<string, unknown> = {};
  for (const k of FIELDS) if (m[k] !== undefined) v[k] = m[k];
  return v as ReplyVersion;
}

/** Every version of a reply, oldest first (the shown one at its place). */
export function allVersions(m: StoredMessage): ReplyVersion[] {
  const others = m.versions ?? [];
  const at = Math.min(Math.max(0, m.versionAt ?? others.length), others.length);
  return [...others.slice(0, at), versionOf(m), ...others.slice(at)];
}

/** `m` showing `v`, with `others` as its other versions (the shown one at index `at`). */
function showing(m: StoredMessage, v: ReplyVersion, others: ReplyVersion[], at: number): StoredMessage {
  const base: StoredMessage = { ...m };
  for (const k of FIELDS) delete base[k];
  delete base.versions;
  delete base.versionAt;
  return { ...base, ...v, ...(others.length ? { versions: others, versionAt: at } : {}) } as StoredMessage;
}

/**
 * The fresh reply of a Regenerate, carrying the versions of the reply it replaces (`previous`, if it
 * was a reply) as its earlier versions; the newest is shown. Bounded by MAX_VERSIONS.
 */
export function withEarlierVersions(previous: StoredMessage | undefined): Pick<StoredMessage, 'versions' | 'versionAt'> {
  if (!previous || previous.role !== 'assistant') return {};
  const earlier = allVersions(previous).slice(-(MAX_VERSIONS - 1));
  return earlier.length ? { versions: earlier, versionAt: earlier.length } : {};
}

/** `m` showing its version `index` (0-based, oldest first); undefined when there is no such version. */
export function selectVersion(m: StoredMessage, index: number): StoredMessage | undefined {
  const all = allVersions(m);
  if (!Number.isSafeInteger(index) || index < 0 || index >= all.length || all.length < 2) return undefined;
  const others = all.filter((_, i) => i !== index);
  return showing(m, all[index], others, index);
}

/** Every cost a reply's versions ran up (all were billed), as decimal nanocredit strings. */
export function versionCosts(m: StoredMessage): string[] {
  return [m.costNano, ...(m.versions ?? []).map((v) => v.costNano)].filter((x): x is string => x !== undefined);
}

/**
 * A conversation as read from disk with a Regenerate that never finished (the window reloaded while
 * the fresh reply streamed): the replaced reply, with its versions, is its reply again. The marker is
 * dropped in every case; one that is malformed (a hand-edited file) is ignored. Unchanged without one.
 */
export function restoreInterruptedRegenerate(conv: Conversation): Conversation {
  if (conv.regenerating === undefined) return conv;
  const { regenerating, ...rest } = conv;
  const last = rest.messages.at(-1);
  const previous: unknown = (regenerating as { previous?: unknown } | null)?.previous;
  if (!last || last.role !== 'user' || last.id !== (regenerating as { after?: unknown } | null)?.after || !isReply(previous)) return rest;
  const bounded: StoredMessage = { ...previous, ...(previous.versions ? { versions: previous.versions.slice(-(MAX_VERSIONS - 1)) } : {}) };
  if (bounded.versionAt !== undefined && bounded.versions) bounded.versionAt = Math.min(Math.max(0, bounded.versionAt), bounded.versions.length);
  return { ...rest, messages: [...rest.messages, bounded] };
}

function isReply(m: unknown): m is StoredMessage {
  if (typeof m !== 'object' || m === null) return false;
  const r = m as Record<string, unknown>;
  return (
    typeof r.id === 'string' &&
    r.role === 'assistant' &&
    typeof r.content === 'string' &&
    (r.versions === undefined || (Array.isArray(r.versions) && r.versions.every((v) => typeof v === 'object' && v !== null && typeof (v as { content?: unknown }).content === 'string'))) &&
    (r.versionAt === undefined || Number.isSafeInteger(r.versionAt))
  );
}

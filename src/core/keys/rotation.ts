/**
 * Key rotation as a pure state machine (G-AUTH-8: keys never expire and there is no rotation
 * endpoint; rotating means adding a replacement of the same type, confirming it works, switching to
 * it, revoking the old key in the portal, and only then forgetting the old key; both keys work
 * side by side meanwhile). `rotationReducer` is pure; `runRotation` drives it over a KeyStore with
 * the editor's prompts handed in, so the whole flow runs in plain Node tests.
 *
 * Safety rules the machine enforces:
 * - A replacement of the other type is refused before anything is stored.
 * - Until verification succeeds the old key stays active; a failed verification removes nothing
 *   (the replacement stays saved, unused, so the user can retry or remove it deliberately).
 * - Verification is the per-scope check (scopeCheck.ts), not the single chat probe: a replacement
 *   that can use any checked scope works (a tool-server-only key is not "lacking chat"). Its scopes
 *   are compared with the old key's (the spec: a replacement has the same type and permissions); when
 *   they differ the user is told which, and nothing switches until they choose to (Escape stops).
 * - The old key is forgotten only after the user says it was revoked (G-AUTH-9: revocation is
 *   irreversible, so it is the user's deliberate act in the portal, never ours).
 */
import * as l10n from '../l10n';
import { CHECKED_SCOPES, levelWords, type CheckedScope, type ScopeFinding, type ScopeFindingLevel, type ScopeReport } from './scopeCheck';
import { type KeyInfo, KeyInputError, type KeyStore } from './keyStore';
import type { KeyType } from './keyType';
import { parseKey } from './keyType';

export const PORTAL_PATH = 'AI, Gateways & API, API Keys';

export type RotationState =
  | { step: 'awaiting-replacement'; old: KeyInfo; error?: string }
  | { step: 'adding'; old: KeyInfo; name: string }
  | { step: 'verifying'; old: KeyInfo; replacement: KeyInfo }
  | { step: 'verify-failed'; old: KeyInfo; replacement: KeyInfo; result: Extract<ReplacementCheck, { kind: 'failed' }> }
  | { step: 'scopes-differ'; old: KeyInfo; replacement: KeyInfo; result: Extract<ReplacementCheck, { kind: 'usable' }> }
  | { step: 'switching'; old: KeyInfo; replacement: KeyInfo }
  | { step: 'awaiting-revoke'; old: KeyInfo; replacement: KeyInfo }
  | { step: 'removing-old'; old: KeyInfo; replacement: KeyInfo }
  | { step: 'done'; old: KeyInfo; replacement: KeyInfo }
  | { step: 'cancelled'; old: KeyInfo; replacement?: KeyInfo; activeId: string };

export type RotationEvent =
  | { type: 'replacement-entered'; name: string; keyType: KeyType }
  | { type: 'add-failed'; message: string }
  | { type: 'replacement-added'; replacement: KeyInfo }
  | { type: 'verified'; result: ReplacementCheck }
  | { type: 'retry' }
  | { type: 'accept-differences' }
  | { type: 'switched' }
  | { type: 'revoke-confirmed' }
  | { type: 'old-removed' }
  | { type: 'cancel' };

export class RotationTransitionError extends Error {
  constructor(state: RotationState, event: RotationEvent) {
    super(`Rotation: '${event.type}' is not allowed in step '${state.step}'.`);
    this.name = 'RotationTransitionError';
  }
}

/** A scope whose level on the replacement is not the old key's. */
export interface ScopeDifference {
  scope: CheckedScope;
  old: ScopeFindingLevel;
  replacement: ScopeFindingLevel;
}

/**
 * What verification found: `usable` when the gateway let the replacement through for at least one
 * checked scope (`differences` from the old key's scopes, `compared` false when the old key's could not
 * be read); `failed` otherwise (refused, an account problem, no answer, or no usable scope at all).
 */
export type ReplacementCheck =
  | { kind: 'usable'; findings: ScopeFinding[]; differences: ScopeDifference[]; compared: boolean }
  | { kind: 'failed'; report: ScopeReport };

/** The levels a finding allows: `not-write` is read or none; `unknown` says nothing (compared with nothing). */
function levelsOf(level: ScopeFindingLevel): readonly string[] {
  return level === 'not-write' ? ['read', 'none'] : level === 'unknown' ? [] : [level];
}

/**
 * The scopes whose levels certainly differ between the two checks (a scope without an answer on either
 * side is not compared; "read or none" differs from "read" only when it cannot be read).
 */
export function scopeDifferences(old: readonly ScopeFinding[], replacement: readonly ScopeFinding[]): ScopeDifference[] {
  const out: ScopeDifference[] = [];
  for (const scope of CHECKED_SCOPES) {
    const a = old.find((f) => f.scope === scope)?.level ?? 'unknown';
    const b = replacement.find((f) => f.scope === scope)?.level ?? 'unknown';
    const la = levelsOf(a);
    const lb = levelsOf(b);
    if (la.length > 0 && lb.length > 0 && !la.some((l) => lb.includes(l))) out.push({ scope, old: a, replacement: b });
  }
  return out;
}

/** Verification's verdict from the replacement's per-scope report and the old key's (undefined: not read). */
export function replacementCheck(replacement: ScopeReport, old: ScopeReport | undefined): ReplacementCheck {
  if (replacement.kind !== 'scopes' || !replacement.findings.some((f) => f.level === 'write' || f.level === 'read')) return { kind: 'failed', report: replacement };
  const compared = old?.kind === 'scopes';
  return { kind: 'usable', findings: replacement.findings, differences: compared ? scopeDifferences(old.findings, replacement.findings) : [], compared };
}

/** The warning when the replacement's permissions differ, naming each scope ("mcp: write → none"). Never contains a key. */
export function describeScopeDifferences(oldName: string, replacementName: string, differences: readonly ScopeDifference[]): string {
  const list = differences.map((d) => `${d.scope}: ${levelWords(d.old)} → ${levelWords(d.replacement)}`).join(', ');
  return l10n.t(
    'The replacement "{0}" does not have the same permissions as "{1}" ({2}). A replacement should be created with the same type and permissions; after switching, whatever needs a scope it lacks stops working.',
    replacementName,
    oldName,
    list,
  );
}

export function startRotation(old: KeyInfo): RotationState {
  return { step: 'awaiting-replacement', old };
}

/** Pure: the next state, or a RotationTransitionError for an event the current step cannot take. */
export function rotationReducer(state: RotationState, event: RotationEvent): RotationState {
  const invalid = () => new RotationTransitionError(state, event);
  if (event.type === 'cancel') {
    switch (state.step) {
      case 'done':
      case 'cancelled':
      case 'switching':
      case 'removing-old':
        throw invalid();
      case 'awaiting-revoke':
        // Already switched: both keys stay saved, the replacement stays active.
        return { step: 'cancelled', old: state.old, replacement: state.replacement, activeId: state.replacement.id };
      case 'verifying':
      case 'verify-failed':
      case 'scopes-differ':
        return { step: 'cancelled', old: state.old, replacement: state.replacement, activeId: state.old.id };
      default:
        return { step: 'cancelled', old: state.old, activeId: state.old.id };
    }
  }
  switch (state.step) {
    case 'awaiting-replacement':
      if (event.type !== 'replacement-entered') throw invalid();
      if (event.keyType !== state.old.type) {
        return {
          step: 'awaiting-replacement',
          old: state.old,
          error: l10n.t('The replacement must be a {0} key like "{1}", not a {2} key. Create a {0} key with the same permissions.', state.old.type, state.old.name, event.keyType),
        };
      }
      return { step: 'adding', old: state.old, name: event.name };
    case 'adding':
      if (event.type === 'add-failed') return { step: 'awaiting-replacement', old: state.old, error: event.message };
      if (event.type !== 'replacement-added') throw invalid();
      if (event.replacement.type !== state.old.type) throw invalid();
      return { step: 'verifying', old: state.old, replacement: event.replacement };
    case 'verifying':
      if (event.type !== 'verified') throw invalid();
      if (event.result.kind === 'failed') return { step: 'verify-failed', old: state.old, replacement: state.replacement, result: event.result };
      return event.result.differences.length > 0
        ? { step: 'scopes-differ', old: state.old, replacement: state.replacement, result: event.result }
        : { step: 'switching', old: state.old, replacement: state.replacement };
    case 'verify-failed':
      if (event.type !== 'retry') throw invalid();
      return { step: 'verifying', old: state.old, replacement: state.replacement };
    case 'scopes-differ':
      if (event.type === 'retry') return { step: 'verifying', old: state.old, replacement: state.replacement };
      if (event.type !== 'accept-differences') throw invalid();
      return { step: 'switching', old: state.old, replacement: state.replacement };
    case 'switching':
      if (event.type !== 'switched') throw invalid();
      return { step: 'awaiting-revoke', old: state.old, replacement: state.replacement };
    case 'awaiting-revoke':
      if (event.type !== 'revoke-confirmed') throw invalid();
      return { step: 'removing-old', old: state.old, replacement: state.replacement };
    case 'removing-old':
      if (event.type !== 'old-removed') throw invalid();
      return { step: 'done', old: state.old, replacement: state.replacement };
    case 'done':
    case 'cancelled':
      throw invalid();
  }
}

/** The prompts of the guided flow. Returning undefined means the user cancelled. */
export interface RotationPrompts {
  /** Ask for the replacement's name and secret; `state.error` is the reason the last one was refused. */
  askReplacement(state: Extract<RotationState, { step: 'awaiting-replacement' }>): Promise<{ name: string; secret: string } | undefined>;
  /** Verification failed: retry (after fixing scopes in the portal) or stop. */
  askAfterVerifyFailure(state: Extract<RotationState, { step: 'verify-failed' }>): Promise<'retry' | undefined>;
  /**
   * The replacement works but its permissions differ from the old key's (state.result.differences):
   * switch anyway, retry (after fixing them in the portal), or stop (undefined, the default: the old
   * key stays active).
   */
  askAboutDifferences(state: Extract<RotationState, { step: 'scopes-differ' }>): Promise<'switch' | 'retry' | undefined>;
  /** Tell the user to revoke the old key at PORTAL_PATH; resolve true once they say they did. */
  askRevokeConfirmed(state: Extract<RotationState, { step: 'awaiting-revoke' }>): Promise<boolean>;
}

export interface RotationDeps {
  store: KeyStore;
  prompts: RotationPrompts;
  /**
   * The live per-scope check of the given secret (scopeCheck.ts checkKeyScopes): run on the
   * replacement, and once on the old key to compare their permissions. Bills nothing.
   */
  checkScopes(secret: string): Promise<ScopeReport>;
  /** Observes every state, for progress and tests. */
  onState?(state: RotationState): void;
}

/**
 * Runs the rotation of `oldId` to its end. Returns the final state ('done' or 'cancelled'). When the
 * replacement had a temporary name, it takes over the old key's name once the old key is gone.
 */
export async function runRotation(oldId: string, deps: RotationDeps): Promise<RotationState> {
  const old = deps.store.get(oldId);
  if (!old) throw new KeyInputError('That API key no longer exists.');
  let state = startRotation(old);
  let secret = '';
  let oldReport: ScopeReport | undefined;
  const next = (event: RotationEvent) => {
    state = rotationReducer(state, event);
    deps.onState?.(state);
  };
  deps.onState?.(state);

  for (;;) {
    switch (state.step) {
      case 'awaiting-replacement': {
        const answer = await deps.prompts.askReplacement(state);
        if (!answer) {
          next({ type: 'cancel' });
          break;
        }
        const parsed = parseKey(answer.secret);
        if (!parsed.ok) {
          state = { step: 'awaiting-replacement', old, error: parsed.message };
          deps.onState?.(state);
          break;
        }
        secret = parsed.secret;
        next({ type: 'replacement-entered', name: answer.name, keyType: parsed.type });
        break;
      }
      case 'adding':
        try {
          next({ type: 'replacement-added', replacement: await deps.store.add(state.name, secret, { activate: false }) });
        } catch (e) {
          if (!(e instanceof KeyInputError)) throw e;
          next({ type: 'add-failed', message: e.message });
        }
        break;
      case 'verifying': {
        const replacement = await deps.checkScopes(secret);
        if (replacement.kind === 'scopes' && oldReport?.kind !== 'scopes') {
          // The old key's scopes, read once (it may already be revoked: then they are not compared).
          const oldSecret = await deps.store.getSecret(old.id);
          oldReport = oldSecret ? await deps.checkScopes(oldSecret) : undefined;
        }
        next({ type: 'verified', result: replacementCheck(replacement, oldReport) });
        break;
      }
      case 'verify-failed':
        next((await deps.prompts.askAfterVerifyFailure(state)) === 'retry' ? { type: 'retry' } : { type: 'cancel' });
        break;
      case 'scopes-differ': {
        const answer = await deps.prompts.askAboutDifferences(state);
        next(answer === 'switch' ? { type: 'accept-differences' } : answer === 'retry' ? { type: 'retry' } : { type: 'cancel' });
        break;
      }
      case 'switching':
        await deps.store.switchTo(state.replacement.id);
        next({ type: 'switched' });
        break;
      case 'awaiting-revoke':
        next((await deps.prompts.askRevokeConfirmed(state)) ? { type: 'revoke-confirmed' } : { type: 'cancel' });
        break;
      case 'removing-old': {
        const { replacement } = state;
        await deps.store.remove(old.id);
        if (replacement.name === temporaryReplacementName(old.name)) {
          const renamed = await deps.store.rename(replacement.id, old.name).catch(() => replacement);
          state = { ...state, replacement: renamed };
        }
        next({ type: 'old-removed' });
        break;
      }
      case 'done':
      case 'cancelled':
        return state;
    }
  }
}

/** Default name offered for the replacement; it is renamed to the old name once the old key is gone. */
export function temporaryReplacementName(oldName: string): string {
  return `${oldName} (new)`;
}

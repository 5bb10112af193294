/**
 * Well-known keys of the local gateway. They are fake, local-only secrets, safe to print.
 *
 * Canary: when env AI_GATEWAY_CANARY_KEY is set and starts with `svc_pat_`, the gateway also accepts
 * it as a User key with Full access and `LOCAL_KEYS.userFull` returns it, so the whole suite runs with
 * a canary whose value can then be grepped for in test and log output.
 */
import { SCOPES, type KeyRecord, type Level, type Scope } from './context';

const USER_FULL = 'svc_pat_local_user_full_7f3a9c2e5b1d';

export function canaryKey(): string | undefined {
  const value = process.env.AI_GATEWAY_CANARY_KEY;
  return value !== undefined && value.startsWith('svc_pat_') && value.length > 'svc_pat_'.length ? value : undefined;
}

export const LOCAL_KEYS: {
  readonly userFull: string;
  readonly accountFull: string;
  readonly userReadOnly: string;
  readonly userChatOnly: string;
  readonly userMcpRead: string;
  readonly userSessionEvents: string;
  readonly userSearchRead: string;
  readonly revoked: string;
} = Object.freeze({
  get userFull(): string {
    return canaryKey() ?? USER_FULL;
  },
  accountFull: 'svc_local_account_full_4e8b2a6c9d0f',
  userReadOnly: 'svc_pat_local_user_readonly_2c5e8a1f7b3d',
  userChatOnly: 'svc_pat_local_user_chatonly_9a1c3e5f7b2d',
  userMcpRead: 'svc_pat_local_user_mcpread_6b8d0f2a4c1e',
  userSessionEvents: 'svc_pat_local_user_sessevents_5d7f9b1c3e2a',
  userSearchRead: 'svc_pat_local_user_searchread_8e0a2c4f6b9d',
  revoked: 'svc_pat_local_user_revoked_3f5a7c9e1b8d',
});

/** Every scope at one level. */
export function allScopes(level: Level): Record<Scope, Level> {
  return Object.fromEntries(SCOPES.map((s) => [s, level])) as Record<Scope, Level>;
}

/** Restricted keys: only chat, image, speech, transcribe and mcp can be set; the rest is none (G-AUTH-5). */
export function restrictedScopes(levels: Partial<Record<'chat' | 'image' | 'speech' | 'transcribe' | 'mcp', Level>>): Record<Scope, Level> {
  return { ...allScopes('none'), ...levels };
}

/** The key type follows from the prefix: `svc_pat_` is a User key, any other `svc_` an Account key (G-AUTH-2). */
export function keyTypeOf(secret: string): 'user' | 'account' | undefined {
  if (secret.startsWith('svc_pat_')) return 'user';
  if (secret.startsWith('svc_')) return 'account';
  return undefined;
}

/** Fresh records (callers may mutate `revoked`). */
export function localKeyRecords(): KeyRecord[] {
  const records: KeyRecord[] = [
    { secret: USER_FULL, name: 'Local user (Full access)', type: 'user', permission: 'full', scopes: allScopes('write'), revoked: false },
    { secret: LOCAL_KEYS.accountFull, name: 'Local account (Full access)', type: 'account', permission: 'full', scopes: allScopes('write'), revoked: false },
    { secret: LOCAL_KEYS.userReadOnly, name: 'Local user (Read only)', type: 'user', permission: 'read_only', scopes: allScopes('read'), revoked: false },
    {
      secret: LOCAL_KEYS.userChatOnly,
      name: 'Local user (Restricted: chat)',
      type: 'user',
      permission: 'restricted',
      scopes: restrictedScopes({ chat: 'write' }),
      revoked: false,
    },
    {
      secret: LOCAL_KEYS.userMcpRead,
      name: 'Local user (Restricted: chat, mcp read)',
      type: 'user',
      permission: 'restricted',
      scopes: restrictedScopes({ chat: 'write', mcp: 'read' }),
      revoked: false,
    },
    // Fixtures for per-scope tests of knowledge bases and agents: one scope each, set directly (these
    // scopes are not among those a Restricted key can choose, G-AUTH-5, so they model a key whose
    // grant the portal narrowed; they exist to prove the scope table, not a key the portal mints).
    {
      secret: LOCAL_KEYS.userSessionEvents,
      name: 'Local user (session_events write only)',
      type: 'user',
      permission: 'restricted',
      scopes: { ...allScopes('none'), session_events: 'write' },
      revoked: false,
    },
    {
      secret: LOCAL_KEYS.userSearchRead,
      name: 'Local user (search read only)',
      type: 'user',
      permission: 'restricted',
      scopes: { ...allScopes('none'), search: 'read' },
      revoked: false,
    },
    { secret: LOCAL_KEYS.revoked, name: 'Local user (revoked)', type: 'user', permission: 'full', scopes: allScopes('write'), revoked: true },
  ];
  const canary = canaryKey();
  if (canary !== undefined) {
    records.push({ secret: canary, name: 'Canary (User, Full access)', type: 'user', permission: 'full', scopes: allScopes('write'), revoked: false });
  }
  return records;
}

/**
 * The gateway's key table. Revocation is one-way (G-AUTH-9): a revoked secret can never be added
 * again. Keys never expire and there is no rotation: a rotation is add + revoke (G-AUTH-8).
 */
export class KeyStore {
  private readonly byId = new Map<string, KeyRecord>();

  constructor(records: readonly KeyRecord[]) {
    for (const r of records) this.byId.set(r.secret, { ...r, scopes: { ...r.scopes } });
  }

  find(secret: string): KeyRecord | undefined {
    return this.byId.get(secret);
  }

  add(record: KeyRecord): void {
    const existing = this.byId.get(record.secret);
    if (existing?.revoked) throw new Error('this key was revoked; revocation is irreversible');
    this.byId.set(record.secret, { ...record, scopes: { ...record.scopes } });
  }

  /** Returns false when the key is unknown. */
  revoke(secret: string): boolean {
    const record = this.byId.get(secret);
    if (record === undefined) return false;
    record.revoked = true;
    return true;
  }

  list(): KeyRecord[] {
    return [...this.byId.values()];
  }
}

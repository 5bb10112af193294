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
  readonly userMcpOnly: string;
  readonly revoked: string;
} = Object.freeze({
  get userFull(): string {
    return canaryKey() ?? USER_FULL;
  },
  accountFull: 'svc_local_account_full_4e8b2a6c9d0f',
  userReadOnly: 'svc_pat_local_user_readonly_2c5e8a1f7b3d',
  userChatOnly: 'svc_pat_local_user_chatonly_9a1c3e5f7b2d',
  userMcpRead: 'svc_pat_local_user_mcpread_6b8d0f2a4c1e',
  /** Restricted: mcp write, everything else none (a tool-server-only key). */
  userMcpOnly: 'svc_pat_local_user_mcponly_1d3f5b7a9c0e',
  revoked: 'svc_pat_local_user_revoked_3f5a7c9e1b8d',
});

export type Permission = KeyRecord['permission'];

/** The only scopes a Restricted key can set (G-AUTH-5); every other scope of a Restricted key is none. */
export const RESTRICTED_SCOPES = ['chat', 'image', 'speech', 'transcribe', 'mcp'] as const;
export type RestrictedScope = (typeof RESTRICTED_SCOPES)[number];

/** Every scope at one level. */
export function allScopes(level: Level): Record<Scope, Level> {
  return Object.fromEntries(SCOPES.map((s) => [s, level])) as Record<Scope, Level>;
}

/** Restricted keys: only chat, image, speech, transcribe and mcp can be set; the rest is none (G-AUTH-5). */
export function restrictedScopes(levels: Partial<Record<RestrictedScope, Level>>): Record<Scope, Level> {
  return { ...allScopes('none'), ...levels };
}

/**
 * The scopes a key gets from its permission, exactly as the spec's permissions table allows (G-AUTH-5):
 * Full access writes on every scope, Read only reads on every scope, Restricted sets the five
 * choosable scopes and nothing else. The one way the gateway builds a key's grant.
 */
export function scopesOf(permission: Permission, restricted: Partial<Record<RestrictedScope, Level>> = {}): Record<Scope, Level> {
  if (permission === 'full') return allScopes('write');
  if (permission === 'read_only') return allScopes('read');
  return restrictedScopes(restricted);
}

/** Why no key with this grant can exist (G-AUTH-5), or undefined when the portal could mint it. */
export function impossibleGrant(permission: Permission, scopes: Readonly<Record<Scope, Level>>): string | undefined {
  const expected = permission === 'restricted' ? undefined : scopesOf(permission);
  for (const scope of SCOPES) {
    const level = scopes[scope];
    if (level !== 'none' && level !== 'read' && level !== 'write') return `scope '${scope}' has no level`;
    if (expected !== undefined && level !== expected[scope]) return `a ${permission} key has ${expected[scope]} on '${scope}', not ${level}`;
    if (expected === undefined && level !== 'none' && !(RESTRICTED_SCOPES as readonly string[]).includes(scope)) {
      return `a restricted key cannot set '${scope}' (only ${RESTRICTED_SCOPES.join(', ')})`;
    }
  }
  return undefined;
}

/** The key type follows from the prefix: `svc_pat_` is a User key, any other `svc_` an Account key (G-AUTH-2). */
export function keyTypeOf(secret: string): 'user' | 'account' | undefined {
  if (secret.startsWith('svc_pat_')) return 'user';
  if (secret.startsWith('svc_')) return 'account';
  return undefined;
}

/** Fresh records (callers may mutate `revoked`). Every one is a key the portal can mint (G-AUTH-5). */
export function localKeyRecords(): KeyRecord[] {
  const key = (secret: string, name: string, permission: Permission, restricted?: Partial<Record<RestrictedScope, Level>>, revoked = false): KeyRecord => ({
    secret,
    name,
    type: keyTypeOf(secret) ?? 'user',
    permission,
    scopes: scopesOf(permission, restricted),
    revoked,
  });
  const records: KeyRecord[] = [
    key(USER_FULL, 'Local user (Full access)', 'full'),
    key(LOCAL_KEYS.accountFull, 'Local account (Full access)', 'full'),
    key(LOCAL_KEYS.userReadOnly, 'Local user (Read only)', 'read_only'),
    key(LOCAL_KEYS.userChatOnly, 'Local user (Restricted: chat)', 'restricted', { chat: 'write' }),
    key(LOCAL_KEYS.userMcpRead, 'Local user (Restricted: chat, mcp read)', 'restricted', { chat: 'write', mcp: 'read' }),
    key(LOCAL_KEYS.userMcpOnly, 'Local user (Restricted: mcp)', 'restricted', { mcp: 'write' }),
    key(LOCAL_KEYS.revoked, 'Local user (revoked)', 'full', undefined, true),
  ];
  const canary = canaryKey();
  if (canary !== undefined) records.push(key(canary, 'Canary (User, Full access)', 'full'));
  return records;
}

/** Refuses a key the spec's permissions table does not allow (G-AUTH-5): the gateway never holds one. */
function assertPossible(record: KeyRecord): void {
  const why = impossibleGrant(record.permission, record.scopes);
  if (why !== undefined) throw new Error(`no such key can exist: ${why}`);
}

/**
 * The gateway's key table. Every key in it is one the portal can mint (G-AUTH-5). Revocation is one-way (G-AUTH-9): a revoked secret can never be added
 * again. Keys never expire and there is no rotation: a rotation is add + revoke (G-AUTH-8).
 */
export class KeyStore {
  private readonly byId = new Map<string, KeyRecord>();

  constructor(records: readonly KeyRecord[]) {
    for (const r of records) {
      assertPossible(r);
      this.byId.set(r.secret, { ...r, scopes: { ...r.scopes } });
    }
  }

  find(secret: string): KeyRecord | undefined {
    return this.byId.get(secret);
  }

  add(record: KeyRecord): void {
    assertPossible(record);
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

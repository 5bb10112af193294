/**
 * The key manager's model, without `vscode`: which API keys exist, which one is active, and where
 * their secrets are. The editor layer hands in `SecretStorage` (as SecretStore) and `globalState`
 * (as StateStore); tests hand in in-memory stores.
 *
 * Invariants:
 * - A secret lives only in the SecretStore. The StateStore holds names, types, masked suffixes (last
 *   4 characters) and the active key id, never the secret.
 * - Secrets are written before the state that refers to them, and state is updated before a secret
 *   is deleted, so our own writes never leave the active key pointing at nothing. The one way that
 *   can still happen (a keyring failure, another window) surfaces as the 'missing-secret' status.
 * - Mutations run one at a time, in call order. Failed input changes nothing.
 */
import * as l10n from '../l10n';
import { randomUUID } from 'node:crypto';
import { Disposable, Emitter, type Event, type IDisposable } from '../disposables';
import { type KeyType, maskedSuffix, parseKey, sameName, validateKeyName } from './keyType';

/** The part of vscode.SecretStorage the model needs. */
export interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
  onDidChange: (listener: (e: { readonly key: string }) => unknown) => IDisposable;
}

/** The part of vscode.Memento (globalState) the model needs. */
export interface StateStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export interface KeyInfo {
  readonly id: string;
  readonly name: string;
  readonly type: KeyType;
  /** Last 4 characters of the secret. */
  readonly suffix: string;
  /** ISO timestamp. */
  readonly addedAt: string;
}

export type ActiveKeyStatus =
  | { kind: 'none' }
  | { kind: 'ok'; key: KeyInfo }
  /** The state knows the key but SecretStorage returned nothing for it: ask the user to re-enter it. */
  | { kind: 'missing-secret'; key: KeyInfo };

export type KeyChangeReason = 'added' | 'removed' | 'switched' | 'renamed' | 'restored' | 'missing-secret' | 'external';

export interface KeyChange {
  readonly reason: KeyChangeReason;
  readonly key?: KeyInfo;
}

/** Thrown for refused input; its message is meant for the user and never contains a secret. */
export class KeyInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyInputError';
  }
}

interface PersistedState {
  version: 1;
  keys: KeyInfo[];
  activeId?: string;
}

export const STATE_KEY = 'aiGateway.apiKeys';
export const SECRET_KEY_PREFIX = 'aiGateway.apiKey.';

export interface KeyStoreOptions {
  newId?: () => string;
  now?: () => Date;
}

export class KeyStore extends Disposable {
  private readonly _onDidChange = this._register(new Emitter<KeyChange>());
  /** Fires after every change: ours, another window's, or a secret found missing. */
  readonly onDidChange: Event<KeyChange> = this._onDidChange.event;

  private readonly missing = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly newId: () => string;
  private readonly now: () => Date;

  constructor(
    private readonly secrets: SecretStore,
    private readonly state: StateStore,
    options: KeyStoreOptions = {},
  ) {
    super();
    this.newId = options.newId ?? randomUUID;
    this.now = options.now ?? (() => new Date());
    this._register(
      secrets.onDidChange((e) => {
        if (e.key.startsWith(SECRET_KEY_PREFIX)) void this.onExternalSecretChange(e.key.slice(SECRET_KEY_PREFIX.length));
      }),
    );
  }

  list(): readonly KeyInfo[] {
    return this.read().keys;
  }

  get(id: string): KeyInfo | undefined {
    return this.read().keys.find((k) => k.id === id);
  }

  get active(): KeyInfo | undefined {
    const s = this.read();
    return s.keys.find((k) => k.id === s.activeId);
  }

  /** Synchronous view for the status bar; 'missing-secret' is known once a read found nothing. */
  get status(): ActiveKeyStatus {
    const key = this.active;
    if (!key) return { kind: 'none' };
    return this.missing.has(key.id) ? { kind: 'missing-secret', key } : { kind: 'ok', key };
  }

  /** `getActiveSecret` under the name the HTTP client's options use; safe to pass around unbound. */
  readonly getKey = (): Promise<string | undefined> => this.getActiveSecret();

  /**
   * The active key's secret, for the HTTP client's `getKey`. Undefined when no key is active or its
   * secret is gone (then status becomes 'missing-secret' and onDidChange fires once).
   */
  async getActiveSecret(): Promise<string | undefined> {
    const key = this.active;
    return key ? this.getSecret(key.id) : undefined;
  }

  async getSecret(id: string): Promise<string | undefined> {
    const secret = await this.secrets.get(SECRET_KEY_PREFIX + id);
    const key = this.get(id);
    if (secret === undefined && key) {
      if (!this.missing.has(id)) {
        this.missing.add(id);
        this._onDidChange.fire({ reason: 'missing-secret', key });
      }
    } else if (secret !== undefined) {
      this.missing.delete(id);
    }
    return secret;
  }

  /** Refusal message for a new key's name, or undefined (for input-box validation). */
  validateNewName(name: string, exceptId?: string): string | undefined {
    const invalid = validateKeyName(name);
    if (invalid) return invalid;
    const clash = this.list().find((k) => k.id !== exceptId && sameName(k.name, name));
    return clash ? l10n.t('A key named "{0}" already exists: choose another name.', clash.name) : undefined;
  }

  /**
   * Stores a new key. Refuses (KeyInputError, nothing changed) a bad name, a duplicate name, a
   * secret that is not a gateway key, or a secret already stored under another name. The first key
   * becomes active; later ones only when `activate` is true.
   */
  add(name: string, secretInput: string, options: { activate?: boolean } = {}): Promise<KeyInfo> {
    return this.serialize(async () => {
      const nameError = this.validateNewName(name);
      if (nameError) throw new KeyInputError(nameError);
      const parsed = parseKey(secretInput);
      if (!parsed.ok) throw new KeyInputError(parsed.message);
      const existing = await this.findBySecret(parsed.secret);
      if (existing) throw new KeyInputError(l10n.t('This key is already saved as "{0}".', existing.name));

      const info: KeyInfo = {
        id: this.newId(),
        name: name.trim(),
        type: parsed.type,
        suffix: maskedSuffix(parsed.secret),
        addedAt: this.now().toISOString(),
      };
      await this.secrets.store(SECRET_KEY_PREFIX + info.id, parsed.secret);
      const s = this.read();
      const activate = options.activate === true || s.activeId === undefined || !s.keys.some((k) => k.id === s.activeId);
      try {
        await this.write({ version: 1, keys: [...s.keys, info], activeId: activate ? info.id : s.activeId });
      } catch (e) {
        // A failed state write must not leave a secret no key entry points to.
        await this.secrets.delete(SECRET_KEY_PREFIX + info.id).then(undefined, () => undefined);
        throw e;
      }
      this._onDidChange.fire({ reason: 'added', key: info });
      return info;
    });
  }

  switchTo(id: string): Promise<KeyInfo> {
    return this.serialize(async () => {
      const s = this.read();
      const key = s.keys.find((k) => k.id === id);
      if (!key) throw new KeyInputError('That API key no longer exists.');
      if (s.activeId !== id) {
        await this.write({ ...s, activeId: id });
        this._onDidChange.fire({ reason: 'switched', key });
      }
      return key;
    });
  }

  /**
   * Forgets a key (state first, then its secret). When it was the active one, the next key in the
   * list (or the previous one, when it was last) becomes active, or none when it was the only key.
   * Returns the key that is active afterwards.
   */
  /**
   * Forgets a key. When it was the active one, `nextActiveId` names the key that becomes active
   * (null: none); without it the neighbour in the list does (for callers that already chose, e.g.
   * rotation). A `nextActiveId` that is not another saved key is refused and nothing changes.
   */
  remove(id: string, options: { nextActiveId?: string | null } = {}): Promise<KeyInfo | undefined> {
    return this.serialize(async () => {
      const s = this.read();
      const index = s.keys.findIndex((k) => k.id === id);
      if (index < 0) throw new KeyInputError('That API key no longer exists.');
      const removed = s.keys[index];
      const keys = s.keys.filter((k) => k.id !== id);
      const next = options.nextActiveId;
      if (typeof next === 'string' && !keys.some((k) => k.id === next)) throw new KeyInputError(l10n.t('The key chosen to become active no longer exists.'));
      let activeId = s.activeId;
      if (activeId === id) activeId = next === undefined ? (keys[index] ?? keys[index - 1])?.id : (next ?? undefined);
      await this.write({ version: 1, keys, activeId });
      await this.secrets.delete(SECRET_KEY_PREFIX + id);
      this.missing.delete(id);
      this._onDidChange.fire({ reason: 'removed', key: removed });
      return keys.find((k) => k.id === activeId);
    });
  }

  rename(id: string, name: string): Promise<KeyInfo> {
    return this.serialize(async () => {
      const nameError = this.validateNewName(name, id);
      if (nameError) throw new KeyInputError(nameError);
      const s = this.read();
      const key = s.keys.find((k) => k.id === id);
      if (!key) throw new KeyInputError('That API key no longer exists.');
      const renamed: KeyInfo = { ...key, name: name.trim() };
      await this.write({ ...s, keys: s.keys.map((k) => (k.id === id ? renamed : k)) });
      this._onDidChange.fire({ reason: 'renamed', key: renamed });
      return renamed;
    });
  }

  /**
   * Puts a lost secret back. The re-entered secret must be of the same type and end in the same 4
   * characters as the one that was lost; anything else is another key and is refused.
   */
  restoreSecret(id: string, secretInput: string): Promise<KeyInfo> {
    return this.serialize(async () => {
      const key = this.get(id);
      if (!key) throw new KeyInputError('That API key no longer exists.');
      const parsed = parseKey(secretInput);
      if (!parsed.ok) throw new KeyInputError(parsed.message);
      if (parsed.type !== key.type || maskedSuffix(parsed.secret) !== key.suffix) {
        throw new KeyInputError(l10n.t('This is not the key "{0}" ({1} key ending in …{2}). Add it as a new key instead.', key.name, key.type, key.suffix));
      }
      await this.secrets.store(SECRET_KEY_PREFIX + id, parsed.secret);
      this.missing.delete(id);
      this._onDidChange.fire({ reason: 'restored', key });
      return key;
    });
  }

  /** A key with this exact secret, if one is stored. Compares suffix and type first to read few secrets. */
  private async findBySecret(secret: string): Promise<KeyInfo | undefined> {
    const suffix = maskedSuffix(secret);
    for (const key of this.read().keys) {
      if (key.suffix === suffix && (await this.secrets.get(SECRET_KEY_PREFIX + key.id)) === secret) return key;
    }
    return undefined;
  }

  /**
   * Another window (or our own write) stored or deleted one of our secrets. The state may have
   * changed with it, so re-check the active key's secret and tell listeners.
   */
  private onExternalSecretChange(id: string): Promise<void> {
    return this.serialize(async () => {
      const key = this.get(id);
      if (key) {
        const secret = await this.secrets.get(SECRET_KEY_PREFIX + id);
        if (secret === undefined) this.missing.add(id);
        else this.missing.delete(id);
      } else {
        this.missing.delete(id);
      }
      this._onDidChange.fire({ reason: 'external', key });
    }).catch(() => undefined);
  }

  private serialize<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Tolerates a missing or damaged record (treated as no keys) without overwriting it until a write. */
  private read(): PersistedState {
    const raw = this.state.get<unknown>(STATE_KEY);
    if (!raw || typeof raw !== 'object') return { version: 1, keys: [] };
    const candidate = raw as Partial<PersistedState>;
    const keys = Array.isArray(candidate.keys) ? candidate.keys.filter(isKeyInfo) : [];
    const activeId = typeof candidate.activeId === 'string' && keys.some((k) => k.id === candidate.activeId) ? candidate.activeId : undefined;
    return { version: 1, keys, activeId };
  }

  private async write(next: PersistedState): Promise<void> {
    // Belt and braces for the invariant that the state never holds a secret.
    await this.state.update(STATE_KEY, {
      version: 1,
      keys: next.keys.map(({ id, name, type, suffix, addedAt }) => ({ id, name, type, suffix, addedAt })),
      activeId: next.activeId,
    });
  }
}

function isKeyInfo(v: unknown): v is KeyInfo {
  if (!v || typeof v !== 'object') return false;
  const k = v as Record<string, unknown>;
  return (
    typeof k.id === 'string' &&
    typeof k.name === 'string' &&
    (k.type === 'User' || k.type === 'Account') &&
    typeof k.suffix === 'string' &&
    typeof k.addedAt === 'string'
  );
}

/**
 * What a gateway API key looks like, without ever holding on to one. Pure functions: the key model
 * (keyStore.ts) and the editor's input boxes share them so both refuse the same things.
 */
import * as l10n from '../l10n';

/** User keys act as their creator; Account keys act as nobody (G-AUTH-2). */
export type KeyType = 'User' | 'Account';

export const USER_KEY_PREFIX = 'svc_pat_';
export const ACCOUNT_KEY_PREFIX = 'svc_';

/**
 * Assumption (spec: not shown): the length and alphabet of a key after its prefix. We only require
 * a few characters after the prefix (so the masked suffix never shows the whole key body) and refuse
 * whitespace and control characters, which are paste accidents rather than key material.
 */
const MIN_BODY_LENGTH = 8;
export const MAX_NAME_LENGTH = 60;

export type ParsedKey = { ok: true; type: KeyType; secret: string } | { ok: false; message: string };

/**
 * Classifies a pasted secret by prefix. `svc_pat_` must be tested before `svc_`, since every User
 * key also starts with `svc_`. Leading and trailing whitespace (a pasted newline) is dropped; the
 * returned `secret` is the one to store. Refusal messages never echo the input.
 */
export function parseKey(input: string): ParsedKey {
  const secret = input.trim();
  if (secret.length === 0) return { ok: false, message: l10n.t('Enter an API key.') };
  if (/^bearer\s/i.test(secret)) return { ok: false, message: l10n.t('Paste the key alone, without "Bearer ".') };
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(secret)) return { ok: false, message: l10n.t('An API key contains no spaces or line breaks.') };
  let type: KeyType;
  let body: string;
  if (secret.startsWith(USER_KEY_PREFIX)) {
    type = 'User';
    body = secret.slice(USER_KEY_PREFIX.length);
  } else if (secret.startsWith(ACCOUNT_KEY_PREFIX)) {
    type = 'Account';
    body = secret.slice(ACCOUNT_KEY_PREFIX.length);
  } else {
    return {
      ok: false,
      message: l10n.t('Not an AI Gateway API key: keys start with "{0}" (User key) or "{1}" (Account key).', USER_KEY_PREFIX, ACCOUNT_KEY_PREFIX),
    };
  }
  if (body.length < MIN_BODY_LENGTH) return { ok: false, message: l10n.t('This API key is incomplete: copy the whole secret from the portal.') };
  return { ok: true, type, secret };
}

/** The type of a key, or undefined when the text is not a key. */
export function detectKeyType(input: string): KeyType | undefined {
  const parsed = parseKey(input);
  return parsed.ok ? parsed.type : undefined;
}

/** The last 4 characters: the only part of a secret that is ever stored outside SecretStorage or shown. */
export function maskedSuffix(secret: string): string {
  return secret.trim().slice(-4);
}

/** How a key is shown everywhere: "work (User) …9c2e". */
export function describeKey(key: { name: string; type: KeyType; suffix: string }): string {
  return `${key.name} (${key.type}) …${key.suffix}`;
}

/** Refusal message for a key name, or undefined when it is fine. Duplicates are checked by the store. */
export function validateKeyName(input: string): string | undefined {
  const name = input.trim();
  if (name.length === 0) return l10n.t('Enter a name for this key, for example "work".');
  if (name.length > MAX_NAME_LENGTH) return l10n.t('Keep the name under {0} characters.', MAX_NAME_LENGTH);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return l10n.t('The name cannot contain control characters.');
  if (parseKey(name).ok) return l10n.t('That looks like the secret itself: enter a name here, the secret comes next.');
  return undefined;
}

export function sameName(a: string, b: string): boolean {
  return a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();
}

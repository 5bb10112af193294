/**
 * How the hosting credentials are kept in SecretStorage. A module of its own: the secrets are read at
 * activation, the input checks of credentials.ts only when a command asks for them.
 */
import type { HostingCredentials } from './hostingClient';

/** SecretStorage holds the pair as one JSON value; anything else reads as "not set". */
export function parseStoredHostingCredentials(stored: string | undefined): HostingCredentials | undefined {
  if (!stored) return undefined;
  try {
    const v = JSON.parse(stored) as Partial<HostingCredentials>;
    return typeof v.username === 'string' && typeof v.password === 'string' && v.username && v.password ? { username: v.username, password: v.password } : undefined;
  } catch {
    return undefined;
  }
}

export function serializeHostingCredentials(c: HostingCredentials): string {
  return JSON.stringify({ username: c.username, password: c.password });
}

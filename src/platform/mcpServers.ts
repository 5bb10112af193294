/**
 * The servers the runner knows: the gateway's /v1/mcp (always first) and user-added Streamable HTTP
 * servers from `aiGateway.mcp.servers`. Settings hold only non-secret parts; a header listed in
 * `secretHeaders` has its value in SecretStorage under `aiGateway.mcp.header.<serverId>.<name>`.
 *
 * Security: the server id binds keychain secrets to a URL, so it must not collide. It is
 * the SHA-256 of the normalised URL, and custom servers are read ONLY from the user's own settings
 * (`inspect().globalValue`; the setting is also machine-scoped in package.json): a cloned
 * repository's .vscode/settings.json can neither add a server nor claim a stored secret header.
 */
import { createHash } from 'node:crypto';
import type * as vscode from 'vscode';
import { effectiveBaseUrl, settings } from './config';
import { joinUrl } from '../core/gateway/joinUrl';
import { HEADER_NAME } from '../core/mcp/headerName';

/** The gateway address for a path; a base URL that already ends in /v1 is not doubled. */
function gatewayUrl(path: string): string {
  const base = effectiveBaseUrl().url;
  try {
    return joinUrl(base, path).toString();
  } catch {
    return `${base.replace(/\/+$/, '')}${path}`; // an unusable base URL fails later with a clear network error
  }
}

export const GATEWAY_SERVER_ID = 'gateway';

export interface ServerEntry {
  id: string;
  label: string;
  url: string;
  kind: 'gateway' | 'custom';
  /** Non-secret header values from settings. */
  headers: Record<string, string>;
  /** Header names whose values live in SecretStorage. */
  secretHeaders: string[];
}

export interface CustomServerSetting {
  name: string;
  url: string;
  headers?: Record<string, string>;
  secretHeaders?: string[];
}

export function headerSecretKey(serverId: string, header: string): string {
  return `aiGateway.mcp.header.${serverId}.${header.toLowerCase()}`;
}

/**
 * The URL as the server id sees it: scheme and host lower-cased, default port dropped, fragment
 * dropped (never sent), path and query kept (two servers may differ only there).
 */
export function normaliseServerUrl(url: string): string {
  try {
    const u = new URL(url.trim());
    return `${u.origin}${u.pathname}${u.search}`;
  } catch {
    return url.trim();
  }
}

/** Stable across restarts and renames, and collision-resistant: `custom-` + SHA-256 of the normalised URL. */
export function customServerId(url: string): string {
  return `custom-${createHash('sha256').update(normaliseServerUrl(url), 'utf8').digest('hex')}`;
}

/**
 * The id of versions up to 0.x: a 32-bit `h*31+c` hash of the raw URL (collides on demand). Used ONLY
 * to move secrets stored under it to the new id, for servers in the user's own settings.
 */
export function legacyCustomServerId(url: string): string {
  let h = 0;
  for (const c of url) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return `custom-${(h >>> 0).toString(36)}`;
}


/**
 * The custom servers from the USER's settings only. Workspace and folder values are ignored on
 * purpose: a workspace that could list a server could point a stored secret header at its own host.
 */
export function userCustomServers(config: Pick<vscode.WorkspaceConfiguration, 'inspect'>): unknown[] {
  const value = config.inspect<unknown>(settings.mcpServers.key)?.globalValue;
  return Array.isArray(value) ? (value as unknown[]) : [];
}

export function readServers(customSettings: readonly unknown[] = []): ServerEntry[] {
  const gateway: ServerEntry = {
    id: GATEWAY_SERVER_ID,
    label: 'AI Gateway',
    url: gatewayUrl('/v1/mcp'),
    kind: 'gateway',
    headers: {},
    secretHeaders: [],
  };
  const custom = customSettings.flatMap((raw): ServerEntry[] => {
    const s = raw as Partial<CustomServerSetting> | null;
    if (!s || typeof s.url !== 'string' || !/^https?:\/\//i.test(s.url)) return [];
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(s.headers ?? {})) if (typeof v === 'string') headers[k] = v;
    return [
      {
        id: customServerId(s.url),
        label: typeof s.name === 'string' && s.name.trim() ? s.name.trim() : s.url,
        url: s.url,
        kind: 'custom',
        headers,
        // Names become SecretStorage keys and shell text in the curl export: letters, digits, dashes only.
        secretHeaders: Array.isArray(s.secretHeaders) ? s.secretHeaders.filter((h): h is string => typeof h === 'string' && HEADER_NAME.test(h)) : [],
      },
    ];
  });
  return [gateway, ...custom];
}

/** The stored values of `server.secretHeaders`, under the server's SHA-256 id only. */
export async function secretHeaderValues(secrets: Pick<vscode.SecretStorage, 'get'>, server: ServerEntry): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of server.secretHeaders) {
    const v = await secrets.get(headerSecretKey(server.id, name));
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/**
 * Moves secret header values stored under the legacy 32-bit id to the SHA-256 id, once, for the
 * user's own servers. A legacy id shared by two listed servers is a collision: neither gets the value
 * (the user re-enters it with Add MCP Server). Returns how many values were moved.
 */
export async function migrateLegacySecretHeaders(secrets: Pick<vscode.SecretStorage, 'get' | 'store' | 'delete'>, servers: readonly ServerEntry[]): Promise<number> {
  const custom = servers.filter((s) => s.kind === 'custom');
  const legacyCount = new Map<string, number>();
  for (const s of custom) legacyCount.set(legacyCustomServerId(s.url), (legacyCount.get(legacyCustomServerId(s.url)) ?? 0) + 1);
  let moved = 0;
  for (const server of custom) {
    const legacyId = legacyCustomServerId(server.url);
    if (legacyCount.get(legacyId) !== 1) continue;
    for (const name of server.secretHeaders) {
      const legacyKey = headerSecretKey(legacyId, name);
      const value = await secrets.get(legacyKey);
      if (value === undefined) continue;
      if ((await secrets.get(headerSecretKey(server.id, name))) === undefined) {
        await secrets.store(headerSecretKey(server.id, name), value);
        moved++;
      }
      await secrets.delete(legacyKey);
    }
  }
  return moved;
}

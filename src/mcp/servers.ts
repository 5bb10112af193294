/**
 * The servers the runner knows: the gateway's /v1/mcp (always first) and user-added Streamable HTTP
 * servers from `aiGateway.mcp.servers`. Settings hold only non-secret parts; a header listed in
 * `secretHeaders` has its value in SecretStorage under `aiGateway.mcp.header.<serverId>.<name>`.
 */
import type * as vscode from 'vscode';
import { effectiveBaseUrl, settings } from '../config';

export const GATEWAY_SERVER_ID = 'gateway';
export const JWT_SECRET_KEY = 'aiGateway.mcp.jwt';

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

export function customServerId(url: string): string {
  // Stable across restarts and renames: derived from the URL.
  let h = 0;
  for (const c of url) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return `custom-${(h >>> 0).toString(36)}`;
}

export function readServers(): ServerEntry[] {
  const gateway: ServerEntry = {
    id: GATEWAY_SERVER_ID,
    label: 'AI Gateway',
    url: `${effectiveBaseUrl().url}/v1/mcp`,
    kind: 'gateway',
    headers: {},
    secretHeaders: [],
  };
  const custom = settings.mcpServers.get().flatMap((s): ServerEntry[] => {
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
        secretHeaders: Array.isArray(s.secretHeaders) ? s.secretHeaders.filter((h): h is string => typeof h === 'string') : [],
      },
    ];
  });
  return [gateway, ...custom];
}

export async function secretHeaderValues(secrets: vscode.SecretStorage, server: ServerEntry): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of server.secretHeaders) {
    const v = await secrets.get(headerSecretKey(server.id, name));
    if (v !== undefined) out[name] = v;
  }
  return out;
}

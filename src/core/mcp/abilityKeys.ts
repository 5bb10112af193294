/**
 * Which of the gateway's tools are site-ability tools and need a User key. A module of its own: the
 * Tools view asks it at activation, without the rest of abilities.ts (confirmation target, read-only check).
 */
import type { CredentialKind } from './types';

/** Spec, /v1/mcp rule 2: these need a User key when API-key auth is used (G-MCP-10). */
export const ABILITY_TOOLS: ReadonlySet<string> = new Set(['list_site_abilities', 'search_abilities', 'run_site_ability']);

export const RUN_ABILITY_TOOL = 'run_site_ability';

/** Spec, /v1/mcp "Tools named": the gateway's documented tools that only read (ping answers its name and version; the others list or search). */
export const GATEWAY_READ_TOOLS: ReadonlySet<string> = new Set(['ping', 'list_account_sites', 'list_site_abilities', 'search_abilities']);

/**
 * Whether a tool counts as destructive (#42.4). MCP: annotations default to readOnlyHint false and
 * destructiveHint true, so a tool is destructive unless it is marked read-only (a real `true`) or says
 * destructiveHint `false` (a real `false`); any other value is no mark and leaves the default. One
 * exception: a tool of the gateway's own /v1/mcp that the spec documents as a read (GATEWAY_READ_TOOLS),
 * when the gateway marks it neither way (the spec does not show the gateway's annotations). Small and
 * here, not in toolHints.ts: the Tools view asks it at activation.
 */
export function isDestructiveTool(tool: { name: string; annotations?: unknown }, onGateway: boolean): boolean {
  const a = typeof tool.annotations === 'object' && tool.annotations !== null ? (tool.annotations as Record<string, unknown>) : {};
  if (a.readOnlyHint === true || a.destructiveHint === false) return false;
  if (a.destructiveHint === true || typeof a.readOnlyHint === 'boolean') return true;
  return !(onGateway && GATEWAY_READ_TOOLS.has(tool.name));
}

export function needsUserKey(toolName: string, credential: CredentialKind): boolean {
  return credential === 'account' && ABILITY_TOOLS.has(toolName);
}

export const NEEDS_USER_KEY_EXPLANATION =
  'This tool runs WordPress site abilities, which act as a person. Account keys act as nobody and can never run abilities: ' +
  'use a User key (svc_pat_…) created by someone connected to the site.';

/**
 * Which of the gateway's tools are site-ability tools and need a User key. A module of its own: the
 * Tools view asks it at activation, without the rest of abilities.ts (confirmation target, read-only check).
 */
import type { CredentialKind } from './types';

/** Spec, /v1/mcp rule 2: these need a User key when API-key auth is used (G-MCP-10). */
export const ABILITY_TOOLS: ReadonlySet<string> = new Set(['list_site_abilities', 'search_abilities', 'run_site_ability']);

export const RUN_ABILITY_TOOL = 'run_site_ability';

export function needsUserKey(toolName: string, credential: CredentialKind): boolean {
  return credential === 'account' && ABILITY_TOOLS.has(toolName);
}

export const NEEDS_USER_KEY_EXPLANATION =
  'This tool runs WordPress site abilities, which act as a person. Account keys act as nobody and can never run abilities: ' +
  'use a User key (svc_pat_…) created by someone connected to the site.';

/**
 * Knowledge about the gateway's site-ability tools: which need a User key, what a confirmation must
 * show, and whether an ability is read-only.
 */

import { RUN_ABILITY_TOOL } from './abilityKeys';

export { ABILITY_TOOLS, needsUserKey, NEEDS_USER_KEY_EXPLANATION, RUN_ABILITY_TOOL } from './abilityKeys';

/**
 * Whether a tools/call of `tool` is provably a read, so a 503 answer may be sent again automatically
 * (mcpClient.ts CallOptions.readOnly). Assumption (spec: the full set of tools and their annotations:
 * not shown): only the tool's own `annotations.readOnlyHint: true` from tools/list proves it, and never
 * for run_site_ability, whose effect depends on the ability it runs. Anything else counts as a write.
 */
export function isReadOnlyTool(tool: { name: string; annotations?: { readOnlyHint?: unknown } }): boolean {
  return tool.name !== RUN_ABILITY_TOOL && tool.annotations?.readOnlyHint === true;
}

export interface AbilityTarget {
  site: string | undefined;
  ability: string | undefined;
  input: unknown;
}

// Assumption (spec: not shown): the argument names of run_site_ability. The local gateway uses
// site_id / ability / input; other spellings seen in WordPress tooling are accepted so the
// confirmation never shows an empty site or ability for a server that names them differently.
const SITE_KEYS = ['site_id', 'site', 'site_identifier', 'site_url', 'siteId'];
const ABILITY_KEYS = ['ability', 'ability_name', 'abilityName', 'name'];
const INPUT_KEYS = ['input', 'arguments', 'args', 'params'];

function pick(args: Record<string, unknown>, keys: string[]): unknown {
  for (const k of keys) if (args[k] !== undefined) return args[k];
  return undefined;
}

export function abilityTarget(args: Record<string, unknown>): AbilityTarget {
  const site = pick(args, SITE_KEYS);
  const ability = pick(args, ABILITY_KEYS);
  return {
    site: site === undefined ? undefined : String(site),
    ability: ability === undefined ? undefined : String(ability),
    input: pick(args, INPUT_KEYS),
  };
}

/**
 * Whether the server marks `ability` read-only in a list_site_abilities result.
 * Assumption (spec: not shown): abilities are listed in structuredContent.abilities (or as JSON text)
 * with WordPress Abilities API annotations `annotations.readonly` (or `meta.annotations.readonly`,
 * or MCP-style `readOnlyHint`). Anything else counts as not read-only: the safe default is to confirm.
 */
export function isAbilityReadOnly(listResult: unknown, ability: string): boolean {
  const list = abilitiesOf(listResult);
  const entry = list.find((a) => a !== null && typeof a === 'object' && (a as Record<string, unknown>).name === ability);
  if (!entry || typeof entry !== 'object') return false;
  const e = entry as Record<string, unknown>;
  const ann = (e.annotations ?? (e.meta as Record<string, unknown> | undefined)?.annotations) as Record<string, unknown> | undefined;
  return ann?.readonly === true || ann?.readOnlyHint === true || e.readonly === true;
}

function abilitiesOf(listResult: unknown): unknown[] {
  if (!listResult || typeof listResult !== 'object') return [];
  const r = listResult as Record<string, unknown>;
  const sc = r.structuredContent as Record<string, unknown> | undefined;
  if (sc && Array.isArray(sc.abilities)) return sc.abilities;
  if (Array.isArray(r.content)) {
    for (const block of r.content as Array<Record<string, unknown>>) {
      if (block.type !== 'text' || typeof block.text !== 'string') continue;
      try {
        const parsed: unknown = JSON.parse(block.text);
        if (Array.isArray(parsed)) return parsed;
        if (parsed && typeof parsed === 'object' && Array.isArray((parsed as Record<string, unknown>).abilities)) {
          return (parsed as Record<string, unknown>).abilities as unknown[];
        }
      } catch {
        // not JSON: keep looking
      }
    }
  }
  return [];
}

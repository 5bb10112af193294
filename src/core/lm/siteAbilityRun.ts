/**
 * The decisions of the `aiGateway_runSiteAbility` language model tool (src/lm/siteAbilityTool.ts is
 * the thin VS Code adapter): the ONLY way VS Code's agent mode runs a site ability, since the MCP
 * relay hides run_site_ability (mcpFilter.ts). vscode-free so every branch is tested in plain Node.
 *
 *  1. The user's say, every time a call can run: `confirm` is asked before anything is sent, naming
 *     the site, the ability and the arguments. Anything but an explicit yes is a refusal, and the
 *     result tells the model not to retry.
 *  2. No automatic repeat of an `ambiguous_outcome` write (G-MCP-13): such a call, or one whose
 *     connection broke after the session was opened (it may have reached the site), is recorded in
 *     the outcome-unknown ledger. The identical call (same site, ability and input, whatever the key
 *     order) is then only run if the user, told that the first may already have happened, picks
 *     "Run Again Anyway". A call with other arguments is asked about like any other.
 *  3. Calls that cannot succeed are refused before the user is asked: no site or ability, no
 *     credentials, or an Account key (G-MCP-10: site abilities need a User key).
 */
import { abilityTarget, NEEDS_USER_KEY_EXPLANATION, RUN_ABILITY_TOOL, type AbilityTarget } from '../mcp/abilities';
import type { OutcomeLedger, OutcomeUnknownEntry } from '../mcp/outcomeLedger';
import { classifyToolError } from '../mcp/toolErrors';
import { contentBlocksOf, structuredContentOf } from '../mcp/toolResult';
import type { CallToolResult, CredentialKind } from '../mcp/types';

/** Longest argument text shown to the user; the rest is summarised by its length. */
export const MAX_SHOWN_ARGS = 2000;

export const RUN_LABEL = 'Run';
export const RUN_AGAIN_LABEL = 'Run Again Anyway';

export interface ShownCall {
  site: string;
  ability: string;
  /** The arguments as indented JSON, cut at MAX_SHOWN_ARGS characters. */
  args: string;
}

export interface ConfirmPrompt {
  question: string;
  detail: string;
  /** The one button that runs the call. */
  action: typeof RUN_LABEL | typeof RUN_AGAIN_LABEL;
  /** The earlier identical call whose outcome is unknown, if any. */
  earlier?: OutcomeUnknownEntry;
}

export interface AbilitySession {
  callTool(args: Record<string, unknown>, signal: AbortSignal): Promise<{ result: CallToolResult; requestIds: string[] }>;
  close(): Promise<void> | void;
}

export type AbilityCredentials = { kind: 'missing'; why: string } | { kind: 'ready'; credential: CredentialKind };

export interface SiteAbilityDeps {
  ledger: OutcomeLedger;
  /** Which credential a call would use; asked before the user, so a doomed call is never offered. */
  credentials(): Promise<AbilityCredentials>;
  /** Asks the user; true only when they picked `prompt.action`. */
  confirm(prompt: ConfirmPrompt): Promise<boolean>;
  /** Opens a session with the gateway's /v1/mcp. A failure here means nothing was sent. */
  connect(): Promise<AbilitySession>;
}

export type RunOutcome =
  | 'invalid'
  | 'no-credentials'
  | 'account-key'
  | 'declined'
  | 'declined-repeat'
  | 'not-sent'
  | 'done'
  | 'tool-error'
  | 'ambiguous'
  | 'unknown-after-send';

export interface RunResult {
  outcome: RunOutcome;
  /** The text the model gets back. */
  text: string;
}

function asArgs(input: unknown): Record<string, unknown> {
  return input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

/** What the user is shown (also used by the tool's progress message). */
export function describeCall(input: unknown): ShownCall {
  const t = abilityTarget(asArgs(input));
  let args = JSON.stringify(t.input ?? {}, null, 2) ?? '{}';
  if (args.length > MAX_SHOWN_ARGS) args = `${args.slice(0, MAX_SHOWN_ARGS)}\n… (${args.length - MAX_SHOWN_ARGS} more characters)`;
  return { site: t.site ?? '(no site given)', ability: t.ability ?? '(no ability given)', args };
}

export function confirmPrompt(input: unknown, earlier: OutcomeUnknownEntry | undefined): ConfirmPrompt {
  const d = describeCall(input);
  const detail = `Site: ${d.site}\nAbility: ${d.ability}\nArguments:\n${d.args}`;
  if (earlier) {
    return {
      question: `The same site ability call at ${earlier.at} had an UNKNOWN outcome: it may already have happened. Check the site before running it again.`,
      detail: earlier.requestId ? `${detail}\n\nEarlier request id: ${earlier.requestId}` : detail,
      action: RUN_AGAIN_LABEL,
      earlier,
    };
  }
  return { question: 'The agent wants to run a site ability. It can change your live site.', detail, action: RUN_LABEL };
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export async function runSiteAbility(input: unknown, deps: SiteAbilityDeps, signal: AbortSignal): Promise<RunResult> {
  const args = asArgs(input);
  const target = abilityTarget(args);
  if (!target.site || !target.ability) return { outcome: 'invalid', text: 'Not run: site_id and ability are required.' };
  const creds = await deps.credentials();
  if (creds.kind === 'missing') return { outcome: 'no-credentials', text: `Not run: ${creds.why}` };
  if (creds.credential === 'account') return { outcome: 'account-key', text: `Not run: ${NEEDS_USER_KEY_EXPLANATION}` };

  const earlier = deps.ledger.find(target.site, target.ability, target.input ?? {});
  const approved = await deps.confirm(confirmPrompt(args, earlier));
  if (!approved) {
    return earlier
      ? {
          outcome: 'declined-repeat',
          text: 'Not run: an identical call earlier had an unknown outcome (ambiguous_outcome) and the user did not approve a repeat. Do not retry; ask the user to check the site.',
        }
      : { outcome: 'declined', text: 'Not run: the user declined this site ability call. Do not retry unless the user asks.' };
  }
  if (signal.aborted) return { outcome: 'not-sent', text: 'Not run: cancelled.' };

  let session: AbilitySession;
  try {
    session = await deps.connect();
  } catch (e) {
    return { outcome: 'not-sent', text: `Not run: could not reach the gateway's tool server (${errorText(e)}).` };
  }
  try {
    const { result, requestIds } = await session.callTool(args, signal);
    return await report(deps.ledger, target, result, requestIds, creds.credential);
  } catch (e) {
    // The call may have reached the site: treat it like ambiguous_outcome.
    await deps.ledger.recordUnknown(target.site, target.ability, target.input ?? {});
    return {
      outcome: 'unknown-after-send',
      text: `Outcome unknown: the call failed after it was sent (${errorText(e)}). It may have happened. Do not retry; ask the user to check the site.`,
    };
  } finally {
    await Promise.resolve(session.close()).catch(() => undefined);
  }
}

async function report(ledger: OutcomeLedger, target: AbilityTarget, result: CallToolResult, requestIds: string[], credential: CredentialKind): Promise<RunResult> {
  const error = classifyToolError(RUN_ABILITY_TOOL, result, credential);
  const ids = requestIds.length ? ` (request id ${requestIds.join(', ')})` : '';
  if (!error) {
    const body = contentBlocksOf(result).map((b) => (b.type === 'text' ? String((b as { text?: unknown }).text ?? '') : JSON.stringify(b))).join('\n');
    return { outcome: 'done', text: body || JSON.stringify(structuredContentOf(result) ?? {}) };
  }
  if (error.code === 'ambiguous_outcome') {
    await ledger.recordUnknown(target.site ?? '', target.ability ?? '', target.input ?? {}, requestIds[0]);
    return { outcome: 'ambiguous', text: `ambiguous_outcome: ${error.message}${ids}. The write may or may not have happened. Do NOT retry; ask the user to check the site.` };
  }
  return { outcome: 'tool-error', text: `${error.code}: ${error.message}${ids}. ${error.advice}` };
}

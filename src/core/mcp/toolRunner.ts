/**
 * One tool call end to end, without the editor: validate the arguments against the input schema ->
 * confirm run_site_ability (site, ability, arguments) -> call -> classify the outcome -> check
 * structuredContent against the output schema -> store in history. Never retries by itself.
 *
 * The editor supplies the UI pieces (confirmation dialog, progress with Cancel) through RunnerDeps;
 * tests supply plain functions.
 */
import type { Logger } from '../log';
import { abilityTarget, isAbilityReadOnly, isReadOnlyTool, needsUserKey, NEEDS_USER_KEY_EXPLANATION, RUN_ABILITY_TOOL } from './abilities';
import type { CallHistory, HistoryEntry } from './history';
import { classifyToolError } from './toolErrors';
import type { CallToolResult, CredentialKind, JsonSchema, McpTool } from './types';
import type { ValidationResult } from './validation';
import { checkOutput, toolHints } from './toolShow';

export interface CallableConnection {
  /** `readOnly`: the tool is provably read-only (isReadOnlyTool), so a 503 may be retried by the connection. */
  callTool(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal; readOnly?: boolean }): Promise<{ result: CallToolResult; durationMs: number; requestIds: string[] }>;
}

export interface AbilityConfirmation {
  site: string | undefined;
  ability: string | undefined;
  input: unknown;
  message: string;
  detail: string;
}

export interface RunnerDeps {
  serverId: string;
  serverLabel: string;
  /** True for the gateway's /v1/mcp: ability confirmation and key-type rules apply. */
  isGateway: boolean;
  credential: CredentialKind;
  connection(): Promise<CallableConnection>;
  validate(schema: JsonSchema | undefined, value: unknown): ValidationResult;
  /** aiGateway.mcp.confirmReadOnlyAbilities */
  confirmReadOnlyAbilities: boolean;
  confirmAbility(c: AbilityConfirmation): Promise<boolean>;
  /**
   * Asks before running a tool that may be destructive (#42.4: the server marks it so, `marked`, or leaves
   * the spec's default, destructive unless read-only), with the safe answer as the default. Without it
   * such a tool is not run.
   */
  confirmDestructive?(c: { tool: string; title?: string; serverLabel: string; args: Record<string, unknown>; marked: boolean }): Promise<boolean>;
  /** Runs `fn` under a progress UI whose Cancel aborts the signal. Default: runs it as is. */
  progress?<T>(title: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T>;
  history: CallHistory;
  log?: Logger;
  /**
   * Words for a failed call: src/core/errorText.ts `describeError`, the one place that phrases errors
   * (injected because core never imports editor-side modules).
   */
  describeError(e: unknown): { message: string };
}

export type RunOutcome =
  | { kind: 'invalid'; issues: Array<{ path: string; message: string }> }
  | { kind: 'notRun'; reason: string }
  | { kind: 'done'; entry: HistoryEntry };

interface FailureLike {
  message?: unknown;
  reason?: unknown;
  status?: unknown;
  code?: unknown;
  requestIds?: unknown;
  outcomeUnknown?: unknown;
}

/** The history record of a failed call: the words come from `describe`, the flags from the error. */
export function describeFailure(e: unknown, toolName: string, credential: CredentialKind, describe: RunnerDeps['describeError']): NonNullable<HistoryEntry['failure']> {
  const err = (e ?? {}) as FailureLike;
  const message = describe(e).message;
  const status = typeof err.status === 'number' ? err.status : undefined;
  if (err.outcomeUnknown === true && err.reason !== 'aborted') return { message, status, outcomeUnknown: true };
  switch (err.reason) {
    case 'authentication':
    case 'permission':
      return { message, status };
    case 'jsonrpc':
      return { message, code: typeof err.code === 'number' ? err.code : undefined };
    case 'aborted':
      // Cancelled after sending: the tool may still have run.
      return { message, outcomeUnknown: true };
    default:
      if (needsUserKey(toolName, credential)) return { message: `${message}\n${NEEDS_USER_KEY_EXPLANATION}`, status };
      return { message, status };
  }
}

async function shouldConfirm(deps: RunnerDeps, args: Record<string, unknown>, signal: AbortSignal | undefined): Promise<boolean> {
  if (deps.confirmReadOnlyAbilities) return true;
  const target = abilityTarget(args);
  if (!target.site || !target.ability) return true;
  try {
    // A read: asks the server whether it marks this ability read-only. Anything unclear: confirm.
    const conn = await deps.connection();
    const list = await conn.callTool('list_site_abilities', { site_id: target.site }, { signal, readOnly: true });
    return list.result.isError === true || !isAbilityReadOnly(list.result, target.ability);
  } catch (e) {
    deps.log?.warn(`MCP: could not check whether ${target.ability} is read-only (${e instanceof Error ? e.message : String(e)}); asking for confirmation.`);
    return true;
  }
}

export function abilityConfirmation(args: Record<string, unknown>): AbilityConfirmation {
  const target = abilityTarget(args);
  return {
    ...target,
    message: `Run ${target.ability ?? 'this ability'} on ${target.site ?? 'the site'}?`,
    detail: [
      `Site: ${target.site ?? '(not given)'}`,
      `Ability: ${target.ability ?? '(not given)'}`,
      `Arguments: ${JSON.stringify(target.input ?? args, null, 2)}`,
      '',
      'This runs on the live site as you and may change it.',
    ].join('\n'),
  };
}

function newId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export async function runToolCall(deps: RunnerDeps, tool: McpTool, args: Record<string, unknown>, signal?: AbortSignal): Promise<RunOutcome> {
  const validation = deps.validate(tool.inputSchema, args);
  if (!validation.valid) return { kind: 'invalid', issues: validation.issues };
  if (validation.schemaError) deps.log?.warn(`MCP ${tool.name}: ${validation.schemaError}`);
  if (validation.unchecked) deps.log?.info(`MCP ${tool.name} arguments: ${validation.unchecked}`);

  if (deps.isGateway && tool.name === RUN_ABILITY_TOOL) {
    // The gateway's ability runner: the ability's own read-only mark decides (it knows the ability; the tool's hint cannot).
    if ((await shouldConfirm(deps, args, signal)) && !(await deps.confirmAbility(abilityConfirmation(args)))) return { kind: 'notRun', reason: 'Not run: the confirmation was declined.' };
  } else if (toolHints(tool, deps.isGateway).destructive) {
    // A tool that may be destructive (the server marks it so, or leaves the spec's default) is run only after a yes,
    // like every other write the user cannot take back.
    const hints = toolHints(tool, deps.isGateway);
    if (!deps.confirmDestructive) return { kind: 'notRun', reason: `Not run: ${tool.name} may be destructive (not marked read-only or harmless) and there is no way to ask for confirmation here.` };
    const marked = (tool.annotations as { destructiveHint?: unknown } | undefined)?.destructiveHint === true;
    if (!(await deps.confirmDestructive({ tool: tool.name, ...(hints.title ? { title: hints.title } : {}), serverLabel: deps.serverLabel, args, marked }))) return { kind: 'notRun', reason: 'Not run: the confirmation was declined.' };
  }

  const entry: HistoryEntry = { id: newId(), serverId: deps.serverId, serverLabel: deps.serverLabel, tool: tool.name, args, startedAt: Date.now(), durationMs: 0, requestIds: [] };
  const started = Date.now();
  const progress = deps.progress ?? (<T>(_title: string, fn: (s: AbortSignal) => Promise<T>) => fn(new AbortController().signal));
  await progress(`Running ${tool.name} on ${deps.serverLabel}…`, async (progressSignal) => {
    const abort = new AbortController();
    const onAbort = (): void => abort.abort();
    progressSignal.addEventListener('abort', onAbort, { once: true });
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const conn = await deps.connection();
      const out = await conn.callTool(tool.name, args, { signal: abort.signal, readOnly: isReadOnlyTool(tool) });
      entry.durationMs = out.durationMs;
      entry.requestIds = out.requestIds;
      entry.result = out.result;
      entry.toolError = classifyToolError(tool.name, out.result, deps.credential);
      // A mismatch, a missing structuredContent or an unusable schema is recorded and shown, never dropped (#42.4).
      const verdict = checkOutput(tool, out.result, deps.validate);
      if (verdict) entry.outputValidation = verdict;
    } catch (e) {
      entry.durationMs = Date.now() - started;
      entry.failure = describeFailure(e, tool.name, deps.credential, deps.describeError);
      const ids = (e as FailureLike | undefined)?.requestIds;
      if (Array.isArray(ids)) entry.requestIds = ids.map(String);
    } finally {
      progressSignal.removeEventListener('abort', onAbort);
      signal?.removeEventListener('abort', onAbort);
    }
  });
  const stored = await deps.history.add(entry);
  deps.log?.info(
    `MCP ${deps.serverLabel} ${tool.name}: ${entry.failure ? `failed (${entry.failure.message.split('\n')[0]})` : entry.toolError ? `tool error ${entry.toolError.code}` : 'ok'} in ${entry.durationMs} ms${entry.requestIds.length ? ` [${entry.requestIds.join(', ')}]` : ''}`,
  );
  return { kind: 'done', entry: stored };
}

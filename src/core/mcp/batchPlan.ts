/**
 * Which history entries "Run Several Calls" may send again (G-MCP-13). A call whose previous outcome
 * was `ambiguous_outcome` may already have applied its write, so it is never re-run just because it
 * was ticked: the user confirms each one separately (told why), or it is left out. The single-call
 * panel refuses such a Retry outright; the batch is an explicit user action, so it asks instead.
 */
import type { HistoryEntry } from './history';

/** The tool said ambiguous_outcome, or the call was sent and no answer came (outcome unknown). */
export function isAmbiguousOutcome(entry: Pick<HistoryEntry, 'toolError' | 'failure'>): boolean {
  return entry.toolError?.code === 'ambiguous_outcome' || entry.failure?.outcomeUnknown === true;
}

export type AmbiguousDecision = 'run' | 'skip' | 'cancel';

export interface BatchPlan {
  /** The entries to send, in the order picked. */
  run: HistoryEntry[];
  /** Ambiguous entries the user left out (or did not confirm). */
  skipped: HistoryEntry[];
}

/** The question asked for one ambiguous entry: names the call and says the write may have happened. */
export function ambiguousPrompt(entry: Pick<HistoryEntry, 'tool' | 'args' | 'startedAt'>): { message: string; detail: string } {
  return {
    message: `Run ${entry.tool} again? Its previous run's outcome is unknown: the write may already have happened.`,
    detail:
      `Running it again could apply the same change twice. Check the site first.\n\n` +
      `Previous run: ${new Date(entry.startedAt).toISOString()}\nArguments: ${JSON.stringify(entry.args).slice(0, 500)}`,
  };
}

/**
 * Asks `confirm` once per ambiguous entry (in order); anything but an explicit 'run' leaves that entry
 * out. 'cancel' stops planning and returns undefined: nothing is sent. Other entries pass unchanged.
 */
export async function planBatch(picked: readonly HistoryEntry[], confirm: (entry: HistoryEntry) => Promise<AmbiguousDecision>): Promise<BatchPlan | undefined> {
  const run: HistoryEntry[] = [];
  const skipped: HistoryEntry[] = [];
  for (const entry of picked) {
    if (!isAmbiguousOutcome(entry)) {
      run.push(entry);
      continue;
    }
    const decision = await confirm(entry);
    if (decision === 'cancel') return undefined;
    (decision === 'run' ? run : skipped).push(entry);
  }
  return { run, skipped };
}

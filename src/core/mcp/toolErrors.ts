/**
 * Classifies tool-level errors (a tools/call result with isError) and decides what the UI may offer.
 * The one rule that matters most: `ambiguous_outcome` is never retried automatically, and a manual
 * Retry is disabled with an explanation (spec /v1/mcp rule 6, G-MCP-13). Nothing in the runner
 * retries a tool call by itself, for any code: retries are always a user action.
 */
import { ABILITY_TOOLS, NEEDS_USER_KEY_EXPLANATION } from './abilities';
import { contentBlocksOf, structuredContentOf } from './toolResult';
import type { CredentialKind } from './types';
import { isRecord } from '../guards';

export type ToolErrorCode = 'timeout' | 'ambiguous_outcome' | 'unauthorized' | 'forbidden' | 'other';

export interface RetryAdvice {
  /** Whether the UI enables its Retry button. */
  allowed: boolean;
  /** Tooltip / hint shown next to the button: why it is enabled or disabled. */
  reason: string;
}

export interface ToolErrorInfo {
  code: ToolErrorCode;
  /** The tool's own description of the failure (kept verbatim: it carries upstream codes, G-MCP-12). */
  message: string;
  /** One sentence for the user about what happened and what to do. */
  advice: string;
  retry: RetryAdvice;
}

const KNOWN_CODES = ['timeout', 'ambiguous_outcome', 'unauthorized', 'forbidden'] as const;

// Assumption (spec: not shown): how a tool error names its code. The spec only lists the codes. The
// local gateway sends structuredContent.error.code and starts the text with "<code>: ". Both are read
// here, plus `_meta.code`/`error.code` spellings, so a server that uses only one of them still works.
// Every reader here is total: `result` may be any value a server sent (toolResult.ts).
export function toolErrorCode(result: unknown): ToolErrorCode {
  const sc = structuredContentOf(result);
  const candidates: unknown[] = [field(sc?.error, 'code'), sc?.code, field(field(result, '_meta'), 'code')];
  for (const c of candidates) {
    if (typeof c === 'string') {
      const norm = c.toLowerCase();
      const hit = KNOWN_CODES.find((k) => k === norm);
      if (hit) return hit;
    }
  }
  for (const block of contentBlocksOf(result)) {
    if (block.type !== 'text' || typeof (block as { text?: unknown }).text !== 'string') continue;
    const m = /^\s*(?:error[:\s]+)?\[?(timeout|ambiguous_outcome|unauthorized|forbidden)\]?\b/i.exec((block as { text: string }).text);
    if (m) return m[1].toLowerCase() as ToolErrorCode;
  }
  return 'other';
}

function field(v: unknown, name: string): unknown {
  return isRecord(v) ? v[name] : undefined;
}

export function toolErrorText(result: unknown): string {
  const texts = contentBlocksOf(result)
    .filter((b) => b.type === 'text')
    .map((b) => {
      const t = (b as { text?: unknown }).text;
      return typeof t === 'string' ? t : '';
    });
  return texts.join('\n').trim() || 'The tool reported an error without a description.';
}

/**
 * Returns undefined for a successful result. `credential` is what the call was made with: an
 * unauthorized ability tool means "needs a User key" only when it was an Account key; for a person
 * (User key or JWT) it means the person has not connected their CMS account to the site (G-MCP-11).
 */
export function classifyToolError(toolName: string, result: unknown, credential: CredentialKind = 'none'): ToolErrorInfo | undefined {
  if (field(result, 'isError') !== true) return undefined;
  const code = toolErrorCode(result);
  const message = toolErrorText(result);
  switch (code) {
    case 'timeout':
      return {
        code,
        message,
        advice: 'The tool timed out upstream. Retrying the identical read is safe.',
        retry: { allowed: true, reason: 'Safe for reads: a timed-out read changed nothing.' },
      };
    case 'ambiguous_outcome':
      return {
        code,
        message,
        advice: 'The write may or may not have happened. Check the site before doing anything else.',
        retry: {
          allowed: false,
          reason:
            'Retry is disabled: the outcome of this write is unknown, and running it again could apply it twice. ' +
            'Check the site first; if the change is missing, run the tool again yourself from a new call.',
        },
      };
    case 'unauthorized':
      return {
        code,
        message,
        advice: !ABILITY_TOOLS.has(toolName)
          ? 'The credential is not authorised for this tool.'
          : credential === 'user' || credential === 'jwt'
            ? 'You are not authorised on this site: connect your WordPress account to the site (see cms_connection_status in list_account_sites), then run it again.'
            : NEEDS_USER_KEY_EXPLANATION,
        retry: { allowed: false, reason: 'Retrying with the same credential fails the same way.' },
      };
    case 'forbidden':
      return {
        code,
        message,
        advice: 'The credential is not allowed to do this.',
        retry: { allowed: false, reason: 'Retrying with the same credential fails the same way.' },
      };
    default:
      return {
        code,
        message,
        advice: 'The tool reported an error.',
        retry: { allowed: true, reason: 'Runs the same call again.' },
      };
  }
}

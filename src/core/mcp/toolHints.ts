/**
 * A tool's annotations and a server's instructions as the UI shows them (#42.4), in a module small
 * enough for activation (the Tools view uses it): untrusted server values in, booleans and bounded plain
 * text out, never an exception.
 */
import { isRecord } from '../guards';
import type { McpTool } from './types';
import { isDestructiveTool } from './abilityKeys';

/**
 * A tool's annotations as the UI uses them: only a real boolean counts (annotations are a server's hints,
 * untrusted); a hint not given is the spec's default (false, except destructive: abilityKeys.ts isDestructiveTool).
 */
export interface ToolHints {
  readOnly: boolean;
  /** Not read-only and not marked destructiveHint false (the spec's default is destructive): asked about before it runs. */
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
  /** annotations.title, when the tool has no title of its own. */
  title?: string;
}

const MAX_TITLE_CHARS = 120;

/** `onGateway`: the tool is the gateway's own (its documented reads are not destructive when unmarked). */
export function toolHints(tool: Pick<McpTool, 'annotations' | 'title'> & { name?: string }, onGateway = false): ToolHints {
  const a: Record<string, unknown> = isRecord(tool.annotations) ? tool.annotations : {};
  const readOnly = a.readOnlyHint === true;
  const title = typeof tool.title === 'string' && tool.title.trim() ? tool.title : typeof a.title === 'string' && a.title.trim() ? a.title : undefined;
  return {
    readOnly,
    destructive: isDestructiveTool({ name: tool.name ?? '', annotations: a }, onGateway),
    idempotent: a.idempotentHint === true,
    openWorld: a.openWorldHint === true,
    ...(title ? { title: plainText(title, MAX_TITLE_CHARS) } : {}),
  };
}

/** Longest server instructions shown (characters). */
export const MAX_INSTRUCTIONS_CHARS = 2000;

/**
 * A server's `instructions` (from initialize) as plain text to show: untrusted, so control characters
 * other than line breaks and tabs are dropped, runs of blank lines shortened, and the length bounded.
 * Undefined when there is nothing to show.
 */
export function serverInstructions(raw: unknown, max = MAX_INSTRUCTIONS_CHARS): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const text = plainText(raw.slice(0, max * 4), max, true);
  return text ? text : undefined;
}

function plainText(raw: string, max: number, keepLines = false): string {
  let s = raw.replace(/\r\n?/g, '\n');
  // C0/C1 controls, bidirectional overrides and zero-width marks: never shown as they are.
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  s = s.replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g, '');
  s = keepLines ? s.replace(/\n{3,}/g, '\n\n') : s.replace(/\s+/g, ' ');
  s = s.trim();
  return s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s;
}

/**
 * What a tool and its answer show, decided without the editor (#42.4): the verdict on
 * structuredContent against the tool's output schema, the tool's annotations read as booleans, the
 * one icon that may be drawn, and a server's instructions as bounded plain text (links: toolLink.ts).
 * Everything here reads server data, so every reader is total (any value gives an answer, never an
 * exception) and linear in what it reads.
 */
import * as l10n from '../l10n';
import { isRecord } from '../guards';
import type { CallToolResult, JsonSchema, McpTool } from './types';
import type { ValidationResult } from './validation';

/** The output schema's verdict on one result, as history keeps it and the page shows it. */
export interface OutputVerdict {
  valid: boolean;
  issues: string[];
  /** Parts of the schema that were not checked (server regular expressions). */
  unchecked?: string;
  /** Set when structuredContent could not be checked at all (the schema is unusable): the reason. */
  notChecked?: string;
}

/** Issues listed for one result; the rest are counted. */
export const MAX_SHOWN_ISSUES = 20;

/**
 * The verdict on a successful result of a tool that declares an output schema (MCP 2025-11-25: such a
 * tool MUST return structuredContent that conforms to it). Undefined when the tool declares none or the
 * result is a tool error (whose structuredContent the schema does not describe). A missing
 * structuredContent and an unusable schema are verdicts too: shown, never silently passed.
 */
export function checkOutput(tool: Pick<McpTool, 'outputSchema'>, result: CallToolResult, validate: (schema: JsonSchema, value: unknown) => ValidationResult): OutputVerdict | undefined {
  const schema = tool.outputSchema;
  if (!isRecord(schema) || result.isError === true) return undefined;
  if (result.structuredContent === undefined) {
    return { valid: false, issues: [l10n.t('The tool declares an output schema but sent no structured content.')] };
  }
  const v = validate(schema, result.structuredContent);
  if (v.schemaError) return { valid: false, issues: [], notChecked: v.schemaError };
  const issues = v.issues.slice(0, MAX_SHOWN_ISSUES).map((i) => `${i.path || l10n.t('(root)')} ${i.message}`);
  if (v.issues.length > MAX_SHOWN_ISSUES) issues.push(l10n.t('…and {0} more', v.issues.length - MAX_SHOWN_ISSUES));
  return { valid: v.valid, issues, ...(v.unchecked ? { unchecked: v.unchecked } : {}) };
}

/** A tool's annotations as the UI uses them: only a real `true` counts (annotations are a server's hints, untrusted). */
export interface ToolHints {
  readOnly: boolean;
  /** destructiveHint true on a tool that is not read-only (the spec gives destructiveHint meaning only then). */
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
  /** annotations.title, when the tool has no title of its own. */
  title?: string;
}

const MAX_TITLE_CHARS = 120;

export function toolHints(tool: Pick<McpTool, 'annotations' | 'title'>): ToolHints {
  const a: Record<string, unknown> = isRecord(tool.annotations) ? tool.annotations : {};
  const readOnly = a.readOnlyHint === true;
  const title = typeof tool.title === 'string' && tool.title.trim() ? tool.title : typeof a.title === 'string' && a.title.trim() ? a.title : undefined;
  return {
    readOnly,
    destructive: !readOnly && a.destructiveHint === true,
    idempotent: a.idempotentHint === true,
    openWorld: a.openWorldHint === true,
    ...(title ? { title: plainText(title, MAX_TITLE_CHARS) } : {}),
  };
}

/** The largest icon drawn (a data: URI, in characters). */
export const MAX_ICON_CHARS = 64 * 1024;
const ICON_TYPES = /^image\/(png|jpeg|gif|webp)$/;
const DATA_ICON = /^data:(image\/(?:png|jpeg|gif|webp));base64,[A-Za-z0-9+/]+={0,2}$/;
const MAX_ICONS_READ = 16;

/**
 * The one icon of a tool that may be drawn: a data: URI of a raster image (png, jpeg, gif, webp) up to
 * MAX_ICON_CHARS. Anything else (http(s), svg, another scheme, a mime type that disagrees) is never
 * loaded: the page's CSP allows no remote image, and the caller draws a codicon instead.
 */
export function toolIcon(tool: Pick<McpTool, 'icons'>): string | undefined {
  const icons: unknown = tool.icons;
  if (!Array.isArray(icons)) return undefined;
  for (const icon of icons.slice(0, MAX_ICONS_READ)) {
    if (!isRecord(icon) || typeof icon.src !== 'string' || icon.src.length > MAX_ICON_CHARS) continue;
    const m = DATA_ICON.exec(icon.src);
    if (!m) continue;
    if (icon.mimeType !== undefined && (typeof icon.mimeType !== 'string' || !ICON_TYPES.test(icon.mimeType) || icon.mimeType !== m[1])) continue;
    return icon.src;
  }
  return undefined;
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
  s = s.replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g, '');
  s = keepLines ? s.replace(/\n{3,}/g, '\n\n') : s.replace(/\s+/g, ' ');
  s = s.trim();
  return s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s;
}

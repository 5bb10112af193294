/**
 * Messages between the extension host (src/mcp/toolPanel.ts) and the tools webview
 * (src/webview/tools/main.ts). Each message is defined once, with a `type` discriminant and an
 * `is…` guard for what arrives from the other side. No secrets ever cross: headers and keys stay in
 * the host; requests are exported with the token redacted.
 */
import { isArrayOf, isFiniteNumber, isOptional, isRecord, isString } from '../core/guards';

export interface ToolView {
  serverId: string;
  serverLabel: string;
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  readOnly: boolean;
  /** Set when the active credential cannot use this tool (Account key on an ability tool). */
  needsUserKey?: string;
}

export interface ToolErrorView {
  code: string;
  message: string;
  advice: string;
  retryAllowed: boolean;
  retryReason: string;
}

export interface CallView {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  startedAt: number;
  durationMs: number;
  requestIds: string[];
  result?: {
    content: Array<{ type: string; [key: string]: unknown }>;
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  };
  toolError?: ToolErrorView;
  failure?: { message: string; status?: number; code?: number | string; advice?: string };
  /** `unchecked`: parts of the output schema that were not checked (server regular expressions). */
  outputValidation?: { valid: boolean; issues: string[]; unchecked?: string };
  truncated?: boolean;
}

export type HostToWebview =
  | { type: 'init'; tool: ToolView; args?: Record<string, unknown>; history: CallView[] }
  | { type: 'running'; args: Record<string, unknown> }
  | { type: 'invalidArgs'; issues: Array<{ path: string; message: string }> }
  | { type: 'result'; call: CallView }
  | { type: 'notRun'; reason: string }
  | { type: 'history'; history: CallView[] }
  /** The active credential changed: the "needs a User key" note, or undefined to remove it. */
  | { type: 'needsUserKey'; text?: string };

export type WebviewToHost =
  | { type: 'ready' }
  | { type: 'run'; args: Record<string, unknown> }
  | { type: 'cancel' }
  | { type: 'retry'; callId: string }
  | { type: 'load'; callId: string }
  | { type: 'copy'; format: 'jsonrpc' | 'curl'; args: Record<string, unknown> }
  | { type: 'copyText'; text: string }
  | { type: 'openLink'; href: string }
  /** Show Site Details on a site of a `list_account_sites` result (#39.14): GET /v1/sites/{site_identifier}. */
  | { type: 'siteDetails'; siteId: string };

const WEBVIEW_TYPES = new Set(['ready', 'run', 'cancel', 'retry', 'load', 'copy', 'copyText', 'openLink', 'siteDetails']);
const HOST_TYPES = new Set(['init', 'running', 'invalidArgs', 'result', 'notRun', 'history', 'needsUserKey']);


/** Guard for messages the host receives: shape-checked, since the webview is a separate trust zone. */
export function isWebviewToHost(v: unknown): v is WebviewToHost {
  if (!isRecord(v) || typeof v.type !== 'string' || !WEBVIEW_TYPES.has(v.type)) return false;
  switch (v.type) {
    case 'run':
      return isRecord(v.args);
    case 'copy':
      return (v.format === 'jsonrpc' || v.format === 'curl') && isRecord(v.args);
    case 'retry':
    case 'load':
      return typeof v.callId === 'string';
    case 'copyText':
      return typeof v.text === 'string';
    case 'openLink':
      return typeof v.href === 'string';
    case 'siteDetails':
      return typeof v.siteId === 'string' && v.siteId.length > 0 && v.siteId.length <= 200;
    default:
      return true;
  }
}

const isCallView = (x: unknown): x is CallView =>
  isRecord(x) && isString(x.id) && isString(x.tool) && isRecord(x.args) && isFiniteNumber(x.startedAt) && isFiniteNumber(x.durationMs) && isArrayOf(x.requestIds, isString);
const isIssue = (x: unknown): x is { path: string; message: string } => isRecord(x) && isString(x.path) && isString(x.message);

/** Guard for messages the webview receives: every field the page reads first is checked. */
export function isHostToWebview(v: unknown): v is HostToWebview {
  if (!isRecord(v) || typeof v.type !== 'string' || !HOST_TYPES.has(v.type)) return false;
  switch (v.type) {
    case 'init':
      return isRecord(v.tool) && isString(v.tool.name) && isString(v.tool.serverLabel) && isRecord(v.tool.inputSchema) && isOptional(v.args, isRecord) && isArrayOf(v.history, isCallView);
    case 'running':
      return isRecord(v.args);
    case 'invalidArgs':
      return isArrayOf(v.issues, isIssue);
    case 'result':
      return isCallView(v.call);
    case 'notRun':
      return isString(v.reason);
    case 'history':
      return isArrayOf(v.history, isCallView);
    default:
      // needsUserKey
      return isOptional(v.text, isString);
  }
}

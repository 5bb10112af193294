/**
 * Messages between the extension host (src/mcp/toolPanel.ts, src/core/mcp/toolPanelController.ts) and
 * the tools webview (src/webview/tools/main.ts). Each message is declared once (one line of
 * WEBVIEW_TO_HOST or HOST_TO_WEBVIEW); its type, the `is…` guard for what arrives from the other side and
 * both handler maps (ToolsHostHandlers, ToolsPageHandlers: a missing handler does not compile) derive from it.
 * No secrets ever cross: headers and keys stay in the host; requests are exported with the token redacted.
 */
import { isArrayOf, isFiniteNumber, isRecord, isString } from '../core/guards';
import { arr, guardOf, oneOf, opt, shape, str, type Handlers, type MessageOf, type Table } from './declare';

export interface ToolView {
  serverId: string;
  serverLabel: string;
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  readOnly: boolean;
  /** The tool's annotations as booleans (src/core/mcp/toolShow.ts toolHints): shown in the form; `destructive` makes Run ask first. */
  hints?: { readOnly: boolean; destructive: boolean; idempotent: boolean; openWorld: boolean };
  /** A data: URI of a raster image (toolShow.ts toolIcon), else absent and a codicon is drawn. */
  icon?: string;
  /** The server's instructions from initialize, plain text, bounded (toolShow.ts serverInstructions). */
  serverInstructions?: string;
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
  /**
   * The output schema's verdict (#42.4). `unchecked`: parts of the schema that were not checked (server
   * regular expressions); `notChecked`: why structuredContent could not be checked at all.
   */
  outputValidation?: { valid: boolean; issues: string[]; unchecked?: string; notChecked?: string };
  truncated?: boolean;
}

const isCallView = (x: unknown): x is CallView =>
  isRecord(x) && isString(x.id) && isString(x.tool) && isRecord(x.args) && isFiniteNumber(x.startedAt) && isFiniteNumber(x.durationMs) && isArrayOf(x.requestIds, isString);
const isIssue = (x: unknown): x is { path: string; message: string } => isRecord(x) && isString(x.path) && isString(x.message);
const isHints = (x: unknown): boolean => x === undefined || (isRecord(x) && ['readOnly', 'destructive', 'idempotent', 'openWorld'].every((k) => typeof x[k] === 'boolean'));
const isToolView = (x: unknown): x is ToolView =>
  isRecord(x) && isString(x.name) && isString(x.serverLabel) && isRecord(x.inputSchema) && isHints(x.hints) && (x.icon === undefined || isString(x.icon)) && (x.serverInstructions === undefined || isString(x.serverInstructions));
const args = shape(isRecord);

/** Every message the host sends, once (src/protocol/declare.ts): the union and the page's guard come from it. */
export const HOST_TO_WEBVIEW = {
  init: { tool: shape(isToolView), args: opt(args), history: arr(shape(isCallView)) },
  running: { args },
  invalidArgs: { issues: arr(shape(isIssue)) },
  result: { call: shape(isCallView) },
  notRun: { reason: str() },
  history: { history: arr(shape(isCallView)) },
  /** The active credential changed: the "needs a User key" note, or undefined to remove it. */
  needsUserKey: { text: opt(str()) },
} satisfies Table;

/** Every message the page sends, once: the union and the host's guard come from it. */
export const WEBVIEW_TO_HOST = {
  ready: {},
  run: { args },
  cancel: {},
  retry: { callId: str() },
  load: { callId: str() },
  copy: { format: oneOf('jsonrpc', 'curl'), args },
  copyText: { text: str() },
  openLink: { href: str() },
  /** Show Site Details on a site of a `list_account_sites` result (#39.14): GET /v1/sites/{site_identifier}. */
  siteDetails: { siteId: str({ min: 1, max: 200 }) },
} satisfies Table;

export type HostToWebview = MessageOf<typeof HOST_TO_WEBVIEW>;
export type WebviewToHost = MessageOf<typeof WEBVIEW_TO_HOST>;

/** One handler per page message, for the host (ToolPanelController): a missing one is a compile error. */
export type ToolsHostHandlers = Handlers<WebviewToHost, void | Promise<void>>;
/** One handler per host message, for the page (src/webview/tools/main.ts): a missing one is a compile error. */
export type ToolsPageHandlers = Handlers<HostToWebview, void>;

/** Guard for messages the host receives: shape-checked, since the webview is a separate trust zone. */
export const isWebviewToHost: (v: unknown) => v is WebviewToHost = guardOf(WEBVIEW_TO_HOST);

/** Guard for messages the webview receives: every field the page reads first is checked. */
export const isHostToWebview: (v: unknown) => v is HostToWebview = guardOf(HOST_TO_WEBVIEW);

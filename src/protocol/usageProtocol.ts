/**
 * Messages between the Usage dashboard's host (src/usage/usagePanel.ts) and its webview
 * (src/webview/usage/main.ts). Each message is declared once (USAGE_TO_HOST, HOST_TO_USAGE;
 * src/protocol/declare.ts): the unions, both guards and both handler maps derive from it; the page's
 * query is a declared request (USAGE_REQUESTS) answered by `data`.
 * The documented analytics values (G-AN-4, G-AN-5) live here too, so the page's menus and the host's
 * checks (src/core/usage) read the same lists. No vscode, no DOM, no Node.
 */
import { isArrayOf, isFiniteNumber, isOneOf, isOptional, isRecord, isString } from '../core/guards';
import * as l10n from '../core/l10n';
import { arr, declareRequests, guardOf, index, num, oneOf, opt, shape, str, type Handlers, type MessageOf, type MessageOfType, type RequestTable, type Table } from './declare';

export const BUCKET_WIDTHS = ['10m', '1h', '1d'] as const;
export type BucketWidth = (typeof BUCKET_WIDTHS)[number];
export const AUTH_METHODS = ['browser_session', 'api_key', 'service_token', 'okta', 'internal_service', 'unknown'] as const;
export const ACTOR_TYPES = ['anonymous', 'authenticated', 'service', 'unknown'] as const;
export const APPLICATIONS = [
  'svc-ai-chatbot',
  'svc-ai-playground',
  'power-coworker',
  'power-connector',
  'svc-agents',
  'svc-kb-sync',
  'third_party',
  'unknown',
] as const;
export const GROUP_BY_DIMENSIONS = ['model', 'operation', 'client_id', 'site_id', 'auth_method', 'actor_type', 'application'] as const;
export type GroupByDimension = (typeof GROUP_BY_DIMENSIONS)[number];

/**
 * The words the dashboard and the report show for the API's dimensions and values (#29.13); the wire
 * keeps the documented names (G-AN-4, G-AN-5). Getters: each read is translated (#30.2) with whatever
 * src/core/l10n.ts is configured with by then, in the host and in the page.
 */
export const DIMENSION_LABELS: Readonly<Record<GroupByDimension, string>> = {
  get model() {
    return l10n.t({ message: 'Model', comment: ['a usage dimension'] });
  },
  get operation() {
    return l10n.t('Operation');
  },
  get client_id() {
    return l10n.t('Site');
  },
  get site_id() {
    return l10n.t('Site ID');
  },
  get auth_method() {
    return l10n.t('Signed in with');
  },
  get actor_type() {
    return l10n.t('Who called');
  },
  get application() {
    return l10n.t('Application');
  },
};
export const AUTH_METHOD_LABELS: Readonly<Record<(typeof AUTH_METHODS)[number], string>> = {
  get browser_session() {
    return l10n.t('Browser session');
  },
  get api_key() {
    return l10n.t('API key');
  },
  get service_token() {
    return l10n.t('Service token');
  },
  get okta() {
    return l10n.t('Okta single sign-on');
  },
  get internal_service() {
    return l10n.t('Internal service');
  },
  get unknown() {
    return l10n.t({ message: 'Unknown', comment: ['a usage dimension value'] });
  },
};
export const ACTOR_TYPE_LABELS: Readonly<Record<(typeof ACTOR_TYPES)[number], string>> = {
  get anonymous() {
    return l10n.t('Anonymous visitor');
  },
  get authenticated() {
    return l10n.t('Signed-in user');
  },
  get service() {
    return l10n.t('Service');
  },
  get unknown() {
    return l10n.t({ message: 'Unknown', comment: ['a usage dimension value'] });
  },
};

/**
 * The words for the operation ids the ledger records (src/**: `spend.record({ operation })`) and the
 * gateway reports ("chat", "image": the spec's examples), #41.10. An id not listed here is shown as sent;
 * the CSV exports keep the id in `operation` and these words in `operation_name`.
 */
export const OPERATION_LABELS: Readonly<Record<string, string>> = {
  get chat() {
    return l10n.t({ message: 'Chat', comment: ['a usage operation: chat completions'] });
  },
  get image() {
    return l10n.t({ message: 'Image generation', comment: ['a usage operation'] });
  },
  get 'chat-panel'() {
    return l10n.t({ message: 'AI Gateway Chat', comment: ['a usage operation: the chat in the sidebar or a tab'] });
  },
  get 'vscode-chat'() {
    return l10n.t({ message: 'VS Code chat', comment: ['a usage operation: VS Code’s own chat through this extension’s models'] });
  },
  get rewrite() {
    return l10n.t('Rewrite Selection');
  },
  get 'compat-check'() {
    return l10n.t({ message: 'Compatibility check', comment: ['a usage operation'] });
  },
  get 'Compare models'() {
    return l10n.t('Compare Models');
  },
  get 'image-generation'() {
    return l10n.t({ message: 'Image generation', comment: ['a usage operation'] });
  },
  get 'speech-generation'() {
    return l10n.t({ message: 'Speech generation', comment: ['a usage operation'] });
  },
  get transcription() {
    return l10n.t('Transcription');
  },
  get alt_text() {
    return l10n.t({ message: 'Alt text', comment: ['a usage operation'] });
  },
  get summary() {
    return l10n.t({ message: 'Summary', comment: ['a usage operation'] });
  },
  get taxonomy() {
    return l10n.t({ message: 'Tags and categories', comment: ['a usage operation: suggested taxonomy'] });
  },
};

const ESTIMATED = ' (estimated)';

/**
 * A dimension's value in words ("api_key" -> "API key", "chat-panel" -> "AI Gateway Chat"); values
 * without a label are shown as sent. The ledger's " (estimated)" mark is kept, in words.
 */
export function dimensionValueLabel(dimension: GroupByDimension, value: string): string {
  if (value.endsWith(ESTIMATED)) return l10n.t({ message: '{0} (estimated)', comment: ['a usage row whose cost is an estimate'], args: [dimensionValueLabel(dimension, value.slice(0, -ESTIMATED.length))] });
  const labels: Readonly<Record<string, string>> | undefined = dimension === 'auth_method' ? AUTH_METHOD_LABELS : dimension === 'actor_type' ? ACTOR_TYPE_LABELS : dimension === 'operation' ? OPERATION_LABELS : undefined;
  return labels !== undefined && Object.prototype.hasOwnProperty.call(labels, value) ? (labels[value] ?? value) : value;
}
export const DASHBOARD_PRESETS = ['day', 'week', 'month'] as const;

/**
 * What the page asks for: a preset, or typed bounds. Filters are the menus' values as chosen ('' is
 * "all"); the host checks every value again (resolveRequest, src/core/usage/dashboard.ts).
 */
export interface DashboardRequest {
  preset?: (typeof DASHBOARD_PRESETS)[number];
  start?: string;
  end?: string;
  width?: string;
  authMethod?: string;
  actorType?: string;
  application?: string;
  groupBy?: string[];
  site?: string;
}

export interface WireRow {
  dims: string[];
  requests: number;
  credits: string;
}

export interface WireSeries {
  label: string;
  /** Credits per bucket, for drawing only. */
  values: number[];
  /** Exact credits per bucket, for the tooltip. */
  exact: string[];
  requests: number[];
}

/** One source's answer as the page draws it (toWireView, src/core/usage/dashboard.ts). */
export interface WireView {
  source: 'gateway' | 'ledger';
  windowStart: string;
  windowEnd: string;
  bucketWidth: BucketWidth;
  dims: string[];
  total: { credits: string; requests: number };
  rows: WireRow[];
  chart: { xs: number[]; series: WireSeries[] };
}

/** One reconciliation row (ledger against gateway, per model and day), amounts already formatted. */
export interface ReconWire {
  day: string;
  model: string;
  ledger: string;
  ledgerRequests: number;
  gateway: string;
  gatewayRequests: number;
  diff: string;
  flagged: boolean;
  explanation?: string;
}

export interface GatewayNote {
  message: string;
  /** Offer the identity-token command. */
  credentialAction?: boolean;
  /** The query parameter the gateway refused. */
  param?: string;
  /** The gateway answered in a shape the extension does not recognise: its usage is unknown (#39.11). */
  unknown?: boolean;
}

/** The dimensions the local ledger records: the only ones its view can be grouped by (#41.7). */
export const LEDGER_DIMENSIONS = ['model', 'operation'] as const satisfies readonly GroupByDimension[];

/**
 * Which of the page's controls apply to the answer shown (#41.7): without the gateway's analytics the
 * view is the local ledger, which can be grouped by its own dimensions only and has no fields for the
 * filters. Absent: every control applies.
 */
export interface ControlsApply {
  groupBy: GroupByDimension[];
  filters: boolean;
  /** Why the others do not apply, shown next to them. */
  reason: string;
}

export const USAGE_EXPORTS = ['table', 'buckets', 'reconciliation', 'entries'] as const;
export type UsageExport = (typeof USAGE_EXPORTS)[number];

// ---------- guards of the shared view models ----------

const optStr = (x: unknown): boolean => isOptional(x, isString);

function isDashboardRequest(x: unknown): x is DashboardRequest {
  return (
    isRecord(x) &&
    (x.preset === undefined || isOneOf(x.preset, DASHBOARD_PRESETS)) &&
    optStr(x.start) &&
    optStr(x.end) &&
    optStr(x.width) &&
    optStr(x.authMethod) &&
    optStr(x.actorType) &&
    optStr(x.application) &&
    optStr(x.site) &&
    (x.groupBy === undefined || isArrayOf(x.groupBy, isString))
  );
}

const isNumbers = (x: unknown): x is number[] => isArrayOf(x, isFiniteNumber);
const isStrings = (x: unknown): x is string[] => isArrayOf(x, isString);

function isWireSeries(x: unknown): x is WireSeries {
  return isRecord(x) && isString(x.label) && isNumbers(x.values) && isStrings(x.exact) && isNumbers(x.requests);
}

function isWireRow(x: unknown): x is WireRow {
  return isRecord(x) && isStrings(x.dims) && isFiniteNumber(x.requests) && isString(x.credits);
}

function isWireView(x: unknown): x is WireView {
  return (
    isRecord(x) &&
    (x.source === 'gateway' || x.source === 'ledger') &&
    isString(x.windowStart) &&
    isString(x.windowEnd) &&
    isOneOf(x.bucketWidth, BUCKET_WIDTHS) &&
    isStrings(x.dims) &&
    isRecord(x.total) &&
    isString(x.total.credits) &&
    isFiniteNumber(x.total.requests) &&
    isArrayOf(x.rows, isWireRow) &&
    isRecord(x.chart) &&
    isNumbers(x.chart.xs) &&
    isArrayOf(x.chart.series, isWireSeries)
  );
}

function isReconWire(x: unknown): x is ReconWire {
  return (
    isRecord(x) &&
    isString(x.day) &&
    isString(x.model) &&
    isString(x.ledger) &&
    isFiniteNumber(x.ledgerRequests) &&
    isString(x.gateway) &&
    isFiniteNumber(x.gatewayRequests) &&
    isString(x.diff) &&
    typeof x.flagged === 'boolean' &&
    optStr(x.explanation)
  );
}

function isControlsApply(x: unknown): x is ControlsApply {
  return isRecord(x) && isArrayOf(x.groupBy, (d: unknown): d is GroupByDimension => isOneOf(d, GROUP_BY_DIMENSIONS)) && typeof x.filters === 'boolean' && isString(x.reason);
}

function isGatewayNote(x: unknown): x is GatewayNote {
  return isRecord(x) && isString(x.message) && (x.credentialAction === undefined || typeof x.credentialAction === 'boolean') && optStr(x.param) && (x.unknown === undefined || typeof x.unknown === 'boolean');
}

// ---------- the messages, each declared once (src/protocol/declare.ts) ----------

/** A request's id (declared in USAGE_REQUESTS): the page's client sets it, the host's answer echoes it. */
const rid = opt(index);

/** Every message the page sends: the union, the host's guard and its handler map (UsageHostHandlers) derive from it. */
export const USAGE_TO_HOST = {
  /** The dashboard for these controls (request: answered by `data` with the same `rid`). */
  query: { request: shape(isDashboardRequest), rid },
  export: { what: oneOf(...USAGE_EXPORTS) },
  setToken: {},
} satisfies Table;

/** Every message the host sends: the union, the page's guard and its handler map (UsagePageHandlers) derive from it. */
export const HOST_TO_USAGE = {
  loading: {},
  status: { message: str() },
  error: { message: str(), param: opt(str()) },
  /**
   * The dashboard: the answer to the page's `query` (with its `rid`), or a push without one (a reply was
   * priced, an identity token was set).
   */
  data: {
    parts: num,
    gateway: opt(shape(isWireView)),
    ledger: shape(isWireView),
    gatewayNote: opt(shape(isGatewayNote)),
    skipped: num,
    recon: arr(shape(isReconWire)),
    controls: opt(shape(isControlsApply)),
    rid,
  },
} satisfies Table;

export type UsageWebviewToHost = MessageOf<typeof USAGE_TO_HOST>;
export type HostToUsageWebview = MessageOf<typeof HOST_TO_USAGE>;
export type UsageDataMessage = MessageOfType<HostToUsageWebview, 'data'>;

/** One handler per page message, for the host: a missing one is a compile error. */
export type UsageHostHandlers = Handlers<UsageWebviewToHost, Promise<void>>;
/** One handler per host message, for the page: a missing one is a compile error. */
export type UsagePageHandlers = Handlers<HostToUsageWebview, void>;

/** The request/response pairs: the page sends through `usageRequestClient`, the host answers with `answerUsage`. */
export const USAGE_REQUESTS = {
  query: { response: 'data', id: 'rid', latestOnly: true },
} as const satisfies RequestTable<UsageWebviewToHost, HostToUsageWebview>;

const usageRequests = declareRequests<UsageWebviewToHost, HostToUsageWebview>()(USAGE_REQUESTS);
/** The answer to a usage request (its `rid` copied); the compiler checks the pair. */
export const answerUsage = usageRequests.answer;
/** The page's client of the usage requests (one per page): an answer to an older one than the last asked is dropped. */
export const usageRequestClient = usageRequests.client;

/** Guard for what the host receives (the page is a separate trust zone): derived from USAGE_TO_HOST. */
export const isUsageWebviewToHost: (m: unknown) => m is UsageWebviewToHost = guardOf(USAGE_TO_HOST);

/** Guard for what the page receives (everything it draws is checked): derived from HOST_TO_USAGE. */
export const isHostToUsageWebview: (m: unknown) => m is HostToUsageWebview = guardOf(HOST_TO_USAGE);

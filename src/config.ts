/**
 * Every `aiGateway.*` setting, declared once, typed. test/unit/config.test.ts keeps this list and
 * package.json `contributes.configuration` in sync (key, type, default), both ways.
 *
 * To add a setting: one `defineSetting` line here (in `settings`), plus the same key, type and default
 * in package.json. Read it with `settings.<name>.get()`; react with `affects(event, settings.<name>)`.
 *
 * This module has no runtime dependency on `vscode` (only `import type`), so plain-Node tests can load
 * it. The extension binds the real configuration once at activation (`bindSettingsSource`); until
 * then, and in tests, every setting reads as its default.
 */
import type * as vscode from 'vscode';

export type SettingSchemaType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';

export interface Setting<T> {
  /** Full key, e.g. "aiGateway.baseUrl". */
  readonly key: string;
  readonly default: T;
  /** The JSON-schema type declared in package.json. */
  readonly type: SettingSchemaType;
  /** The effective value (user, workspace, folder, or the default). */
  get(): T;
}

/** The slice of `vscode.workspace` settings are read from. */
export interface SettingsSource {
  getConfiguration(section?: string): Pick<vscode.WorkspaceConfiguration, 'get'>;
}

let source: SettingsSource | undefined;

/** Called once at activation with `vscode.workspace`; tests may bind a fake. Returns an unbind function. */
export function bindSettingsSource(next: SettingsSource): () => void {
  source = next;
  return () => {
    if (source === next) source = undefined;
  };
}

function inferType(value: unknown): SettingSchemaType {
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'object';
  }
}

/** integer and number are one kind here: VS Code's schema validation already flags 2.5 for an integer. */
function jsonKind(value: unknown): SettingSchemaType {
  const t = inferType(value);
  return t === 'integer' ? 'number' : t;
}

/**
 * Declares one setting. The schema type is inferred from the default (an integer default means
 * "integer"); pass `type` to override, e.g. "number" for a whole-number default of a fractional setting.
 * A stored value of the wrong JSON type (hand-edited settings.json) reads as the default.
 */
export function defineSetting<T>(key: string, defaultValue: T, options: { type?: SettingSchemaType } = {}): Setting<T> {
  const type = options.type ?? inferType(defaultValue);
  return {
    key,
    default: defaultValue,
    type,
    get(): T {
      const value = source?.getConfiguration().get<T>(key);
      return value !== undefined && value !== null && jsonKind(value) === jsonKind(defaultValue) ? value : defaultValue;
    },
  };
}

/**
 * Assumption (spec: not shown): the gateway's real base URL is not in the spec, so the default is a
 * clearly fake placeholder that the user must replace (the setting's description says so).
 */
export const PLACEHOLDER_BASE_URL = 'https://ai-gateway.example.com';

/**
 * Assumption (spec: not shown): the hosting account API's real address ({hosting_api_url}) is not in the
 * spec either; this placeholder must be replaced by the user (the setting's description says so).
 */
export const PLACEHOLDER_HOSTING_BASE_URL = 'https://hosting-api.example.com';

export const settings = {
  baseUrl: defineSetting('aiGateway.baseUrl', PLACEHOLDER_BASE_URL),
  connectTimeoutSeconds: defineSetting('aiGateway.timeouts.connectSeconds', 10),
  firstByteTimeoutSeconds: defineSetting('aiGateway.timeouts.firstByteSeconds', 120),
  idleTimeoutSeconds: defineSetting('aiGateway.timeouts.idleSeconds', 60),
  retryMaxAttempts: defineSetting('aiGateway.retry.maxAttempts', 4),
  retryMaxTotalSeconds: defineSetting('aiGateway.retry.maxTotalSeconds', 30),
  // Model catalog (src/catalog, src/catalogService.ts). Default models: '' means "not chosen".
  catalogShowRemoved: defineSetting('aiGateway.catalog.showRemoved', false),
  defaultChatModel: defineSetting('aiGateway.defaultModels.chat', ''),
  defaultSummaryModel: defineSetting('aiGateway.defaultModels.summary', ''),
  defaultTaxonomyModel: defineSetting('aiGateway.defaultModels.taxonomy', ''),
  defaultAltTextModel: defineSetting('aiGateway.defaultModels.altText', ''),
  // Content commands (src/content).
  contentSummaryAction: defineSetting<'ask' | 'insertBelow' | 'replaceSelection' | 'copy'>('aiGateway.content.summaryAction', 'ask'),
  contentAltTextDiagnostics: defineSetting('aiGateway.content.altTextDiagnostics', true),
  // MCP tool runner (src/mcp). Server headers marked secret live in SecretStorage, never here.
  mcpServers: defineSetting<Array<{ name: string; url: string; headers?: Record<string, string>; secretHeaders?: string[] }>>('aiGateway.mcp.servers', []),
  mcpAuthentication: defineSetting<'apiKey' | 'jwt'>('aiGateway.mcp.authentication', 'apiKey'),
  mcpServiceAccount: defineSetting('aiGateway.mcp.serviceAccount', ''),
  mcpServiceProject: defineSetting('aiGateway.mcp.serviceProject', ''),
  mcpConfirmReadOnlyAbilities: defineSetting('aiGateway.mcp.confirmReadOnlyAbilities', true),
  mcpRequestTimeoutSeconds: defineSetting('aiGateway.mcp.requestTimeoutSeconds', 120),
  // Usage analytics and the hosting account API (src/account). Credentials live in SecretStorage only.
  analyticsProjectId: defineSetting('aiGateway.analytics.projectId', ''),
  budgetDaily: defineSetting('aiGateway.budget.daily', ''),
  budgetMonthly: defineSetting('aiGateway.budget.monthly', ''),
  hostingBaseUrl: defineSetting('aiGateway.hosting.baseUrl', PLACEHOLDER_HOSTING_BASE_URL),
} as const;

export type Settings = typeof settings;

/** Every declared setting, for the manifest sync test. */
export function allSettings(): Setting<unknown>[] {
  return Object.values(settings) as Setting<unknown>[];
}

/** Environment variable that overrides `aiGateway.baseUrl` (used by `npm start` and the e2e tier). */
export const BASE_URL_ENV = 'AI_GATEWAY_BASE_URL';

/**
 * The base URL the client uses: AI_GATEWAY_BASE_URL when set (it wins over the setting, so a sandbox
 * editor can be pointed at the local gateway without touching user settings), else the setting.
 * Trailing slashes are dropped so paths can be appended.
 */
export function effectiveBaseUrl(env: NodeJS.ProcessEnv = process.env): { url: string; fromEnv: boolean } {
  const fromEnv = env[BASE_URL_ENV]?.trim();
  const url = fromEnv || settings.baseUrl.get().trim() || PLACEHOLDER_BASE_URL;
  return { url: url.replace(/\/+$/, ''), fromEnv: Boolean(fromEnv) };
}

/** True when a configuration change touches the given settings or sections. */
export function affects(event: Pick<vscode.ConfigurationChangeEvent, 'affectsConfiguration'>, ...keys: (Setting<unknown> | string)[]): boolean {
  return keys.some((k) => event.affectsConfiguration(typeof k === 'string' ? k : k.key));
}

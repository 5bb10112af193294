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
  /** Which settings files may set it (see SettingOrigin). */
  readonly origin: SettingOrigin;
  /** The effective value, from the files `origin` allows, or the default. */
  get(): T;
}

/**
 * Where a setting's value may come from. A workspace can be a cloned repository, and no workspace
 * setting may weaken a safety rule, send a credential elsewhere or spend the user's money:
 * - 'any': user, workspace or folder settings (the editor's normal precedence);
 * - 'user': user settings only; workspace and folder values are ignored. These settings are machine
 *   or application scoped in package.json, so the editor ignores workspace values too; reading
 *   `inspect().globalValue` here makes that hold whatever the editor does;
 * - 'trustedWorkspace': workspace and folder values only in a trusted workspace. These settings are
 *   listed in `capabilities.untrustedWorkspaces.restrictedConfigurations`; in Restricted Mode only the
 *   user's value counts.
 * test/unit/config.test.ts checks that each origin matches the manifest's scope and restricted list.
 */
export type SettingOrigin = 'any' | 'user' | 'trustedWorkspace';

/** The slice of `vscode.workspace` settings are read from. */
export interface SettingsSource {
  getConfiguration(section?: string): Pick<vscode.WorkspaceConfiguration, 'get' | 'inspect'>;
  /** vscode.workspace.isTrusted. A source that does not say is treated as untrusted. */
  readonly isTrusted?: boolean;
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
export function defineSetting<T>(key: string, defaultValue: T, options: { type?: SettingSchemaType; origin?: SettingOrigin } = {}): Setting<T> {
  const type = options.type ?? inferType(defaultValue);
  const origin = options.origin ?? 'any';
  return {
    key,
    default: defaultValue,
    type,
    origin,
    get(): T {
      const value = readValue<T>(key, origin);
      return value !== undefined && value !== null && jsonKind(value) === jsonKind(defaultValue) ? value : defaultValue;
    },
  };
}

function readValue<T>(key: string, origin: SettingOrigin): T | undefined {
  if (!source) return undefined;
  const config = source.getConfiguration();
  if (origin === 'any' || (origin === 'trustedWorkspace' && source.isTrusted === true)) return config.get<T>(key);
  return config.inspect<T>(key)?.globalValue;
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
  // Machine scoped: where the API key is sent is decided on the machine that holds the key.
  baseUrl: defineSetting('aiGateway.baseUrl', PLACEHOLDER_BASE_URL, { origin: 'user' }),
  connectTimeoutSeconds: defineSetting('aiGateway.timeouts.connectSeconds', 10),
  firstByteTimeoutSeconds: defineSetting('aiGateway.timeouts.firstByteSeconds', 120),
  idleTimeoutSeconds: defineSetting('aiGateway.timeouts.idleSeconds', 60),
  // Machine scoped: retries can repeat billed requests, so a workspace must not raise them; per
  // machine because how flaky the network is depends on the machine.
  retryMaxAttempts: defineSetting('aiGateway.retry.maxAttempts', 4, { origin: 'user' }),
  retryMaxTotalSeconds: defineSetting('aiGateway.retry.maxTotalSeconds', 30, { origin: 'user' }),
  // Model catalog (src/catalog, src/platform/catalogService.ts). Default models: '' means "not chosen".
  catalogShowRemoved: defineSetting('aiGateway.catalog.showRemoved', false),
  // Restricted: a trusted project may pin its models, but an untrusted repository must not choose
  // what the user is billed for.
  defaultChatModel: defineSetting('aiGateway.defaultModels.chat', '', { origin: 'trustedWorkspace' }),
  defaultSummaryModel: defineSetting('aiGateway.defaultModels.summary', '', { origin: 'trustedWorkspace' }),
  defaultTaxonomyModel: defineSetting('aiGateway.defaultModels.taxonomy', '', { origin: 'trustedWorkspace' }),
  defaultAltTextModel: defineSetting('aiGateway.defaultModels.altText', '', { origin: 'trustedWorkspace' }),
  defaultImageModel: defineSetting('aiGateway.defaultModels.image', '', { origin: 'trustedWorkspace' }),
  defaultSpeechModel: defineSetting('aiGateway.defaultModels.speech', '', { origin: 'trustedWorkspace' }),
  defaultTranscriptionModel: defineSetting('aiGateway.defaultModels.transcription', '', { origin: 'trustedWorkspace' }),
  // Content commands (src/content). Restricted: a trusted project may prefer another action, but an
  // untrusted repository must not make Summarise replace the user's text without asking.
  contentSummaryAction: defineSetting<'ask' | 'insertBelow' | 'replaceSelection' | 'copy'>('aiGateway.content.summaryAction', 'ask', { origin: 'trustedWorkspace' }),
  contentAltTextDiagnostics: defineSetting('aiGateway.content.altTextDiagnostics', true),
  // Model ids in any file (src/modelIds). Language-overridable: src/modelIds reads it per document.
  modelIdsEnabled: defineSetting('aiGateway.modelIds.enabled', true),
  // Every change proposed to a document is shown as a diff to accept or discard (src/platform/proposedChange.ts).
  // Read from the user's settings only: a cloned repository must not turn off the preview of its changes.
  contentPreviewChanges: defineSetting('aiGateway.content.previewChanges', true, { origin: 'user' }),
  // MCP tool runner (src/mcp). Server headers marked secret live in SecretStorage, never here.
  // Machine scoped: the servers and the credential sent to them are chosen where the keychain is.
  mcpServers: defineSetting<Array<{ name: string; url: string; headers?: Record<string, string>; secretHeaders?: string[] }>>('aiGateway.mcp.servers', [], { origin: 'user' }),
  mcpAuthentication: defineSetting<'apiKey' | 'jwt'>('aiGateway.mcp.authentication', 'apiKey', { origin: 'user' }),
  mcpServiceAccount: defineSetting('aiGateway.mcp.serviceAccount', ''),
  mcpServiceProject: defineSetting('aiGateway.mcp.serviceProject', ''),
  // Application scoped: a safety confirmation is the user's choice for every window; no repository
  // may turn it off.
  mcpConfirmReadOnlyAbilities: defineSetting('aiGateway.mcp.confirmReadOnlyAbilities', true, { origin: 'user' }),
  mcpRequestTimeoutSeconds: defineSetting('aiGateway.mcp.requestTimeoutSeconds', 120),
  // Application scoped: every agent round is a billed request, so no repository may raise the limit.
  chatAgentMaxRounds: defineSetting('aiGateway.chat.agent.maxRounds', 10, { origin: 'user' }),
  // Usage analytics and the hosting account API (src/account). Credentials live in SecretStorage only.
  analyticsProjectId: defineSetting('aiGateway.analytics.projectId', ''),
  // Budgets can only be lowered by the user: application scope, read from user settings only.
  budgetDaily: defineSetting('aiGateway.budget.daily', '', { origin: 'user' }),
  budgetMonthly: defineSetting('aiGateway.budget.monthly', '', { origin: 'user' }),
  // Machine scoped, like baseUrl: the hosting credentials go there.
  hostingBaseUrl: defineSetting('aiGateway.hosting.baseUrl', PLACEHOLDER_HOSTING_BASE_URL, { origin: 'user' }),
} as const;

export type Settings = typeof settings;

/** Every declared setting, for the manifest sync test. */
export function allSettings(): Setting<unknown>[] {
  return Object.values(settings) as Setting<unknown>[];
}

/**
 * Environment variable that overrides `aiGateway.baseUrl`, honoured only in development (see
 * `allowEnvironmentOverrides`).
 */
export const BASE_URL_ENV = 'AI_GATEWAY_BASE_URL';

let envOverridesAllowed = false;

/**
 * Whether AI_GATEWAY_BASE_URL / AI_GATEWAY_HOSTING_BASE_URL may replace the machine-scoped address
 * settings. Only when the extension runs from source (extensionMode Development or Test): in an
 * installed extension the environment may come from a cloned repository's devcontainer.json
 * (`remoteEnv`, `containerEnv`), and an address from there would receive the user's key. Set once at
 * activation (src/services.ts); false until then and in plain-Node tests unless a test sets it.
 */
export function allowEnvironmentOverrides(allowed: boolean): void {
  envOverridesAllowed = allowed;
}

export function environmentOverridesAllowed(): boolean {
  return envOverridesAllowed;
}

/**
 * The base URL the client uses: the setting, or, in development only, AI_GATEWAY_BASE_URL when set
 * (src/services.ts logs a variable it ignores).
 * Trailing slashes are dropped so paths can be appended.
 */
export function effectiveBaseUrl(env: NodeJS.ProcessEnv = process.env): { url: string; fromEnv: boolean } {
  const fromEnv = envOverridesAllowed ? env[BASE_URL_ENV]?.trim() : undefined;
  const url = fromEnv || settings.baseUrl.get().trim() || PLACEHOLDER_BASE_URL;
  return { url: url.replace(/\/+$/, ''), fromEnv: Boolean(fromEnv) };
}

/** True when a configuration change touches the given settings or sections. */
export function affects(event: Pick<vscode.ConfigurationChangeEvent, 'affectsConfiguration'>, ...keys: (Setting<unknown> | string)[]): boolean {
  return keys.some((k) => event.affectsConfiguration(typeof k === 'string' ? k : k.key));
}

/**
 * Wire-level and runner-level types of the MCP tool runner. Plain data only: these cross into the
 * webview (through src/protocol/toolsProtocol.ts) and into persisted history.
 */

/** The injected HTTP function. The editor passes the core chunk's proxy-aware undici fetch; tests pass Node's fetch. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export type JsonSchema = Record<string, unknown>;

export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: McpToolAnnotations;
  /** MCP 2025-11-25 icons; only data: URIs of raster images are ever shown (toolShow.ts toolIcon). */
  icons?: Array<{ src: string; mimeType?: string; sizes?: string[]; theme?: 'light' | 'dark' }>;
}

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name?: string; title?: string; description?: string; mimeType?: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: string; [key: string]: unknown };

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface ServerInfo {
  name: string;
  version: string;
  protocolVersion: string;
  instructions?: string;
  capabilities: Record<string, unknown>;
}

/** What the active credential is; decides the "needs a User key" marks. */
export type CredentialKind = 'user' | 'account' | 'jwt' | 'custom' | 'none';

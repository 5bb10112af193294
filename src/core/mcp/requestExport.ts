/**
 * "Copy as JSON-RPC request" and "Copy as curl". Credentials never leave the host in clear: every
 * secret-bearing header becomes a shell variable (`$AI_GATEWAY_TOKEN`, `$SECRET_<NAME>`), and the
 * whole text also passes redactSecrets with the real secret values. Non-secret headers
 * (Service-Account, Service-Project, a custom server's plain headers) stay readable, so the command
 * runs once the user exports the variables.
 */
import { redactSecrets } from '../log';
import { HEADER_NAME } from './headerName';

export const REDACTED_TOKEN = '$AI_GATEWAY_TOKEN';

/** Header names whose values are always secret, whatever the settings say. */
export const ALWAYS_SECRET_HEADERS: readonly string[] = ['authorization', 'cookie', 'x-api-key', 'proxy-authorization'];
const ALWAYS_SECRET = new Set(ALWAYS_SECRET_HEADERS);

export function isAlwaysSecretHeader(name: string): boolean {
  return ALWAYS_SECRET.has(name.trim().toLowerCase());
}

export { HEADER_NAME } from './headerName';

export function toJsonRpcRequest(name: string, args: Record<string, unknown>, id: number | string = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, null, 2);
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function isSecretHeader(name: string, secretHeaderNames: readonly string[]): boolean {
  const lower = name.toLowerCase();
  return ALWAYS_SECRET.has(lower) || secretHeaderNames.some((h) => h.toLowerCase() === lower);
}

/**
 * The values to strip from logs, errors and exports: the values of secret headers only, plus a bearer
 * or basic credential without its scheme. Plain header values (Service-Account, X-Tenant) are NOT
 * secrets: masking them would also mask their text in request bodies and make the export wrong.
 */
export function secretHeaderValuesFor(headers: Record<string, string>, secretHeaderNames: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(headers)) {
    if (!isSecretHeader(k, secretHeaderNames) || !v) continue;
    out.push(v);
    const credential = /^(?:bearer|basic)\s+(\S+)$/i.exec(v.trim());
    if (credential) out.push(credential[1]);
  }
  return out;
}

export interface CurlOptions {
  url: string;
  body: string;
  headers: Record<string, string>;
  secretHeaderNames?: readonly string[];
  /** Exact secret values known to the caller (keys, JWTs) to strip wherever they appear. */
  knownSecrets?: readonly string[];
}

/** The shell variable a secret header's value is read from: `$SECRET_X_API_TOKEN` for `X-Api-Token`. */
export function secretVariable(header: string): string {
  return '$SECRET_' + header.replace(/-/g, '_').toUpperCase();
}

/**
 * Throws on a header name that is not letters, digits and dashes: secret headers are written as
 * `-H "Name: $VAR"` (double quotes, so the variable expands), and a hand-edited name with `"` or
 * `$(…)` would otherwise break out of the string.
 */
export function toCurl(options: CurlOptions): string {
  const secretNames = options.secretHeaderNames ?? [];
  const lines = [`curl -sS -X POST ${shellQuote(options.url)}`];
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    ...options.headers,
  };
  for (const name of secretNames) if (!HEADER_NAME.test(name)) throw new Error(`Invalid header name in aiGateway.mcp.servers: ${JSON.stringify(name)} (letters, digits and dashes only).`);
  for (const [k, v] of Object.entries(headers)) {
    if (isSecretHeader(k, secretNames)) {
      if (!HEADER_NAME.test(k)) throw new Error(`Invalid header name: ${JSON.stringify(k)} (letters, digits and dashes only).`);
      // Keep the scheme so the command still shows how to authenticate; the credential is a shell variable.
      const value = k.toLowerCase() === 'authorization' && /^bearer\s/i.test(v) ? `Bearer ${REDACTED_TOKEN}` : secretVariable(k);
      lines.push(`  -H "${k}: ${value}"`);
    } else {
      lines.push(`  -H ${shellQuote(`${k}: ${v}`)}`);
    }
  }
  lines.push(`  --data-raw ${shellQuote(options.body)}`);
  return redactSecrets(lines.join(' \\\n'), options.knownSecrets ?? []);
}

export interface ExportOptions {
  format: 'jsonrpc' | 'curl';
  toolName: string;
  args: Record<string, unknown>;
  url: string;
  /**
   * Every header the call would send (secrets included, host-side only), or undefined when they could
   * not be built (no key yet): the curl then uses `Authorization: Bearer $AI_GATEWAY_TOKEN`.
   */
  headers: Record<string, string> | undefined;
  secretHeaderNames?: readonly string[];
}

/** What "Copy as JSON-RPC request" / "Copy as curl" put on the clipboard. Never contains a secret value. */
export function composeExport(o: ExportOptions): string {
  const body = toJsonRpcRequest(o.toolName, o.args);
  const headers = o.headers ?? { Authorization: `Bearer ${REDACTED_TOKEN}` };
  const knownSecrets = o.headers ? secretHeaderValuesFor(o.headers, o.secretHeaderNames) : [];
  if (o.format === 'jsonrpc') return redactSecrets(body, knownSecrets);
  return toCurl({ url: o.url, body, headers, secretHeaderNames: o.secretHeaderNames, knownSecrets });
}

/**
 * "Copy as JSON-RPC request" and "Copy as curl". Credentials never leave the host in clear: every
 * secret-bearing header is replaced by a placeholder, and the whole text also passes redactSecrets.
 */
import { redactSecrets } from '../log';

export const REDACTED_TOKEN = '$AI_GATEWAY_TOKEN';

/** Header names whose values are secret. Custom-server header values the user marked secret are passed in `secretHeaderNames`. */
const ALWAYS_SECRET = new Set(['authorization', 'cookie', 'x-api-key', 'proxy-authorization']);

export function toJsonRpcRequest(name: string, args: Record<string, unknown>, id: number | string = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, null, 2);
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export interface CurlOptions {
  url: string;
  body: string;
  headers: Record<string, string>;
  secretHeaderNames?: readonly string[];
  /** Exact secret values known to the caller (keys, JWTs) to strip wherever they appear. */
  knownSecrets?: readonly string[];
}

export function toCurl(options: CurlOptions): string {
  const secret = new Set([...ALWAYS_SECRET, ...(options.secretHeaderNames ?? []).map((h) => h.toLowerCase())]);
  const lines = [`curl -sS -X POST ${shellQuote(options.url)}`];
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    ...options.headers,
  };
  for (const [k, v] of Object.entries(headers)) {
    let value = v;
    if (secret.has(k.toLowerCase())) {
      // Keep the scheme so the command still shows how to authenticate; the token is a shell variable.
      value = k.toLowerCase() === 'authorization' && /^bearer\s/i.test(v) ? `Bearer ${REDACTED_TOKEN}` : '$SECRET_' + k.replace(/[^A-Za-z0-9]/g, '_').toUpperCase();
      lines.push(`  -H "${k}: ${value}"`);
    } else {
      lines.push(`  -H ${shellQuote(`${k}: ${value}`)}`);
    }
  }
  lines.push(`  --data-raw ${shellQuote(options.body)}`);
  return redactSecrets(lines.join(' \\\n'), options.knownSecrets ?? []);
}

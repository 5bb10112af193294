/**
 * The hosting account API's base address (vscode-free). Like AI_GATEWAY_BASE_URL for the gateway, an
 * environment variable wins over the setting so a sandbox editor (`npm start`, the e2e tier) can point
 * at the local gateway's `<gateway>/hosting` without touching user settings.
 */
export const HOSTING_BASE_URL_ENV = 'AI_GATEWAY_HOSTING_BASE_URL';

export function resolveHostingBaseUrl(setting: string, placeholder: string, env: Record<string, string | undefined>): { url: string; fromEnv: boolean; isPlaceholder: boolean } {
  const fromEnv = env[HOSTING_BASE_URL_ENV]?.trim();
  const url = (fromEnv || setting.trim() || placeholder).replace(/\/+$/, '');
  return { url, fromEnv: Boolean(fromEnv), isPlaceholder: url === placeholder.replace(/\/+$/, '') };
}

/**
 * Whether credentials may be asked for this hosting address (#29.2), before any request: the
 * placeholder is not an address; it must be https, or http on a loopback host (a local gateway).
 * Returns the problem in words, or undefined.
 */
export function hostingAddressProblem(url: string, isPlaceholder: boolean): string | undefined {
  if (isPlaceholder) return `aiGateway.hosting.baseUrl is still the placeholder ${url}: set your hosting API address first.`;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `aiGateway.hosting.baseUrl (${url}) is not a valid address.`;
  }
  if (u.protocol === 'https:') return undefined;
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const loopback = host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  if (u.protocol === 'http:' && loopback) return undefined;
  return `aiGateway.hosting.baseUrl (${url}) must be an https:// address (or http:// on this machine): your hosting password would travel unprotected.`;
}

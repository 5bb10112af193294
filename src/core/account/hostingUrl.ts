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

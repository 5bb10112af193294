// Dependency-free so editor glue can build gateway URLs without loading the undici client.

/**
 * Joins the base URL and an absolute path. A base URL that already ends in /v1 (a common way to
 * write it) is not doubled: "https://gw.example/v1" + "/v1/models" gives ".../v1/models".
 */
export function joinUrl(baseUrl: string, path: string): URL {
  const base = new URL(baseUrl.trim());
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new TypeError(`unsupported protocol ${base.protocol}`);
  let prefix = base.pathname.replace(/\/+$/, '');
  if (prefix.endsWith('/v1') && path.startsWith('/v1/')) prefix = prefix.slice(0, -3);
  const q = path.indexOf('?');
  base.pathname = prefix + (q === -1 ? path : path.slice(0, q));
  base.search = q === -1 ? '' : path.slice(q);
  base.hash = '';
  return base;
}

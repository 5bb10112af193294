/**
 * GET /v1/sites/{site_identifier} on the local gateway (#39.14): the key's `collections` scope at read,
 * as the spec's "Endpoints known by scope" table says (other methods stay with the scope stub, which
 * needs collections at write). The sites are the account's sites of the tool server (mcpTools.ts).
 *
 * Assumption (spec: payload not shown): `{site_id, name, url, cms_connection_status}` for the key's
 * person, like list_account_sites reports per site; 404 envelope for an unknown site. modes.ts
 * `siteDetails: 'other'` answers in another plausible shape (`{site: {id, title, home_url}}`).
 */
import type { RouteModule } from './context';
import { LOCAL_PERSON } from './mcpJwt';
import { siteOf } from './mcpTools';
import { modesOf } from './modes';

export const sitesModule: RouteModule = {
  name: 'sites',
  register(route) {
    route('GET', '/v1/sites/{site_identifier}', (req, res, ctx, p) => {
      const key = ctx.authorize(req, res, 'collections', 'read');
      if (!key) return;
      const site = siteOf(p.site_identifier);
      if (!site) return ctx.sendError(res, 404, 'not_found_error', `no site ${p.site_identifier} in this account`);
      if (modesOf(ctx.events).siteDetails === 'other') {
        ctx.sendJson(res, 200, { site: { id: site.site_id, title: site.name, home_url: site.url, created: '2025-01-01T00:00:00Z' } });
        return;
      }
      // Account keys act as nobody: the connection does not apply (as list_account_sites says).
      const status = key.type === 'account' ? 'not_applicable' : site.connected.includes(LOCAL_PERSON) ? 'connected' : 'not_connected';
      ctx.sendJson(res, 200, { site_id: site.site_id, name: site.name, url: site.url, cms_connection_status: status });
    });
  },
};

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSiteId, fetchSiteDetails, recogniseSiteDetails, siteDetailsMarkdown } from '../../../src/core/sites/siteDetails';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { modesOf, resetModes } from '../../localGateway/modes';
import { rejection, useKbGateway } from '../knowledge/helpers';

describe('GET /v1/sites/{site_identifier}: a read-only client (#39.14)', () => {
  const { gw, client } = useKbGateway();

  test('[#39.14] a site listed by list_account_sites is read with its name and address', async () => {
    resetModes(gw().events);
    const d = await fetchSiteDetails(client(LOCAL_KEYS.userFull), 'site_blog');
    assert.equal(d.shape.kind, 'recognised');
    assert.deepEqual(d.shape.kind === 'recognised' && d.shape.site, { site_id: 'site_blog', name: 'Team Blog', url: 'https://blog.example.test', cms_connection_status: 'connected' });
    const md = siteDetailsMarkdown('site_blog', d);
    assert.match(md, /Name: Team Blog/);
    assert.match(md, /Answer as sent/);
    const requests = gw().events.list('request').filter((e) => String(e.path).startsWith('/v1/sites/'));
    assert.ok(requests.length > 0 && requests.every((e) => e.method === 'GET'), 'only reads');
  });

  test('[#39.14] [G-AUTH-7] the route needs collections at read: a read-only key reads, a chat-only key gets 403 naming collections', async () => {
    resetModes(gw().events);
    assert.equal((await fetchSiteDetails(client(LOCAL_KEYS.userReadOnly), 'site_shop')).shape.kind, 'recognised');
    const e = (await rejection(() => fetchSiteDetails(client(LOCAL_KEYS.userChatOnly), 'site_shop'))) as { status?: number; message: string };
    assert.equal(e.status, 403);
    assert.match(e.message, /collections/);
    const missing = (await rejection(() => fetchSiteDetails(client(LOCAL_KEYS.userFull), 'site_nope'))) as { status?: number };
    assert.equal(missing.status, 404);
  });

  test('[#39.14] another shape is shown raw, with no field invented', async () => {
    resetModes(gw().events);
    modesOf(gw().events).siteDetails = 'other';
    const d = await fetchSiteDetails(client(LOCAL_KEYS.userFull), 'site_blog');
    resetModes(gw().events);
    assert.equal(d.shape.kind, 'unrecognised');
    const md = siteDetailsMarkdown('site_blog', d);
    assert.match(md, /does not recognise/);
    assert.match(md, /"home_url": "https:\/\/blog\.example\.test"/, 'the answer as sent');
    assert.doesNotMatch(md, /Name: |Address: /, 'no assumed field read from it');
  });

  test('[#39.14] the recogniser wants the assumed fields for the site asked; bad identifiers are refused before sending', async () => {
    assert.equal(recogniseSiteDetails({ site_id: 'a', name: 'n', url: 'u' }, 'a').kind, 'recognised');
    for (const body of [[], null, { site_id: 'b', name: 'n', url: 'u' }, { id: 'a', name: 'n', url: 'u' }, { site_id: 'a', name: 1, url: 'u' }, { site_id: 'a', name: 'n', url: 'u', cms_connection_status: 3 }]) {
      assert.equal(recogniseSiteDetails(body, 'a').kind, 'unrecognised', JSON.stringify(body));
    }
    for (const id of ['', ' a', 'a\nb', 'x'.repeat(201)]) assert.ok(checkSiteId(id), JSON.stringify(id));
    const before = gw().events.list('request').length;
    await rejection(() => fetchSiteDetails(client(LOCAL_KEYS.userFull), 'a\u0000b'));
    assert.equal(gw().events.list('request').length, before, 'nothing sent');
    // The identifier is one path segment.
    const e = (await rejection(() => fetchSiteDetails(client(LOCAL_KEYS.userFull), '../models'))) as { status?: number };
    assert.equal(e.status, 404);
  });
});

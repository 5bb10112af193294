import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { documentIndexOfSent, ExclusionsDocumentError, locateEntries, parseExclusionsDocument, problemRange, serializeExclusions, stripJsonComments, summarizeReplacement } from '../../../src/core/account/exclusionsDocument';
import { describeError } from '../../../src/core/errorText';
import { HostingError, type CacheExclusion } from '../../../src/core/account/hosting';
import { HostingClient } from '../../../src/core/account/hostingClient';
import { HOSTING_IDS, HOSTING_USERS } from '../../localGateway/hosting';
import { useGateway } from '../gateway/helpers';

const ID = HOSTING_IDS.installNormal;
const LIST: CacheExclusion[] = [
  { type: 'url path', value: '^/cart' },
  { type: 'query arg', value: '^utm_"quoted"\\d+' },
  { type: 'cookie', value: '^wp_woocommerce_session_' },
];

describe('cache exclusions document', () => {
  test('[H-CE-3] serialise then parse round-trips the list read from GET, cookie entries included', () => {
    const text = serializeExclusions(ID, LIST);
    assert.deepEqual(parseExclusionsDocument(text), LIST);
    assert.deepEqual(parseExclusionsDocument(serializeExclusions(ID, [])), []);
    assert.match(text, /"cookie" entries are platform-managed/);
    assert.match(text, new RegExp(ID));
  });

  test('comments are stripped outside strings only; // inside a value survives', () => {
    const text = '// head\n[ /* note */ { "type": "url path", "value": "^https?://x/*y" } // tail\n]';
    assert.deepEqual(parseExclusionsDocument(text), [{ type: 'url path', value: '^https?://x/*y' }]);
    assert.equal(stripJsonComments('"a//b" // c').trimEnd(), '"a//b"');
    assert.throws(() => stripJsonComments('[ /* open'), ExclusionsDocumentError);
  });

  test('[H-CE-2] duplicates are collapsed before saving', () => {
    const text = '[{"type":"url path","value":"^/a"},{"type":"url path","value":"^/a"},{"type":"query arg","value":"^/a"}]';
    assert.deepEqual(parseExclusionsDocument(text), [
      { type: 'url path', value: '^/a' },
      { type: 'query arg', value: '^/a' },
    ]);
  });

  test('[H-CE-4] [H-CE-7] invalid regex, bad type, bad shape and bad JSON are clear errors naming the entry or line', () => {
    assert.throws(() => parseExclusionsDocument('[{"type":"url path","value":"([a-z"}]'), (e: unknown) => e instanceof ExclusionsDocumentError && /Exclusion 1: '\(\[a-z' is not a valid regular expression/.test(e.message));
    assert.throws(() => parseExclusionsDocument('[{"type":"url path","value":"^/ok"},{"type":"header","value":"x"}]'), /Exclusion 2: type must be one of 'query arg', 'url path', 'cookie'/);
    assert.throws(() => parseExclusionsDocument('[{"type":"url path","value":5}]'), /"value" must be a string/);
    assert.throws(() => parseExclusionsDocument('[{"type":"url path","value":"x","ttl":3}]'), /unknown field "ttl"/);
    assert.throws(() => parseExclusionsDocument('"x"'), /JSON array/);
    assert.throws(() => parseExclusionsDocument('// only a comment\n'), /empty.*save \[\]/);
    assert.throws(() => parseExclusionsDocument('// c\n[\n  {"type":"url path","value":"a"}\n  {"type":"url path","value":"b"}\n]'), (e: unknown) => e instanceof ExclusionsDocumentError && /not valid JSON/.test(e.message));
  });

  test('an object pasted from the API ({exclusions} or {results}) is accepted', () => {
    assert.deepEqual(parseExclusionsDocument('{"results":[{"type":"url path","value":"^/a"}]}'), [{ type: 'url path', value: '^/a' }]);
    assert.deepEqual(parseExclusionsDocument('{"exclusions":[]}'), []);
  });

  test('[H-CE-1] the save summary counts added and removed writable entries; cookies are reported as unchanged', () => {
    const after: CacheExclusion[] = [{ type: 'url path', value: '^/cart' }, { type: 'url path', value: '^/new' }, LIST[2]];
    assert.equal(summarizeReplacement(LIST, after), '2 writable exclusions, 1 added, 1 removed, 1 platform-managed cookie entry unchanged');
  });
});

describe('cache exclusions document: where a problem is (#29.10)', () => {
  const doc = serializeExclusions(HOSTING_IDS.installNormal, [
    { type: 'url path', value: '^/cart' },
    { type: 'query arg', value: '(utm_' },
    { type: 'cookie', value: '^wp_' },
  ]);
  const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

  test('[#29.10] an invalid pattern is located on its own line, at its value, with the reason', () => {
    const err = (() => {
      try {
        parseExclusionsDocument(doc);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    assert.ok(err instanceof ExclusionsDocumentError);
    assert.match(err.message, /Exclusion 2: '\(utm_' is not a valid regular expression \(.+\)/);
    assert.ok(err.range, 'the error carries a range');
    assert.equal(doc.slice(err.range.start, err.range.end), '"(utm_"');
    assert.equal(lineAt(doc, err.range.start), doc.split('\n').findIndex((l) => l.includes('(utm_')) + 1);
  });

  test('[#29.10] entries are located in the array, in an {exclusions} object, across comments and odd spacing', () => {
    const text = '// c\n{ "note": "[x]", "exclusions": [\n  {"value": "a,b", "type": "url path"} , /* } */\n  { "type" : "query arg",\n "value":"^x" }\n] }';
    const found = locateEntries(stripJsonComments(text));
    assert.equal(found.length, 2);
    assert.equal(text.slice(found[0].value!.start, found[0].value!.end), '"a,b"');
    assert.equal(text.slice(found[1].type!.start, found[1].type!.end), '"query arg"');
    assert.equal(lineAt(text, found[1].entry.start), 4);
    assert.equal(problemRange(text, 5), undefined, 'an index past the end is not invented');
  });

  test('[#29.10] a server error naming exclusions[i].value marks that entry of the document, duplicates collapsed before sending', () => {
    const text = '[\n { "type": "url path", "value": "^/a" },\n { "type": "url path", "value": "^/a" },\n { "type": "url path", "value": "[b" }\n]';
    const sent = [
      { type: 'url path' as const, value: '^/a' },
      { type: 'url path' as const, value: '[b' },
    ];
    const at = documentIndexOfSent(text, sent, 'exclusions[1].value');
    assert.deepEqual(at, { index: 2, field: 'value' });
    const range = problemRange(text, at.index, at.field);
    assert.ok(range);
    assert.equal(text.slice(range.start, range.end), '"[b"');
    assert.equal(documentIndexOfSent(text, sent, 'destination_account_id'), undefined);
  });

  test('[#29.10] a long document (20,000 entries) is located in one pass, the last entry included', () => {
    const big = `[${Array.from({ length: 20_000 }, (_, i) => `{ "type": "url path", "value": "^/p${i}" }`).join(',\n')}]`;
    const found = locateEntries(big);
    assert.equal(found.length, 20_000);
    assert.equal(big.slice(found[19_999].value!.start, found[19_999].value!.end), '"^/p19999"');
  });
});

describe('cache exclusions document against the local gateway', () => {
  const gw = useGateway();
  const client = () =>
    new HostingClient({
      baseUrl: () => `${gw().url}/hosting`,
      getCredentials: async () => ({ username: 'owner', password: HOSTING_USERS.owner.password }),
      fetch: (url, init) => fetch(url, init),
      userAgent: 'test',
    });

  test('[H-CE-1] [H-CE-3] GET -> document -> edit -> PUT replaces the set; the cookie entry stays', async () => {
    const c = client();
    const doc = serializeExclusions(HOSTING_IDS.installNormal, await c.getCacheExclusions(HOSTING_IDS.installNormal));
    const edited = doc.replace('"^/cart"', '"^/basket"').replace(/\n\s*\{ "type": "query arg"[^\n]*,/, '');
    assert.notEqual(edited, doc);
    const saved = await c.putCacheExclusions(HOSTING_IDS.installNormal, parseExclusionsDocument(edited));
    assert.deepEqual(
      saved.map((e) => `${e.type}=${e.value}`).sort(),
      ['cookie=^wp_woocommerce_session_', 'url path=^/basket'],
    );
    assert.deepEqual(parseExclusionsDocument(serializeExclusions(HOSTING_IDS.installNormal, await c.getCacheExclusions(HOSTING_IDS.installNormal))), saved);
  });

  test('[H-CE-6] a save while the install is transferable gets 409 with a clear message, and the server list is unchanged', async () => {
    const c = client();
    const before = await c.getCacheExclusions(HOSTING_IDS.installTransferable);
    const edited = parseExclusionsDocument(serializeExclusions(HOSTING_IDS.installTransferable, [...before, { type: 'url path', value: '^/new' }]));
    const err = await c.putCacheExclusions(HOSTING_IDS.installTransferable, edited).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof HostingError && err.status === 409, String(err));
    const text = describeError(err, { operation: 'saveExclusions' }).message;
    assert.match(text, /install is transferable/);
    assert.match(text, /Your edits are kept in the editor; nothing was changed on the server\./);
    assert.deepEqual(await c.getCacheExclusions(HOSTING_IDS.installTransferable), before);
  });
});

/**
 * Issue 30 item 4: behind a corporate network. The local gateway listens over HTTPS with a
 * certificate signed by a root made at test time (corporateHelpers.ts), reached through a real CONNECT
 * proxy that wants Basic authentication. Nothing here turns off certificate verification
 * (strictSSL stays true); the environment is passed to the code under test, never written to process.env.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { HOSTING_IDS, HOSTING_USERS } from '../../localGateway/hosting';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import { HostingClient } from '../../../src/core/account/hostingClient';
import { Network, type NetworkOptions } from '../../../src/core/http/network';
import type { NetworkSettings } from '../../../src/core/http/dispatcher';
import type { ProxyAuthHooks, ProxyAuthPrompt, ProxyCredential } from '../../../src/core/http/proxyAuth';
import { pemBlocks, trustedAuthorities } from '../../../src/core/http/trust';
import { parseChallenge, splitProxyUrl } from '../../../src/core/http/proxyAuth';
import { describeError } from '../../../src/core/errorText';
import { errorFromTransport } from '../../../src/core/http/classify';
import { isHostingError } from '../../../src/core/account/hosting';
import { gatewayError, MemoryLogger } from './helpers';
import { makeTestPki, startAuthProxy, type AuthProxy, type TestPki } from './corporateHelpers';

const PROXY_USER = 'corp\\alice';
const PROXY_PASSWORD = 'p@ss:w%rd é';

let pki: TestPki;
let gateway: RunningGateway;
let proxy: AuthProxy;
const networks: Network[] = [];

before(async () => {
  pki = makeTestPki();
  gateway = await startGateway({ tls: { key: pki.key, cert: pki.cert } });
  proxy = await startAuthProxy(PROXY_USER, PROXY_PASSWORD);
});
after(async () => {
  await Promise.all(networks.map((n) => n.dispose()));
  await proxy.close();
  await gateway.close();
  pki.dispose();
});

/** The proxy URL with the credential percent-encoded, as a user writes it in http.proxy. */
function proxyWithCredentials(user = PROXY_USER, password = PROXY_PASSWORD): string {
  const u = new URL(proxy.url);
  u.username = encodeURIComponent(user);
  u.password = encodeURIComponent(password);
  return u.href;
}

/** A Network as the extension builds it: an explicit environment, no system store unless given. */
function network(settings: NetworkSettings | (() => NetworkSettings), options: Partial<NetworkOptions> = {}): Network {
  const net = new Network({ settings: typeof settings === 'function' ? settings : () => settings, env: {}, systemCaFiles: [], retry: () => ({ maxAttempts: 1 }), ...options });
  networks.push(net);
  return net;
}

function catalogVia(net: Network, log = new MemoryLogger()) {
  return createGatewayClient({ baseUrl: gateway.url, getKey: async () => undefined, net, logger: log }).listModels();
}

/** SecretStorage and the two input boxes, in memory; `answers` are what the user types, in order. */
class FakeProxyPrompt implements ProxyAuthHooks {
  readonly saved = new Map<string, ProxyCredential>();
  readonly prompts: ProxyAuthPrompt[] = [];
  readonly forgotten: string[] = [];
  constructor(private readonly answers: Array<ProxyCredential | undefined>) {}
  async load(origin: string) {
    return this.saved.get(origin);
  }
  async save(origin: string, c: ProxyCredential) {
    this.saved.set(origin, c);
  }
  async forget(origin: string) {
    this.forgotten.push(origin);
    this.saved.delete(origin);
  }
  async ask(p: ProxyAuthPrompt) {
    this.prompts.push(p);
    await new Promise((r) => setTimeout(r, 20));
    return this.answers.shift();
  }
}

function assertNoSecret(text: string): void {
  for (const secret of [PROXY_PASSWORD, encodeURIComponent(PROXY_PASSWORD), 'wrong-password']) assert.ok(!text.includes(secret), `"${text}" holds a secret`);
}

describe('[#30.4] corporate network: certificates', () => {
  test('[#30.4] without the test root trusted, the gateway certificate is refused with words that name the problem and what fixes it (strictSSL stays on)', async () => {
    const e = await gatewayError(catalogVia(network({ proxy: proxyWithCredentials(), strictSSL: true })));
    assert.equal(e.code, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    assert.equal(e.mayHaveReachedServer, false);
    assert.equal(e.retryable, false);
    assert.match(e.message, /signed by an authority this editor does not trust/);
    assert.match(e.message, /NODE_EXTRA_CA_CERTS/);
    assert.match(e.message, /operating system's store/);
    assert.match(e.message, /do not turn off http\.proxyStrictSSL/);
    const words = describeError(e);
    assert.deepEqual(words.actions, ['openSettings']);
    assert.equal(words.settingKey, 'http.systemCertificates');
    assert.equal(gateway.events.list('request').length, 0, 'nothing reached the gateway');
  });

  test('[#30.4] NODE_EXTRA_CA_CERTS (in the environment given to the network layer) makes the catalog load through the proxy', async () => {
    const lines: string[] = [];
    const net = network({ proxy: proxyWithCredentials() }, { env: { NODE_EXTRA_CA_CERTS: pki.caFile }, log: (l) => lines.push(l) });
    const r = await catalogVia(net);
    assert.ok(r.data.data.length > 0);
    assert.ok(proxy.tunnels.length > 0);
    await catalogVia(net);
    // Built once for the settings value, and said where the trust came from.
    assert.deepEqual(lines, ["TLS: trusting Node's roots, NODE_EXTRA_CA_CERTS (1 added)"]);
  });

  test('[#30.4] the test root in the system store makes the catalog load; a missing store file is skipped; http.systemCertificates false stops trusting it', async () => {
    const store = join(pki.dir, 'system-store.pem');
    // A system bundle: comments, another authority, then ours.
    writeFileSync(store, `# Fake system bundle\n${pemBlocks(rootCertificates.join('\n'))[0]}\n\n${pki.caPem}`);
    let settings: NetworkSettings = { proxy: proxyWithCredentials() };
    const net = network(() => settings, { systemCaFiles: [join(pki.dir, 'absent.crt'), store] });
    assert.ok((await catalogVia(net)).data.data.length > 0);
    settings = { ...settings, systemCertificates: false };
    const e = await gatewayError(catalogVia(net));
    assert.equal(e.code, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    settings = { ...settings, systemCertificates: true };
    assert.ok((await catalogVia(net)).data.data.length > 0, 'trusted again when the setting is back on');
  });

  test('[#30.4] the system store and NODE_EXTRA_CA_CERTS are read within bounds; an unreadable file is no error', () => {
    const t = trustedAuthorities({ env: { NODE_EXTRA_CA_CERTS: join(pki.dir, 'nope.pem') }, systemCaFiles: [pki.dir], systemCertificates: true });
    assert.deepEqual(t.added, []);
    assert.deepEqual(t.sources, ['NODE_EXTRA_CA_CERTS (not readable)']);
    const damaged = `-----BEGIN CERTIFICATE-----\n!!not base64!!\n-----END CERTIFICATE-----\n${pki.caPem}-----BEGIN CERTIFICATE-----\nAAAA`;
    assert.equal(pemBlocks(damaged).length, 1);
  });

  test('[#30.4] each refused-certificate code gets words that name the problem and the setting that fixes it, wherever undici put the code', () => {
    const cases: Array<[string, RegExp, string | undefined]> = [
      ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', /signed by an authority this editor does not trust\. If your company's proxy re-signs HTTPS, add its root certificate to the operating system's store .*NODE_EXTRA_CA_CERTS.*do not turn off http\.proxyStrictSSL/, 'http.systemCertificates'],
      ['SELF_SIGNED_CERT_IN_CHAIN', /signed by an authority this editor does not trust/, 'http.systemCertificates'],
      ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', /signed by an authority this editor does not trust/, 'http.systemCertificates'],
      ['DEPTH_ZERO_SELF_SIGNED_CERT', /the certificate is self-signed\..*NODE_EXTRA_CA_CERTS.*do not turn off http\.proxyStrictSSL/, 'http.systemCertificates'],
      ['CERT_HAS_EXPIRED', /has expired, or this computer's clock is wrong/, undefined],
      ['ERR_TLS_CERT_ALTNAME_INVALID', /for a different host name\. Check the address \(aiGateway\.baseUrl\)/, 'aiGateway.baseUrl'],
    ];
    for (const [code, words, setting] of cases) {
      const tls = Object.assign(new Error('tls'), { code });
      // fetch's TypeError around undici's SecureProxyConnectionError around the TLS error.
      const wrapped = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('proxy tls'), { code: 'UND_ERR_PRX_TLS', cause: tls }) });
      for (const err of [tls, wrapped]) {
        const e = errorFromTransport(err);
        assert.equal(e.code, code);
        assert.equal(e.mayHaveReachedServer, false);
        assert.equal(e.retryable, false);
        assert.match(e.message, new RegExp(`^The TLS certificate of the gateway was not accepted \\(${code}\\)`));
        assert.match(e.message, words, code);
        const text = describeError(e);
        assert.equal(text.settingKey, setting, code);
        assert.deepEqual(text.actions, setting ? ['openSettings'] : [], code);
      }
    }
  });

  test('[#30.4] the hosting API gets the same trust and the same certificate words', async () => {
    const hosting = (net: Network) =>
      new HostingClient({ baseUrl: () => `${gateway.url}/hosting`, getCredentials: async () => ({ username: 'owner', password: HOSTING_USERS.owner.password }), fetch: (u, i) => net.fetch(u, i), userAgent: net.userAgent });
    const refused = await hosting(network({ proxy: proxyWithCredentials() })).getCacheExclusions(HOSTING_IDS.installNormal).then(
      () => assert.fail('expected a certificate error'),
      (e: unknown) => e,
    );
    assert.ok(isHostingError(refused));
    assert.match(refused.message, /hosting API was not accepted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\).*signed by an authority this editor does not trust/);
    assert.equal(describeError(refused).settingKey, 'http.systemCertificates');
    const ok = await hosting(network({ proxy: proxyWithCredentials() }, { env: { NODE_EXTRA_CA_CERTS: pki.caFile } })).getCacheExclusions(HOSTING_IDS.installNormal);
    assert.ok(Array.isArray(ok));
  });
});

describe('[#30.4] corporate network: proxy authentication', () => {
  const trusted = { env: { NODE_EXTRA_CA_CERTS: '' } };
  before(() => {
    trusted.env.NODE_EXTRA_CA_CERTS = pki.caFile;
  });

  test('[#30.4] credentials in http.proxy (percent-encoded) are sent decoded; a malformed escape is taken as written', async () => {
    const before = proxy.attempts.length;
    await catalogVia(network({ proxy: proxyWithCredentials() }, trusted));
    assert.deepEqual(proxy.attempts.slice(before), [`${PROXY_USER}:${PROXY_PASSWORD}`]);
    // "%zz" is no escape: undici's own decoding throws on it; it is sent as written.
    const raw = await startAuthProxy('bob', 'a%zz');
    try {
      const u = new URL(raw.url);
      await catalogVia(network({ proxy: `http://bob:a%zz@${u.host}` }, trusted));
      assert.deepEqual(raw.attempts, ['bob:a%zz']);
    } finally {
      await raw.close();
    }
  });

  test('[#30.4] wrong credentials in http.proxy: an error that names the proxy and http.proxy, no question, no secret in the words or the log', async () => {
    const prompt = new FakeProxyPrompt([]);
    const log = new MemoryLogger();
    const e = await gatewayError(catalogVia(network({ proxy: proxyWithCredentials(PROXY_USER, 'wrong-password') }, { ...trusted, proxyAuth: prompt }), log));
    assert.equal(e.mayHaveReachedServer, false);
    assert.equal(e.retryable, false);
    assert.match(e.message, new RegExp(`proxy ${proxy.url.replace(/[.]/g, '\\.')} refused the username and password in the proxy address \\(setting http\\.proxy`));
    assert.match(e.message, /407/);
    assert.equal(prompt.prompts.length, 0);
    const words = describeError(e);
    assert.equal(words.settingKey, 'http.proxy');
    assertNoSecret(words.message);
    assertNoSecret(log.lines.join('\n'));
  });

  test('[#30.4] no credentials: the 407 asks once for parallel requests, the answer is saved and sent from the first tunnel of the next session', async () => {
    const prompt = new FakeProxyPrompt([{ username: PROXY_USER, password: PROXY_PASSWORD }]);
    const net = network({ proxy: proxy.url }, { ...trusted, proxyAuth: prompt });
    const results = await Promise.all([catalogVia(net), catalogVia(net), catalogVia(net)]);
    for (const r of results) assert.ok(r.data.data.length > 0);
    assert.equal(prompt.prompts.length, 1, 'asked once');
    assert.deepEqual(prompt.prompts[0], { origin: proxy.url, refused: false, realm: 'corp' });
    assert.deepEqual(prompt.saved.get(proxy.url), { username: PROXY_USER, password: PROXY_PASSWORD });
    // A new window: the saved credential goes with the first CONNECT, nobody is asked, no 407.
    const refusals = proxy.refusals;
    await catalogVia(network({ proxy: proxy.url }, { ...trusted, proxyAuth: prompt }));
    assert.equal(prompt.prompts.length, 1);
    assert.equal(proxy.refusals, refusals);
  });

  test('[#30.4] a wrong saved credential is forgotten on the 407 and asked again; a cancelled question fails with words that say what to do', async () => {
    const prompt = new FakeProxyPrompt([{ username: PROXY_USER, password: PROXY_PASSWORD }]);
    prompt.saved.set(proxy.url, { username: PROXY_USER, password: 'wrong-password' });
    await catalogVia(network({ proxy: proxy.url }, { ...trusted, proxyAuth: prompt }));
    assert.deepEqual(prompt.forgotten, [proxy.url]);
    assert.equal(prompt.prompts.length, 1);
    assert.equal(prompt.prompts[0].refused, true);
    assert.deepEqual(prompt.saved.get(proxy.url), { username: PROXY_USER, password: PROXY_PASSWORD });

    const declined = new FakeProxyPrompt([undefined]);
    const net = network({ proxy: proxy.url }, { ...trusted, proxyAuth: declined });
    const e = await gatewayError(catalogVia(net));
    assert.equal(e.code, 'ERR_PROXY_AUTH_REQUIRED');
    assert.equal(e.mayHaveReachedServer, false);
    assert.match(e.message, /needs a username and password \(407 Proxy Authentication Required\)/);
    assert.equal(describeError(e).settingKey, 'http.proxy');
    // Cancelled once: not asked again by every background request.
    await gatewayError(catalogVia(net));
    assert.equal(declined.prompts.length, 1);
    assert.equal(declined.saved.size, 0);
  });

  test('[#30.4] the proxy\'s challenge and URL are read safely: capped, control characters dropped, no credential in the origin', () => {
    assert.deepEqual(parseChallenge('Negotiate, Basic realm="Corp, Inc\u0007"'), { schemes: ['Negotiate', 'Basic'], realm: 'Corp, Inc' });
    assert.deepEqual(parseChallenge(['NTLM', 'Basic realm="x"']), { schemes: ['NTLM', 'Basic'], realm: 'x' });
    const huge = parseChallenge(`Basic realm="${'a'.repeat(1_000_000)}`);
    assert.deepEqual(huge.schemes, ['Basic']);
    const split = splitProxyUrl('http://us%65r:p%40ss@proxy.corp:3128/');
    assert.deepEqual(split, { url: 'http://proxy.corp:3128/', origin: 'http://proxy.corp:3128', credential: { username: 'user', password: 'p@ss' } });
  });

  test('[#30.4] a proxy that wants NTLM or Negotiate only is named as such, without a question', async () => {
    const ntlm = await startAuthProxy('x', 'y', 'Negotiate, NTLM');
    try {
      const prompt = new FakeProxyPrompt([{ username: 'x', password: 'y' }]);
      const e = await gatewayError(catalogVia(network({ proxy: ntlm.url }, { ...trusted, proxyAuth: prompt })));
      assert.match(e.message, /asks for Negotiate, NTLM authentication.*only Basic is supported/);
      assert.equal(prompt.prompts.length, 0);
    } finally {
      await ntlm.close();
    }
  });

  test('[#30.4] http.noProxy: the gateway is reached directly (no tunnel, no question) with the same trust', async () => {
    const prompt = new FakeProxyPrompt([]);
    const tunnels = proxy.tunnels.length;
    const attempts = proxy.attempts.length;
    const r = await catalogVia(network({ proxy: proxy.url, noProxy: ['127.0.0.1'] }, { ...trusted, proxyAuth: prompt }));
    assert.ok(r.data.data.length > 0);
    assert.equal(proxy.tunnels.length, tunnels);
    assert.equal(proxy.attempts.length, attempts);
    assert.equal(prompt.prompts.length, 0);
  });
});

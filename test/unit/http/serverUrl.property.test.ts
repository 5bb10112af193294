// Property tests (fast-check) for the rule on URLs a server names (issue 27, item 8): every spelling of
// a loopback, private, link-local or unspecified address is refused, on any scheme and port, unless
// the URL is on the gateway's own origin exactly; names are checked on every address they resolve to.
// The oracle is Node's own net.BlockList, not the module's ranges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BlockList } from 'node:net';
import fc from 'fast-check';
import { addressProblem, checkedLookup, checkServerUrl, parseIpv4, resolvedProblem } from '../../../src/core/http/serverUrl';

const RUNS = 3_000;

/** What the issue lists, written as CIDRs for Node's BlockList (which also matches IPv4-mapped IPv6). */
const blocked = new BlockList();
for (const [net, bits] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10]] as const) blocked.addSubnet(net, bits, 'ipv6');

/** Blocks the issue names, as [first address as a number, prefix]. */
const V4_BLOCKS: ReadonlyArray<readonly [number, number]> = [
  [0x00000000, 8], [0x0a000000, 8], [0x64400000, 10], [0x7f000000, 8], [0xa9fe0000, 16], [0xac100000, 12], [0xc0a80000, 16],
];
const blockedV4 = fc.constantFrom(...V4_BLOCKS).chain(([base, bits]) => fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 }).map((off) => base + off));
const bytes = (v: number): number[] => [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];

/** Every way to write an IPv4 address in a URL host. */
function spellings(v: number): string[] {
  const [a, b, c, d] = bytes(v);
  const oct = (x: number): string => `0${x.toString(8)}`;
  const hex = (x: number): string => `0x${x.toString(16)}`;
  const h16 = (x: number): string => x.toString(16);
  return [
    `${a}.${b}.${c}.${d}`,
    String(v),
    hex(v),
    `${oct(a)}.${oct(b)}.${oct(c)}.${oct(d)}`,
    `${hex(a)}.${hex(b)}.${hex(c)}.${hex(d)}`,
    `${a}.${(b << 16) | (c << 8) | d}`,
    `${hex(a)}.${hex((b << 16) | (c << 8) | d)}`,
    `${a}.${b}.${(c << 8) | d}`,
    `${a}.${b}.${c}.${d}.`,
    `[::ffff:${a}.${b}.${c}.${d}]`,
    `[::ffff:${h16((a << 8) | b)}:${h16((c << 8) | d)}]`,
    `[0:0:0:0:0:ffff:${a}.${b}.${c}.${d}]`,
    `[64:ff9b::${a}.${b}.${c}.${d}]`,
    `[2002:${h16((a << 8) | b)}:${h16((c << 8) | d)}::1]`,
  ];
}

const blockedV6Host = fc.oneof(
  fc.constantFrom('[::1]', '[::]', '[0:0:0:0:0:0:0:1]', '[0::0]', '[::0:1]'),
  fc.tuple(fc.integer({ min: 0xfc00, max: 0xfdff }), fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 7, maxLength: 7 })).map(([g, rest]) => `[${[g, ...rest].map((x) => x.toString(16)).join(':')}]`),
  fc.tuple(fc.integer({ min: 0xfe80, max: 0xfebf }), fc.integer({ min: 0, max: 0xffff })).map(([g, x]) => `[${g.toString(16)}::${x.toString(16)}]`),
);
const loopbackName = fc.tuple(fc.constantFrom('localhost', 'LocalHost', 'localhost.', 'a.localhost', 'x.y.LOCALHOST'), fc.constant('')).map(([h]) => h);
const scheme = fc.constantFrom('http', 'https', 'HTTPS');
const port = fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined });
const pathPart = fc.constantFrom('/', '/a.png', '/x/y?z=1', '/%2e%2e/etc', '#frag');
const url = (s: string, host: string, p: number | undefined, path: string): string => `${s}://${host}${p === undefined ? '' : `:${p}`}${path}`;

test('[#27.8] every spelling of a loopback, private, link-local or unspecified IPv4 address is refused, any scheme and port', () => {
  fc.assert(
    fc.property(blockedV4, fc.nat(13), scheme, port, pathPart, (v, which, s, p, path) => {
      const host = spellings(v)[which];
      const verdict = checkServerUrl(url(s, host, p, path), ['https://gateway.example.com']);
      assert.equal(verdict.ok, false, `${url(s, host, p, path)} was allowed`);
    }),
    { numRuns: RUNS },
  );
});

test('[#27.8] loopback names, ::1, ::, fc00::/7 and fe80::/10 are refused', () => {
  fc.assert(
    fc.property(fc.oneof(blockedV6Host, loopbackName), scheme, port, pathPart, (host, s, p, path) => {
      assert.equal(checkServerUrl(url(s, host, p, path)).ok, false, url(s, host, p, path));
    }),
    { numRuns: RUNS },
  );
});

test('[#27.8] the address check agrees with Node\'s BlockList on any IPv4 or IPv6 address', () => {
  const v6 = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }).map((g) => g.map((x) => x.toString(16)).join(':'));
  fc.assert(
    fc.property(fc.oneof(fc.nat({ max: 2 ** 32 - 1 }).map((v) => bytes(v).join('.')), v6, blockedV4.map((v) => `::ffff:${bytes(v).join('.')}`)), (address) => {
      const family = address.includes(':') ? 'ipv6' : 'ipv4';
      // Everything the issue lists is refused; what the module refuses beyond it is named (multicast, reserved, NAT64, 6to4...).
      if (blocked.check(address, family)) assert.notEqual(addressProblem(address), undefined, address);
      const problem = addressProblem(address);
      if (problem !== undefined && !blocked.check(address, family)) assert.match(problem, /multicast|reserved|private|loopback|link-local|unspecified|carrier-grade/);
    }),
    { numRuns: RUNS },
  );
});

test('[#27.8] https on a public address or name is allowed; http is allowed only on the gateway\'s exact origin', () => {
  const publicV4 = fc.nat({ max: 2 ** 32 - 1 }).filter((v) => !blocked.check(bytes(v).join('.'), 'ipv4') && addressProblem(bytes(v).join('.')) === undefined);
  fc.assert(
    fc.property(publicV4, port, pathPart, (v, p, path) => {
      const host = bytes(v).join('.');
      assert.equal(checkServerUrl(url('https', host, p, path)).ok, true, url('https', host, p, path));
      assert.equal(checkServerUrl(url('http', host, p, path)).ok, false, 'plain http off the gateway');
    }),
    { numRuns: RUNS },
  );
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 65535 }), fc.integer({ min: 1, max: 65535 }), pathPart, (gwPort, otherPort, path) => {
      const own = `http://127.0.0.1:${gwPort}`;
      const verdict = checkServerUrl(`${own}${path}`, [own]);
      assert.ok(verdict.ok && verdict.own);
      // The same loopback host on another port, another loopback spelling, or https on it, is not the gateway.
      if (otherPort !== gwPort) assert.equal(checkServerUrl(`http://127.0.0.1:${otherPort}${path}`, [own]).ok, false);
      assert.equal(checkServerUrl(`http://localhost:${gwPort}${path}`, [own]).ok, false);
      assert.equal(checkServerUrl(`http://127.0.0.2:${gwPort}${path}`, [own]).ok, false);
      assert.equal(checkServerUrl(`https://127.0.0.1:${gwPort}${path}`, [own]).ok, false);
    }),
    { numRuns: 500 },
  );
  // A gateway on a scheme's default port is the same origin however it is spelled (URL.origin drops the port).
  for (const own of ['http://127.0.0.1:80', 'http://127.0.0.1']) {
    for (const raw of ['http://127.0.0.1/a.png', 'http://127.0.0.1:80/a.png']) assert.ok(checkServerUrl(raw, [own]).ok, `${raw} on ${own}`);
  }
  assert.ok(checkServerUrl('https://10.0.0.5/a', ['https://10.0.0.5:443']).ok, 'https default port');
  assert.equal(checkServerUrl('https://user:pw@cdn.example.com/a.png').ok, false, 'credentials');
  assert.equal(checkServerUrl('http://u@127.0.0.1:5/a', ['http://127.0.0.1:5']).ok, false, 'credentials even on the gateway');
  for (const raw of ['file:///etc/passwd', 'data:image/png;base64,AA', 'ftp://cdn.example.com/a', 'gopher://x/', 'not a url', 'javascript:alert(1)']) assert.equal(checkServerUrl(raw).ok, false, raw);
});

test('[#27.8] the odd IPv4 forms named in the issue read as 127.0.0.1', () => {
  for (const host of ['2130706433', '0177.0.0.1', '0x7f.1', '127.1', '0x7f000001', '017700000001']) assert.equal(parseIpv4(host), 0x7f000001, host);
  for (const raw of ['https://2130706433/', 'https://0177.0.0.1/', 'https://0x7f.1/', 'https://127.1/', 'https://[::ffff:127.0.0.1]/', 'https://[::ffff:7f00:1]:8443/']) {
    const v = checkServerUrl(raw);
    assert.ok(!v.ok && /loopback/.test(v.problem), raw);
  }
});

test('[#27.8] a resolved name is refused when any of its addresses is not public; otherwise the socket gets exactly the checked addresses', async () => {
  const address = fc.oneof(
    blockedV4.map((v) => ({ address: bytes(v).join('.'), family: 4 })),
    fc.constantFrom({ address: '::1', family: 6 }, { address: 'fe80::1', family: 6 }, { address: '::ffff:10.0.0.1', family: 6 }),
    fc.constantFrom({ address: '93.184.216.34', family: 4 }, { address: '8.8.8.8', family: 4 }, { address: '2606:2800:220:1::1', family: 6 }),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(address, { minLength: 1, maxLength: 5 }), fc.boolean(), async (found, all) => {
      const lookup = checkedLookup(async () => found);
      const got = await new Promise<{ err: Error | null; address: unknown }>((resolve) =>
        lookup('images.example.test', { all }, (err, a) => resolve({ err, address: a })),
      );
      const bad = found.some((f) => blocked.check(f.address, f.family === 4 ? 'ipv4' : 'ipv6'));
      assert.equal(got.err !== null, bad, JSON.stringify({ found, got }));
      if (!bad) assert.deepEqual(got.address, all ? found : found[0].address);
      assert.equal(resolvedProblem('images.example.test', found.map((f) => f.address)) !== undefined, bad);
    }),
    { numRuns: 1_000 },
  );
});

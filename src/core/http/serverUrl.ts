/**
 * The one rule for URLs a server names that the extension then fetches by itself (an image URL in an
 * answer, a redirect's Location): such a URL is fetched only when it is
 *  - on the gateway's own origin (exact scheme, host and port: the address the user configured), or
 *  - https on a public host: neither the name nor any address it resolves to is loopback, private
 *    (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), link-local (169.254/16, fe80::/10),
 *    unspecified (0.0.0.0/8, ::), multicast, reserved, or one of those inside IPv6 (IPv4-mapped,
 *    IPv4-compatible, NAT64, 6to4).
 * Odd IPv4 spellings (2130706433, 0177.0.0.1, 0x7f.1, 127.1) are read as the address they mean.
 *
 * Names are checked again when the connection is made: `checkedLookup` is given to the socket as its
 * DNS lookup, checks every address the name resolves to and hands the socket only checked ones, so a
 * second answer (DNS rebinding) can never swap a checked address for a local one.
 *
 * vscode-free and free of undici (network.ts builds the dispatcher with it).
 */
import * as dns from 'node:dns';
import type { LookupFunction } from 'node:net';

/** Redirects followed for one server-named URL (each hop checked like the first). */
export const MAX_SERVER_REDIRECTS = 5;

/** Error code of a refused server-named address (on the Error `checkedLookup` fails with). */
export const SERVER_URL_REFUSED = 'ESERVERURLREFUSED';

/** An IPv4 address in any spelling inet_aton accepts (1 to 4 parts, decimal, octal or hex) as a 32-bit number. */
export function parseIpv4(host: string): number | undefined {
  if (host === '' || host.length > 64) return undefined;
  const parts = host.endsWith('.') ? host.slice(0, -1).split('.') : host.split('.');
  if (parts.length === 0 || parts.length > 4) return undefined;
  const nums: number[] = [];
  for (const p of parts) {
    let n: number;
    if (/^0[xX][0-9a-fA-F]*$/.test(p)) n = p.length === 2 ? 0 : parseInt(p.slice(2), 16);
    else if (/^0[0-7]+$/.test(p)) n = parseInt(p.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(p)) n = Number(p);
    else return undefined;
    if (!Number.isSafeInteger(n)) return undefined;
    nums.push(n);
  }
  const last = nums.pop() as number;
  if (nums.some((x) => x > 255) || last >= 2 ** (8 * (4 - nums.length))) return undefined;
  let v = 0;
  for (const [i, x] of nums.entries()) v += x * 2 ** (8 * (3 - i));
  return v + last;
}

/** An IPv6 address (brackets and a zone allowed) as eight 16-bit groups. */
export function parseIpv6(host: string): number[] | undefined {
  let h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const zone = h.indexOf('%');
  if (zone !== -1) h = h.slice(0, zone);
  if (!h.includes(':') || h.length > 64) return undefined;
  const lastColon = h.lastIndexOf(':');
  const lastPart = h.slice(lastColon + 1);
  if (lastPart.includes('.')) {
    // A trailing dotted IPv4 address is two groups.
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(lastPart)) return undefined;
    const v4 = lastPart.split('.').map(Number);
    if (v4.some((x) => x > 255)) return undefined;
    h = `${h.slice(0, lastColon + 1)}${(v4[0] * 256 + v4[1]).toString(16)}:${(v4[2] * 256 + v4[3]).toString(16)}`;
  }
  const halves = h.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string): number[] | undefined => {
    if (s === '') return [];
    const out: number[] = [];
    for (const g of s.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !rest) return undefined;
  const known = head.length + rest.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return undefined;
  return [...head, ...new Array<number>(8 - known).fill(0), ...rest];
}

type Range = readonly [base: number, bits: number, what: string];

const V4_RANGES: readonly Range[] = [
  [0x00000000, 8, 'an unspecified address'],
  [0x0a000000, 8, 'a private address'],
  [0x64400000, 10, 'a carrier-grade NAT address'],
  [0x7f000000, 8, 'a loopback address'],
  [0xa9fe0000, 16, 'a link-local address'],
  [0xac100000, 12, 'a private address'],
  [0xc0000000, 24, 'a reserved address'],
  [0xc0a80000, 16, 'a private address'],
  [0xc6120000, 15, 'a reserved address'],
  [0xe0000000, 4, 'a multicast address'],
  [0xf0000000, 4, 'a reserved address'],
];

/** Why an IPv4 address (as a number) is not public, or undefined when it is. */
function v4Problem(v: number): string | undefined {
  for (const [base, bits, what] of V4_RANGES) {
    const size = 2 ** (32 - bits);
    if (v >= base && v < base + size) return what;
  }
  return undefined;
}

/** Why an IPv6 address is not public, or undefined when it is. */
function v6Problem(g: readonly number[]): string | undefined {
  const v4At = (i: number): number => g[i] * 65536 + g[i + 1];
  const zeros = (n: number): boolean => g.slice(0, n).every((x) => x === 0);
  if (g.every((x) => x === 0)) return 'an unspecified address';
  if (zeros(7) && g[7] === 1) return 'a loopback address';
  // IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, and the IPv4-translated ::ffff:0:a.b.c.d.
  if (zeros(5) && g[5] === 0xffff) return v4Problem(v4At(6));
  if (zeros(6)) return v4Problem(v4At(6)) ?? 'a reserved address';
  if (zeros(4) && g[4] === 0xffff && g[5] === 0) return v4Problem(v4At(6));
  // NAT64 64:ff9b::/96 and 64:ff9b:1::/48 carry an IPv4 address in their last 32 bits.
  if (g[0] === 0x64 && g[1] === 0xff9b) return v4Problem(v4At(6));
  // 6to4 2002::/16 carries one in bits 16-47.
  if (g[0] === 0x2002) return v4Problem(v4At(1));
  if ((g[0] & 0xfe00) === 0xfc00) return 'a private address';
  if ((g[0] & 0xffc0) === 0xfe80) return 'a link-local address';
  if ((g[0] & 0xffc0) === 0xfec0) return 'a private address';
  if ((g[0] & 0xff00) === 0xff00) return 'a multicast address';
  return undefined;
}

/** Why an IP address (any IPv4 spelling, IPv6 with or without brackets) may not be fetched; undefined when it is public or not an address. */
export function addressProblem(address: string): string | undefined {
  const v6 = parseIpv6(address);
  if (v6) return v6Problem(v6);
  const v4 = parseIpv4(address);
  return v4 === undefined ? undefined : v4Problem(v4);
}

/** True when `host` is an IP literal in any spelling. */
export function isIpLiteral(host: string): boolean {
  return parseIpv6(host) !== undefined || parseIpv4(host) !== undefined;
}

function isLocalName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '';
}

export type ServerUrlVerdict =
  | { ok: true; url: URL; /** on the gateway's own origin: fetched as the gateway is */ own: boolean }
  | { ok: false; problem: string };

/**
 * The verdict on a URL a server named, before any DNS: `ownOrigins` are the gateway's own origins
 * (scheme://host:port; compared as URL.origin spells them, so `http://h:80` and `http://h` are one origin). A name that is not an IP literal passes here
 * and is checked again on its resolved addresses (`checkedLookup`, `resolvedProblem`).
 */
/** An origin as URL.origin spells it (the default port dropped), or undefined when it does not parse. */
function originOf(raw: string): string | undefined {
  try {
    return new URL(raw).origin;
  } catch {
    return undefined;
  }
}

export function checkServerUrl(raw: string | URL, ownOrigins: readonly string[] = []): ServerUrlVerdict {
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    return { ok: false, problem: 'it is not a valid URL' };
  }
  if (url.username || url.password) return { ok: false, problem: 'it carries credentials' };
  if ((url.protocol === 'http:' || url.protocol === 'https:') && ownOrigins.some((o) => originOf(o) === url.origin)) return { ok: true, url, own: true };
  if (url.protocol === 'http:') return { ok: false, problem: `it is plain http to ${url.host}, which is not the gateway` };
  if (url.protocol !== 'https:') return { ok: false, problem: `its scheme ${url.protocol} is not https` };
  // The URL parser has already turned 2130706433, 0177.0.0.1, 0x7f.1 and 127.1 into 127.0.0.1.
  const host = url.hostname;
  if (isLocalName(host)) return { ok: false, problem: `${host || 'its host'} is this computer (a loopback name)` };
  const problem = addressProblem(host);
  if (problem) return { ok: false, problem: `${host} is ${problem}` };
  return { ok: true, url, own: false };
}

/** Why a name's resolved addresses may not be fetched (any one that is not public refuses all). */
export function resolvedProblem(hostname: string, addresses: readonly string[]): string | undefined {
  if (addresses.length === 0) return `${hostname} resolves to no address`;
  for (const a of addresses) {
    const problem = addressProblem(a);
    if (problem) return `${hostname} resolves to ${a}, ${problem}`;
  }
  return undefined;
}

export class ServerUrlRefused extends Error {
  readonly code = SERVER_URL_REFUSED;
  constructor(readonly problem: string) {
    super(`Not fetched: ${problem}. Addresses a server names are fetched only on the gateway's own address or over https on a public host.`);
    this.name = 'ServerUrlRefused';
  }
}

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/**
 * A socket `lookup` that resolves every address of a name, refuses the connection (ServerUrlRefused)
 * when any of them is not public, and otherwise hands the socket exactly the checked addresses: the
 * connection is pinned to what was checked. Honours `all` (Node 20's autoSelectFamily asks for all).
 */
export function checkedLookup(resolve: Resolver = systemResolver): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void) => {
    const family = typeof options === 'object' && options ? options.family : undefined;
    resolve(hostname).then(
      (found) => {
        const problem = resolvedProblem(hostname, found.map((f) => f.address));
        if (problem) return callback(new ServerUrlRefused(problem), '', 0);
        const wanted = family === 4 || family === 6 ? found.filter((f) => f.family === family) : found;
        if (wanted.length === 0) return callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), '', 0);
        if (typeof options === 'object' && options?.all) return callback(null, wanted);
        callback(null, wanted[0].address, wanted[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  }) as LookupFunction;
}

/**
 * Resolves a name and checks every address (for a connection this process does not make itself, such
 * as one through an HTTP proxy, where the socket's own lookup is not ours). Throws ServerUrlRefused.
 */
export async function assertResolvesPublic(hostname: string, resolve: Resolver = systemResolver): Promise<void> {
  if (isIpLiteral(hostname)) {
    const problem = addressProblem(hostname);
    if (problem) throw new ServerUrlRefused(`${hostname} is ${problem}`);
    return;
  }
  const found = await resolve(hostname);
  const problem = resolvedProblem(hostname, found.map((f) => f.address));
  if (problem) throw new ServerUrlRefused(problem);
}

/** Statuses whose Location is followed. */
export function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/**
 * The certificate authorities every TLS connection of the network layer trusts: Node's own roots, the
 * operating system's store (while `http.systemCertificates` is on, as in VS Code) and the file named
 * by NODE_EXTRA_CA_CERTS. esbuild bundles undici, so VS Code's own certificate patching of Node's
 * https never reaches our connections: without this, a company proxy that re-signs HTTPS with its own
 * root fails every request, however the machine is set up.
 *
 * The list is built once per settings value (dispatcher.ts caches the dispatcher per value) into one
 * SecureContext, shared by the connection to a proxy and the connection to the target. A missing or
 * unreadable file is not an error (most machines have only some of them); a file larger than
 * MAX_CA_FILE_BYTES is not read.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import * as tls from 'node:tls';
import type { Env } from './dispatcher';

/** The system bundles of the usual Linux distributions, first readable wins (as curl and Go look). */
export const SYSTEM_CA_FILES: readonly string[] = [
  '/etc/ssl/certs/ca-certificates.crt', // Debian, Ubuntu, Alpine, Arch
  '/etc/pki/tls/certs/ca-bundle.crt', // RHEL, Fedora, CentOS
  '/etc/ssl/ca-bundle.pem', // openSUSE
  '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem', // RHEL 7+
  '/etc/ssl/cert.pem', // Alpine, macOS (LibreSSL)
];

/** A CA bundle is a few hundred KB; anything much larger is not one. */
export const MAX_CA_FILE_BYTES = 8 * 1024 * 1024;

/** At most this many certificates are taken from one source. */
const MAX_CERTS_PER_SOURCE = 5000;

export interface TrustOptions {
  /** `http.systemCertificates`: add the operating system's store. Default true. */
  systemCertificates?: boolean;
  /** NODE_EXTRA_CA_CERTS is read from here (never from process.env behind the caller's back). */
  env: Env;
  /**
   * Where the system store is read from. Absent: Node's `tls.getCACertificates('system')` when it has
   * it (Node 22.15+, 23.5+: Windows, macOS and Linux), else the first readable of SYSTEM_CA_FILES.
   * Tests pass a file of their own.
   */
  systemCaFiles?: readonly string[];
}

export interface TrustedAuthorities {
  /** PEM certificates added to Node's roots (system store and NODE_EXTRA_CA_CERTS), deduplicated. */
  added: string[];
  /** Where they came from, for the log: "system store (n)", "NODE_EXTRA_CA_CERTS (n)". */
  sources: string[];
}

type GetCACertificates = (type: 'default' | 'system' | 'bundled' | 'extra') => string[];

function nodeGetCA(): GetCACertificates | undefined {
  const f = (tls as unknown as { getCACertificates?: unknown }).getCACertificates;
  return typeof f === 'function' ? (f as GetCACertificates) : undefined;
}

/** The text of a file of at most `max` bytes; undefined when absent, unreadable, not a file or too large. */
export function readBoundedFile(path: string, max = MAX_CA_FILE_BYTES): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > max) return undefined;
    const buf = Buffer.alloc(st.size);
    let read = 0;
    while (read < st.size) {
      const n = readSync(fd, buf, read, st.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buf.subarray(0, read).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const BEGIN = '-----BEGIN CERTIFICATE-----';
const END = '-----END CERTIFICATE-----';

/**
 * The PEM certificate blocks of a text, each normalised to `BEGIN\n<base64>\nEND`: one linear scan;
 * anything between blocks (comments, "Bag Attributes") is skipped, a block whose body is not base64
 * is dropped, so one damaged entry spoils only itself.
 */
export function pemBlocks(text: string, max = MAX_CERTS_PER_SOURCE): string[] {
  const out: string[] = [];
  let at = 0;
  while (out.length < max) {
    const start = text.indexOf(BEGIN, at);
    if (start < 0) break;
    const end = text.indexOf(END, start + BEGIN.length);
    if (end < 0) break;
    const body = text.slice(start + BEGIN.length, end).replace(/\s+/g, '');
    if (body !== '' && /^[A-Za-z0-9+/]+={0,2}$/.test(body)) out.push(`${BEGIN}\n${body.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n${END}`);
    at = end + END.length;
  }
  return out;
}

/** The certificates to add to Node's roots; never throws. */
export function trustedAuthorities(options: TrustOptions): TrustedAuthorities {
  const seen = new Set<string>();
  const key = (pem: string): string => pem.replace(/\s+/g, '');
  const getCA = nodeGetCA();
  // Node's default list: its bundled roots (plus NODE_EXTRA_CA_CERTS of the process, and the system
  // store under --use-system-ca, when Node has getCACertificates).
  for (const pem of getCA ? safe(() => getCA('default')) : tls.rootCertificates) seen.add(key(pem));
  const added: string[] = [];
  const sources: string[] = [];
  const add = (label: string, pems: readonly string[]): void => {
    let n = 0;
    for (const pem of pems) {
      const k = key(pem);
      if (seen.has(k)) continue;
      seen.add(k);
      added.push(pem);
      n++;
    }
    sources.push(`${label} (${n} added)`);
  };
  if (options.systemCertificates ?? true) {
    if (options.systemCaFiles === undefined && getCA) add('system store', safe(() => getCA('system')));
    else {
      for (const file of options.systemCaFiles ?? SYSTEM_CA_FILES) {
        const text = readBoundedFile(file);
        if (text === undefined) continue;
        add(`system store ${file}`, pemBlocks(text));
        break;
      }
    }
  }
  const extra = options.env.NODE_EXTRA_CA_CERTS?.trim();
  if (extra) {
    const text = readBoundedFile(extra);
    if (text !== undefined) add('NODE_EXTRA_CA_CERTS', pemBlocks(text));
    else sources.push('NODE_EXTRA_CA_CERTS (not readable)');
  }
  return { added, sources };
}

function safe(f: () => string[]): string[] {
  try {
    return f();
  } catch {
    return [];
  }
}

/**
 * The SecureContext trusting Node's roots plus `added`, or undefined when nothing is added (Node's
 * default context is then used, as before). One context serves every connection of a dispatcher: a
 * context per connection would parse a few hundred certificates each time.
 */
export function trustContext(options: TrustOptions): { context: tls.SecureContext | undefined; sources: string[] } {
  const { added, sources } = trustedAuthorities(options);
  if (added.length === 0) return { context: undefined, sources };
  const getCA = nodeGetCA();
  const base = getCA ? safe(() => getCA('default')) : [...tls.rootCertificates];
  const ca = [...base, ...added];
  try {
    return { context: tls.createSecureContext({ ca }), sources };
  } catch {
    // OpenSSL refused the list: keep Node's default trust rather than failing every request.
    return { context: undefined, sources: [...sources, 'the added certificates could not be loaded; using Node\'s roots only'] };
  }
}

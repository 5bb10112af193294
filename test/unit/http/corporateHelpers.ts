/**
 * A corporate network in a test: a certificate authority made at test time (the openssl CLI, in a
 * temporary directory: Node's crypto makes keys but not certificates), a server certificate for
 * 127.0.0.1 signed by it, and a CONNECT proxy that wants Basic authentication (407 without it).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestPki {
  /** The test root's certificate (PEM) and the file holding it. */
  caPem: string;
  caFile: string;
  /** The server's key and certificate (signed by the test root, for IP 127.0.0.1 and localhost). */
  key: string;
  cert: string;
  dir: string;
  dispose(): void;
}

const OPENSSL = process.env.OPENSSL ?? '/usr/bin/openssl';

function openssl(dir: string, args: string[]): void {
  execFileSync(OPENSSL, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A fresh root CA and a server certificate it signed; nothing is reused between runs. */
export function makeTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'aigw-pki-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(dir, ['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=AI Gateway Test Corporate Root', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  openssl(dir, ['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1']);
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n');
  openssl(dir, ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'server.ext']);
  return {
    caPem: readFileSync(join(dir, 'ca.pem'), 'utf8'),
    caFile: join(dir, 'ca.pem'),
    key: readFileSync(join(dir, 'server.key'), 'utf8'),
    cert: readFileSync(join(dir, 'server.pem'), 'utf8'),
    dir,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface AuthProxy {
  url: string;
  /** host:port of every tunnel opened (after authentication). */
  tunnels: string[];
  /** Every CONNECT: the credential it carried, decoded ("user:password"), or undefined. */
  attempts: Array<string | undefined>;
  /** How many CONNECTs were answered 407. */
  refusals: number;
  close(): Promise<void>;
}

/**
 * A CONNECT proxy on loopback that opens a tunnel only for `Proxy-Authorization: Basic` with
 * `username:password`; anything else gets 407 with `challenge` (default Basic realm="corp") and the
 * connection closed, as real proxies do.
 */
export async function startAuthProxy(username: string, password: string, challenge = 'Basic realm="corp"'): Promise<AuthProxy> {
  const tunnels: string[] = [];
  const attempts: Array<string | undefined> = [];
  const sockets = new Set<Socket>();
  let refusals = 0;
  const server = createServer((_req, res) => {
    res.writeHead(501);
    res.end();
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    client.on('error', () => undefined);
    const header = req.headers['proxy-authorization'];
    const m = typeof header === 'string' ? /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header) : null;
    const given = m ? Buffer.from(m[1], 'base64').toString('utf8') : undefined;
    attempts.push(given);
    if (given !== `${username}:${password}`) {
      refusals++;
      client.end(`HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: ${challenge}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      return;
    }
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = netConnect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    attempts,
    get refusals() {
      return refusals;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Connection failures before a request was sent: refused TLS certificates and a proxy's refusals, told
 * apart by their error codes, and the words for them. Kept out of errors.ts, which activation loads:
 * these are needed only once a connection has failed. The codes that make an error permanent stay there.
 */
export { isCertificateErrorCode, isPermanentConnectCode, PROXY_AUTH_ERROR_CODE } from './errors';

const UNTRUSTED_CODES: ReadonlySet<string> = new Set(['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'SELF_SIGNED_CERT_IN_CHAIN', 'CERT_UNTRUSTED', 'CERT_CHAIN_TOO_LONG']);
const HOSTNAME_CODES: ReadonlySet<string> = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH']);

/** What is wrong with a refused certificate, from its code. */
export type CertificateProblem = 'untrusted' | 'selfSigned' | 'expired' | 'notYetValid' | 'hostname' | 'other';

export function certificateProblem(code: string): CertificateProblem {
  if (UNTRUSTED_CODES.has(code)) return 'untrusted';
  if (code === 'DEPTH_ZERO_SELF_SIGNED_CERT') return 'selfSigned';
  if (code === 'CERT_HAS_EXPIRED') return 'expired';
  if (code === 'CERT_NOT_YET_VALID') return 'notYetValid';
  if (HOSTNAME_CODES.has(code)) return 'hostname';
  return 'other';
}

const TRUST_ADVICE =
  "If your company's proxy re-signs HTTPS, add its root certificate to the operating system's store (trusted while http.systemCertificates is on) or set NODE_EXTRA_CA_CERTS to its file; do not turn off http.proxyStrictSSL.";

/**
 * The words for a refused certificate of `who` ("the gateway", "the hosting API"): what is wrong and
 * the setting or file that fixes it. `addressSetting` is named when the host name does not match.
 */
export function certificateMessage(code: string, who: string, addressSetting: string): string {
  const head = `The TLS certificate of ${who} was not accepted (${code})`;
  switch (certificateProblem(code)) {
    case 'untrusted':
      return `${head}: the certificate is signed by an authority this editor does not trust. ${TRUST_ADVICE}`;
    case 'selfSigned':
      return `${head}: the certificate is self-signed. If you trust this server, or your company's proxy presents it, add it to the operating system's store or set NODE_EXTRA_CA_CERTS to its file; do not turn off http.proxyStrictSSL.`;
    case 'expired':
      return `${head}: the certificate has expired, or this computer's clock is wrong. Check the date and time; otherwise the server's certificate must be renewed.`;
    case 'notYetValid':
      return `${head}: the certificate is not valid yet, or this computer's clock is wrong. Check the date and time.`;
    case 'hostname':
      return `${head}: the certificate is for a different host name. Check the address (${addressSetting}); a proxy that re-signs HTTPS must issue certificates for the host that was asked for.`;
    default:
      return `${head}. ${TRUST_ADVICE}`;
  }
}

/** The setting that fixes a refused certificate, when one does: the trust of the system store, or the address. */
export function certificateSetting(code: string, addressSetting: string): string | undefined {
  const problem = certificateProblem(code);
  if (problem === 'untrusted' || problem === 'selfSigned' || problem === 'other') return 'http.systemCertificates';
  if (problem === 'hostname') return addressSetting;
  return undefined;
}

/**
 * The first code in an error and its causes that `pick` accepts (undici wraps a connect failure in
 * fetch's TypeError, a tunnel's TLS failure in SecureProxyConnectionError).
 */
export function findErrorCode(err: unknown, pick: (code: string) => boolean): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 6 && typeof e === 'object' && e !== null; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && pick(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The proxy refused the tunnel with another status (proxyAuth.ts). */
export const PROXY_REFUSED_ERROR_CODE = 'ERR_PROXY_CONNECT_REFUSED';

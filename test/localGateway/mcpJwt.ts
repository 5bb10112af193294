/**
 * Identity-provider JWTs for the local gateway's /v1/mcp (G-MCP-15).
 *
 * Assumption (spec: not shown): the real identity provider, its signing keys and claim names. The
 * local gateway accepts HS256 tokens signed with LOCAL_JWT_SECRET, issuer `local-idp`, with claims
 * `sub` (the person), `account` (the account the person acts in; must equal the Service-Account
 * header) and `exp`. `mintLocalJwt` makes such tokens for tests and the sandbox.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const LOCAL_JWT_SECRET = 'local-gateway-jwt-signing-secret';
export const LOCAL_JWT_ISSUER = 'local-idp';
export const LOCAL_ACCOUNT = 'acct_local_1';
export const LOCAL_PROJECT = 'proj_local_1';
/** The person every local User key and the default JWT act as. */
export const LOCAL_PERSON = 'user_local_alex';

export interface LocalJwtClaims {
  sub: string;
  account: string;
  iss?: string;
  exp?: number;
  [claim: string]: unknown;
}

const b64url = (buf: Buffer | string): string => Buffer.from(buf).toString('base64url');

export function mintLocalJwt(claims: Partial<LocalJwtClaims> = {}, secret = LOCAL_JWT_SECRET): string {
  const body: LocalJwtClaims = {
    sub: LOCAL_PERSON,
    account: LOCAL_ACCOUNT,
    iss: LOCAL_JWT_ISSUER,
    exp: Math.floor(Date.now() / 1000) + 3600,
    ...claims,
  };
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = b64url(JSON.stringify(body));
  const sig = createHmac('sha256', secret).update(`${head}.${payload}`).digest('base64url');
  return `${head}.${payload}.${sig}`;
}

export function looksLikeJwt(token: string): boolean {
  return /^eyJ[\w-]*\.[\w-]+\.[\w-]*$/.test(token);
}

/** Returns the claims of a valid token, or a reason it is not valid. */
export function verifyLocalJwt(token: string, nowSeconds = Math.floor(Date.now() / 1000)): { ok: true; claims: LocalJwtClaims } | { ok: false; reason: string } {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'malformed token' };
  const expected = createHmac('sha256', LOCAL_JWT_SECRET).update(`${parts[0]}.${parts[1]}`).digest();
  const given = Buffer.from(parts[2], 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad signature' };
  let claims: LocalJwtClaims;
  try {
    claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as LocalJwtClaims;
  } catch {
    return { ok: false, reason: 'malformed claims' };
  }
  if (claims.iss !== LOCAL_JWT_ISSUER) return { ok: false, reason: 'unknown issuer' };
  if (typeof claims.exp === 'number' && claims.exp <= nowSeconds) return { ok: false, reason: 'token expired' };
  if (typeof claims.sub !== 'string' || typeof claims.account !== 'string') return { ok: false, reason: 'missing sub or account claim' };
  return { ok: true, claims };
}

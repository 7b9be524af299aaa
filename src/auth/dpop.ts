/**
 * DPoP (RFC 9449; MCP extension `io.modelcontextprotocol/auth/dpop`): tokens bound to a key the
 * client holds, each request carrying a fresh proof signed with it. Used when the MCP server
 * challenges with the `DPoP` scheme (or its metadata requires bound tokens) and the authorization
 * server lists ES256 in `dpop_signing_alg_values_supported`. Web Crypto only (`crypto.subtle`),
 * so it runs wherever the client does. The key is kept with the login in the token store: as a
 * non-extractable `CryptoKey` pair when the store keeps keys as they are (`keepsCryptoKeys`: the
 * memory store, an IndexedDB store), else as JWKs (a file store's file is 0600), so a refresh in
 * another process can use it. Token requests get their proofs from oauth4webapi; a request to
 * the MCP server gets one here.
 */
import * as oauth from 'oauth4webapi';
import { base64urlFromBytes, base64urlFromText } from '../util/base64url.js';

/** An ES256 key as JWKs: what a store that serializes keeps (the private half is a secret). */
export interface ExportedDpopKey {
  privateJwk: oauth.JWK;
  publicJwk: oauth.JWK;
}

/** An ES256 key as Web Crypto keys, the private one non-extractable; `publicJwk` goes in each proof. */
export interface CryptoDpopKey {
  keyPair: oauth.CryptoKeyPair;
  publicJwk: oauth.JWK;
}

/** A DPoP key as stored. */
export type StoredDpopKey = ExportedDpopKey | CryptoDpopKey;

const ES256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/** True when the authorization server binds tokens with DPoP and takes ES256 proofs. */
export function wantsDpop(as: oauth.AuthorizationServer): boolean {
  const algs = as.dpop_signing_alg_values_supported;
  return Array.isArray(algs) && algs.includes('ES256');
}

/**
 * A new ES256 key: non-extractable `CryptoKey`s when `asCryptoKeys` (the store keeps them as
 * they are), else exported as JWKs for a store that writes JSON.
 */
export async function newDpopKey(asCryptoKeys: boolean): Promise<StoredDpopKey> {
  const pair = await crypto.subtle.generateKey(ES256, !asCryptoKeys, ['sign', 'verify']);
  const publicJwk = publicPart(await crypto.subtle.exportKey('jwk', pair.publicKey));
  if (asCryptoKeys) return { keyPair: pair, publicJwk };
  return { privateJwk: await crypto.subtle.exportKey('jwk', pair.privateKey), publicJwk };
}

/** The key pair of `key` (JWKs imported, the private key non-extractable). */
export async function keyPairOf(key: StoredDpopKey): Promise<oauth.CryptoKeyPair> {
  if ('keyPair' in key) return key.keyPair;
  const [privateKey, publicKey] = await Promise.all([
    crypto.subtle.importKey('jwk', jwkFor(key.privateJwk, ['sign']), ES256, false, ['sign']),
    crypto.subtle.importKey('jwk', jwkFor(key.publicJwk, ['verify']), ES256, true, ['verify']),
  ]);
  return { privateKey, publicKey };
}

/** The oauth4webapi handle that adds proofs (and remembers nonces) for token requests. */
export async function dpopHandle(key: StoredDpopKey, clientId: string): Promise<oauth.DPoPHandle> {
  return oauth.DPoP({ client_id: clientId } as oauth.Client, await keyPairOf(key));
}

/**
 * The proof for one request to the MCP server: `htm`, `htu` (no query or fragment), `iat`, a
 * fresh `jti`, `ath` (the hash of the access token it accompanies) and the server's latest
 * `nonce`, when it gave one.
 */
export async function resourceProof(
  key: StoredDpopKey,
  method: string,
  url: URL,
  accessToken: string,
  nonce?: string,
): Promise<string> {
  const htu = new URL(url);
  htu.search = '';
  htu.hash = '';
  const { kty, crv, x, y } = key.publicJwk;
  const header = { alg: 'ES256', typ: 'dpop+jwt', jwk: { kty, crv, x, y } };
  const ath = base64urlFromBytes(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken))),
  );
  const payload = {
    htm: method,
    htu: htu.toString(),
    ath,
    ...(nonce !== undefined ? { nonce } : {}),
    iat: Math.floor(Date.now() / 1000),
    jti: crypto.randomUUID(),
  };
  const input = `${base64urlFromText(JSON.stringify(header))}.${base64urlFromText(JSON.stringify(payload))}`;
  const { privateKey } = await keyPairOf(key);
  // ECDSA signatures from Web Crypto are r ‖ s, as JWS ES256 wants them (RFC 7518 §3.4).
  const signature = await crypto.subtle.sign(
    { name: 'ECDSA', hash: 'SHA-256' },
    privateKey,
    new TextEncoder().encode(input),
  );
  return `${input}.${base64urlFromBytes(new Uint8Array(signature))}`;
}

/** Runs a token request once more when the server asked for a DPoP nonce (the handle now has it). */
export async function withNonceRetry<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (!oauth.isDPoPNonceError(error)) throw error;
    return request();
  }
}

/** The public members of an EC JWK. */
function publicPart(jwk: oauth.JWK): oauth.JWK {
  const { kty, crv, x, y } = jwk as oauth.JWK & { x?: string; y?: string };
  return { kty, crv, x, y };
}

/** `jwk` as Web Crypto imports it for `usages` (a stored key's own `key_ops` / `ext` dropped). */
function jwkFor(jwk: oauth.JWK, usages: string[]): never {
  const { key_ops: _ops, ext: _ext, ...rest } = jwk as oauth.JWK & { key_ops?: unknown; ext?: unknown };
  return { ...rest, key_ops: usages } as never;
}

/**
 * DPoP (RFC 9449; MCP extension `io.modelcontextprotocol/auth/dpop`): tokens bound to a key the
 * client holds, each request carrying a fresh proof signed with it. Used when the MCP server
 * challenges with the `DPoP` scheme (or its metadata requires bound tokens) and the authorization
 * server lists ES256 in `dpop_signing_alg_values_supported`. The key is kept with the login in
 * the token store (a file store's file is 0600), so a refresh in another process can use it.
 * Token requests get their proofs from oauth4webapi; a request to the MCP server gets one here.
 */
import { createHash, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import * as oauth from 'oauth4webapi';

/** A DPoP key as stored (the private half is a secret). */
export interface StoredDpopKey {
  privateJwk: JWK;
  publicJwk: JWK;
}

/** True when the authorization server binds tokens with DPoP and takes ES256 proofs. */
export function wantsDpop(as: oauth.AuthorizationServer): boolean {
  const algs = as.dpop_signing_alg_values_supported;
  return Array.isArray(algs) && algs.includes('ES256');
}

/** A new ES256 key. */
export async function newDpopKey(): Promise<StoredDpopKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { privateJwk: await exportJWK(privateKey), publicJwk: await exportJWK(publicKey) };
}

/** The oauth4webapi handle that adds proofs (and remembers nonces) for token requests. */
export async function dpopHandle(key: StoredDpopKey, clientId: string): Promise<oauth.DPoPHandle> {
  const privateKey = (await importJWK(key.privateJwk, 'ES256')) as CryptoKeyPairLike['privateKey'];
  const publicKey = (await importJWK(key.publicJwk, 'ES256', { extractable: true })) as CryptoKeyPairLike['publicKey'];
  return oauth.DPoP({ client_id: clientId } as oauth.Client, { privateKey, publicKey });
}

type CryptoKeyPairLike = Parameters<typeof oauth.DPoP>[1];

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
  const privateKey = await importJWK(key.privateJwk, 'ES256');
  return new SignJWT({
    htm: method,
    htu: htu.toString(),
    ath: createHash('sha256').update(accessToken, 'ascii').digest('base64url'),
    ...(nonce !== undefined ? { nonce } : {}),
  })
    .setProtectedHeader({
      alg: 'ES256',
      typ: 'dpop+jwt',
      jwk: { kty: key.publicJwk.kty, crv: key.publicJwk.crv, x: key.publicJwk.x, y: key.publicJwk.y },
    })
    .setIssuedAt()
    .setJti(randomUUID())
    .sign(privateKey);
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

/**
 * DPoP keys on Web Crypto (RFC 9449 proofs signed with `crypto.subtle`, checked here with
 * `jose`): a store that keeps `CryptoKey`s gets a non-extractable pair, a JSON store (the file
 * store) JWKs that survive `JSON.stringify` and sign the same proofs after a round trip; the
 * memory store hands back the same non-extractable key it was given, never a copy that can be
 * exported. A proof names the method, the URL without query or fragment, the token's hash, a
 * fresh `jti` and the server's nonce.
 */
import { createHash } from 'node:crypto';
import * as jose from 'jose';
import { describe, expect, it } from 'vitest';
import { newDpopKey, resourceProof, type StoredDpopKey } from '../src/auth/dpop.js';
import { MemoryTokenStore } from '../src/auth/token-store.js';

/** The proof's claims, its signature checked against the key in its header. */
async function verified(proof: string): Promise<jose.JWTPayload & Record<string, unknown>> {
  const header = jose.decodeProtectedHeader(proof);
  expect(header).toMatchObject({ alg: 'ES256', typ: 'dpop+jwt' });
  expect(Object.keys(header.jwk!).sort()).toEqual(['crv', 'kty', 'x', 'y']);
  const { payload } = await jose.jwtVerify(proof, await jose.importJWK(header.jwk!, 'ES256'), { typ: 'dpop+jwt' });
  return payload;
}

const url = new URL('https://mcp.example/mcp?x=1#frag');

describe('DPoP keys from Web Crypto', () => {
  it('are a non-extractable pair for a store that keeps CryptoKeys, and sign valid proofs', async () => {
    const key = await newDpopKey(true);
    expect('keyPair' in key).toBe(true);
    const { keyPair } = key as Extract<StoredDpopKey, { keyPair: unknown }>;
    expect(keyPair.privateKey).toMatchObject({ type: 'private', extractable: false });
    await expect(crypto.subtle.exportKey('jwk', keyPair.privateKey as never)).rejects.toThrow();

    const first = await verified(await resourceProof(key, 'POST', url, 'the-token', 'n-1'));
    const second = await verified(await resourceProof(key, 'GET', url, 'the-token'));
    expect(first).toMatchObject({
      htm: 'POST',
      htu: 'https://mcp.example/mcp',
      ath: createHash('sha256').update('the-token').digest('base64url'),
      nonce: 'n-1',
    });
    expect(second.nonce).toBeUndefined();
    expect(first.jti).not.toBe(second.jti);
    expect(Math.abs(first.iat! - Date.now() / 1000)).toBeLessThan(60);

    // The memory store keeps the key as it is: what comes back still cannot be exported.
    const store = new MemoryTokenStore();
    await store.set('s', { dpopKey: key });
    const back = (await store.get('s'))!.dpopKey as Extract<StoredDpopKey, { keyPair: unknown }>;
    expect(back.keyPair.privateKey).toMatchObject({ extractable: false });
    await verified(await resourceProof(back, 'POST', url, 'the-token'));
  });

  it('are JWKs for a store that writes JSON, and sign the same way after a round trip', async () => {
    const key = await newDpopKey(false);
    const copy = JSON.parse(JSON.stringify(key)) as StoredDpopKey;
    expect(copy).toMatchObject({ privateJwk: { kty: 'EC', crv: 'P-256' }, publicJwk: { kty: 'EC', crv: 'P-256' } });
    const proof = await resourceProof(copy, 'DELETE', url, 'tok');
    const header = jose.decodeProtectedHeader(proof);
    expect(header.jwk).toEqual(key.publicJwk);
    expect(await verified(proof)).toMatchObject({ htm: 'DELETE' });
  });
});

/**
 * DPoP (RFC 9449) in tests: an authorization server's keys on a real listener (a JWKS at
 * `jwksUrl`) signing access tokens, bound to a client key when given, and a client's DPoP key
 * signing proofs with `jose`. The key server closes when the test finishes (call it inside a test).
 */
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as jose from 'jose';
import { onTestFinished } from 'vitest';

/** The issuer the tokens name. */
export const DPOP_ISSUER = 'https://as.example';

/** The authorization server's side: its signing key, a JWKS on a real listener, tokens for a resource. */
export interface KeyServer {
  jwksUrl: string;
  /** A JWT access token (subject `alice`) for `audience`, bound to `jkt` when given. */
  token(audience: string, jkt?: string): Promise<string>;
}

export async function startKeyServer(): Promise<KeyServer> {
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const jwks = { keys: [{ ...(await jose.exportJWK(publicKey)), kid: 'as-key', alg: 'ES256', use: 'sig' }] };
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    jwksUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`,
    token: (audience, jkt) =>
      new jose.SignJWT({ scope: 'mcp:tools', client_id: 'app', ...(jkt ? { cnf: { jkt } } : {}) })
        .setProtectedHeader({ alg: 'ES256', kid: 'as-key', typ: 'at+jwt' })
        .setIssuer(DPOP_ISSUER)
        .setSubject('alice')
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(privateKey),
  };
}

/** What a proof says (defaults: a POST, issued now, a fresh `jti`, type `dpop+jwt`). */
export interface ProofClaims {
  htm?: string;
  htu: string;
  /** The token the proof goes with (its hash is `ath`). */
  token: string;
  iat?: number;
  jti?: string;
  nonce?: string;
  typ?: string;
}

/** A client's DPoP key: its thumbprint, and proofs signed with it. */
export interface ClientKey {
  jkt: string;
  proof(claims: ProofClaims): Promise<string>;
}

export async function clientKey(): Promise<ClientKey> {
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256');
  const jwk = await jose.exportJWK(publicKey);
  return {
    jkt: await jose.calculateJwkThumbprint(jwk, 'sha256'),
    proof: (claims) =>
      new jose.SignJWT({
        htm: claims.htm ?? 'POST',
        htu: claims.htu,
        ath: createHash('sha256').update(claims.token).digest('base64url'),
        ...(claims.nonce === undefined ? {} : { nonce: claims.nonce }),
      })
        .setProtectedHeader({ alg: 'ES256', typ: claims.typ ?? 'dpop+jwt', jwk })
        .setIssuedAt(claims.iat ?? Math.floor(Date.now() / 1000))
        .setJti(claims.jti ?? randomUUID())
        .sign(privateKey),
  };
}

/**
 * A token issuer for bearer checks, on 127.0.0.1 port 0: an ES256 key pair, its JWKS at
 * `${issuer}/jwks`, and `sign()` for access tokens (`typ: at+jwt`, 10 minutes) of a subject for
 * an audience. What `jwtBearer({ issuer, jwksUrl, audience })` and the gateway's `auth` check.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as jose from 'jose';

export interface JwtIssuer {
  /** `http://127.0.0.1:PORT`, the tokens' `iss`. */
  issuer: string;
  jwksUrl: string;
  /** An access token of `subject` for `audience`, with `claims` beside (e.g. `scope`). */
  sign(subject: string, audience: string, claims?: Record<string, unknown>): Promise<string>;
  /** Stops listening. Idempotent. */
  close(): Promise<void>;
}

export async function startJwtIssuer(): Promise<JwtIssuer> {
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
  const server = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closing: Promise<void> | undefined;
  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    sign: (subject, audience, claims = {}) =>
      new jose.SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(subject)
        .setExpirationTime('10m')
        .sign(privateKey),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      })),
  };
}

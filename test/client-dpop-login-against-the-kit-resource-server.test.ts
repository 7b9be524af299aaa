/**
 * DPoP end to end between mcpwire's own parts over real loopback HTTP: the kit's resource server
 * requiring DPoP-bound tokens with server nonces (`auth.dpop`, `jwtBearer`), and mcpwire's client
 * logging in at an authorization server in the test that binds the token to the proof's key
 * (`cnf.jkt`) and serves its keys. The client learns from the challenge and the metadata that
 * DPoP is required, gets a bound token, answers the `use_dpop_nonce` challenge once, and calls
 * tools with a fresh proof each time.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as jose from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../src/auth/token-store.js';
import { McpClient } from '../src/client/mcp-client.js';
import { PROCESS_HTTP_ROUTES } from '../src/client/http-routes.js';
import { jwtBearer, McpServer, type AuthInfo } from '../src/server/index.js';
import { json, startHttpFixture } from './support/http-fixture.js';
import { listenKitAt } from './support/kit-http.js';
import { registerWhoamiTool } from './support/kit-tools.js';
import { answerOAuthDiscovery } from './support/oauth-discovery.js';
import { approveWithCode } from './support/scripted-oauth.js';
import { eventually } from './support/wait.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
  PROCESS_HTTP_ROUTES.clear();
});

describe("mcpwire's client and the kit's DPoP resource server", () => {
  for (const era of ['modern', 'legacy'] as const)
    it(`logs in for a bound token, answers the nonce challenge once, and calls tools with fresh proofs (${era})`, () =>
      loginAndCall(era));
});

/**
 * The whole exchange in `era`. A legacy session also opens its GET stream and ends with a DELETE:
 * each carries a fresh proof of its own (a proof is bound to one method and used once).
 */
async function loginAndCall(era: 'modern' | 'legacy'): Promise<void> {
  {
    const { privateKey, publicKey } = await jose.generateKeyPair('ES256', { extractable: true });
    const jwks = { keys: [{ ...(await jose.exportJWK(publicKey)), kid: 'as', alg: 'ES256' }] };
    let origin = '';
    const boundTo: string[] = [];
    const as = await startHttpFixture(async (seen, res, req) => {
      const metadata = { dpop_signing_alg_values_supported: ['ES256'], jwks_uri: `${origin}/jwks` };
      if (answerOAuthDiscovery(origin, seen, res, { metadata })) return true;
      switch (seen.path.split('?')[0]) {
        case '/register':
          return json(res, { client_id: 'dpop-app', redirect_uris: seen.json?.redirect_uris ?? [] }, 201);
        case '/jwks':
          return json(res, jwks);
        case '/token':
          return json(res, await boundToken(req, new URLSearchParams(seen.body)));
        default:
          return false;
      }
    });
    open.push(as);
    origin = `http://127.0.0.1:${as.port}`;

    /** The token endpoint: a JWT access token for the requested resource, bound to the proof's key. */
    async function boundToken(req: IncomingMessage, form: URLSearchParams): Promise<Record<string, unknown>> {
      const proof = req.headers.dpop as string;
      const { protectedHeader } = await jose.jwtVerify(proof, jose.EmbeddedJWK, { typ: 'dpop+jwt' });
      const jkt = await jose.calculateJwkThumbprint(protectedHeader.jwk!, 'sha256');
      boundTo.push(jkt);
      const accessToken = await new jose.SignJWT({ scope: 'mcp:tools', client_id: 'dpop-app', cnf: { jkt } })
        .setProtectedHeader({ alg: 'ES256', kid: 'as', typ: 'at+jwt' })
        .setIssuer(origin)
        .setSubject('alice')
        .setAudience(form.get('resource') ?? '')
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(privateKey);
      return { access_token: accessToken, token_type: 'DPoP', expires_in: 600, scope: 'mcp:tools' };
    }

    const seen: Array<AuthInfo | undefined> = [];
    const server = new McpServer({ name: 'dpop-kit', version: '1.0.0', logger: () => undefined });
    open.push({ close: () => server.close() });
    registerWhoamiTool(server, seen);
    const kit = await listenKitAt(server, (url) => ({
      auth: {
        resource: url,
        authorizationServers: [origin],
        verifyToken: jwtBearer({ issuer: origin, jwksUrl: `${origin}/jwks` }),
        dpop: { required: true, nonce: true },
      },
    }));
    open.push(kit);
    const answers: Array<{ method: string; scheme: string; status: number; challenge: string | undefined }> = [];
    // What the kit answered, read as it is written (writeHead's own headers are not kept on the response).
    kit.listener.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      if (req.url !== '/mcp') return; // the metadata
      const writeHead = res.writeHead.bind(res) as (
        status: number,
        headers?: Record<string, unknown>,
      ) => ServerResponse;
      res.writeHead = ((status: number, headers?: Record<string, unknown>) => {
        const challenge = headers?.['www-authenticate'];
        answers.push({
          method: req.method ?? '',
          scheme: req.headers.authorization?.split(' ')[0] ?? 'none',
          status,
          challenge: typeof challenge === 'string' ? challenge : undefined,
        });
        return writeHead(status, headers);
      }) as typeof res.writeHead;
    });

    const client = await McpClient.connect(
      {
        url: kit.url,
        auth: {
          store: new MemoryTokenStore(),
          onAuthorizationUrl: (url) => approveWithCode(url, 'the-code'),
        },
      },
      { name: 'dpop-client', connectTimeoutMs: 20_000, era },
    );
    open.push(client);
    for (let i = 0; i < 3; i++)
      expect((await client.callTool('whoami', {})).structuredContent).toEqual({ subject: 'alice' });

    expect(boundTo).toHaveLength(1);
    expect(seen).toHaveLength(3);
    for (const auth of seen) expect(auth?.claims?.cnf).toEqual({ jkt: boundTo[0] });
    const refused = answers.filter((a) => a.status === 401);
    expect(refused.map((a) => a.challenge?.match(/error="([^"]+)"/)?.[1] ?? 'none')).toEqual([
      'none',
      'use_dpop_nonce',
    ]);
    expect(refused.every((a) => a.challenge?.startsWith('DPoP '))).toBe(true);
    expect(answers.filter((a) => a.status === 200).every((a) => a.scheme === 'DPoP')).toBe(true);
    if (era === 'legacy') {
      // The session's GET stream, then the DELETE that ends it: accepted, each with its own proof.
      await eventually(() => answers.some((a) => a.method === 'GET' && a.status === 200), {
        what: 'the GET stream accepted',
      });
      await client.close();
      const ended = answers.filter((a) => a.method === 'DELETE');
      expect(ended.map((a) => [a.scheme, a.status])).toEqual([['DPoP', 200]]);
      expect(answers.filter((a) => a.method !== 'POST' && a.status === 401)).toEqual([]);
    }
    expect(answers.filter((a) => a.status !== 200 && a.status !== 401 && a.status !== 202)).toEqual([]);
  }
}

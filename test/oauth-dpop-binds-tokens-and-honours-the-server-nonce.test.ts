/**
 * DPoP (RFC 9449) end to end over real HTTP: a server that challenges with the `DPoP` scheme gets
 * a DPoP-bound token (the token request carries a proof), presented as `Authorization: DPoP`
 * with a fresh proof per request (own `jti`, `htm`, `htu`, `ath`); when it answers
 * `use_dpop_nonce`, the request goes again with its nonce in the proof.
 */
import { createHash } from 'node:crypto';
import * as jose from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../src/auth/token-store.js';
import { McpClient } from '../src/client/mcp-client.js';
import { json, legacyServer, startHttpFixture, type HttpFixture } from './support/http-fixture.js';
import { answerOAuthDiscovery, resourceChallenge } from './support/oauth-discovery.js';
import { approveWithCode } from './support/scripted-oauth.js';
import { closedAfterEach, endAll } from './support/end-all.js';
import { forgetHttpRoutesAfterEach } from './support/http-scene.js';

forgetHttpRoutesAfterEach();
let fixture: HttpFixture | undefined;
afterEach(async () => void ([fixture] = await endAll([fixture, 'close'])));
const clients = closedAfterEach<McpClient>();

const NONCE = 'resource-server-nonce';

describe('DPoP-bound tokens', () => {
  it('binds the token, sends a fresh proof per request, and retries with the server nonce', async () => {
    let origin = '';
    const tokenRequestProofs: Array<string | undefined> = [];
    const jtis: string[] = [];
    const schemes: string[] = [];
    let nonceChallenges = 0;
    const mcp = legacyServer({ sessions: false });
    fixture = await startHttpFixture(async (seen, res, req) => {
      if (answerOAuthDiscovery(origin, seen, res, { metadata: { dpop_signing_alg_values_supported: ['ES256'] } }))
        return true;
      const path = seen.path.split('?')[0];
      if (path === '/register')
        return json(res, { client_id: 'dpop-client', redirect_uris: seen.json?.redirect_uris ?? [] }, 201);
      if (path === '/token') {
        tokenRequestProofs.push(req.headers.dpop as string | undefined);
        return json(res, { access_token: 'bound-token', token_type: 'DPoP', expires_in: 3600 });
      }
      if (path !== '/mcp') return false;
      const authorization = req.headers.authorization;
      const challenge = resourceChallenge(origin, 'DPoP');
      if (!authorization) return json(res, { error: 'unauthorized' }, 401, { 'www-authenticate': challenge });
      schemes.push(authorization.split(' ')[0]!);
      const proof = req.headers.dpop as string;
      const header = jose.decodeProtectedHeader(proof);
      const { payload } = await jose.jwtVerify(proof, await jose.importJWK(header.jwk!, header.alg), {
        typ: 'dpop+jwt',
      });
      expect(payload.htm).toBe('POST');
      expect(payload.htu).toBe(`${origin}/mcp`);
      expect(payload.ath).toBe(createHash('sha256').update('bound-token').digest('base64url'));
      jtis.push(payload.jti!);
      if (payload.nonce !== NONCE) {
        nonceChallenges++;
        return json(res, { error: 'use_dpop_nonce' }, 401, {
          'www-authenticate': `DPoP error="use_dpop_nonce"`,
          'dpop-nonce': NONCE,
        });
      }
      return mcp(seen, res, req);
    });
    origin = `http://127.0.0.1:${fixture.port}`;
    const client = await McpClient.connect(
      {
        url: fixture.url,
        auth: {
          store: new MemoryTokenStore(),
          onAuthorizationUrl: (url) => approveWithCode(url, 'the-code'),
        },
      },
      { name: 'bound' },
    );
    clients.push(client);
    expect(await client.listTools()).toHaveLength(1);
    expect(await client.callTool('echo', { text: 'x' })).toMatchObject({ content: [{ type: 'text', text: 'echo:x' }] });
    expect(tokenRequestProofs).toHaveLength(1);
    expect(tokenRequestProofs[0]).toMatch(/^ey/);
    expect(new Set(schemes)).toEqual(new Set(['DPoP']));
    expect(nonceChallenges).toBe(1);
    expect(new Set(jtis).size).toBe(jtis.length);
  });
});

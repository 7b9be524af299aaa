/**
 * A refresh that fails because the authorization server cannot answer (down, a 5xx) keeps the
 * stored refresh token, so the login survives the outage and the next try refreshes without a
 * browser; only the server refusing the refresh token itself (`invalid_grant`) drops it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OAuthSession } from '../src/auth/oauth-session.js';
import { MemoryTokenStore, type StoredLogin } from '../src/auth/token-store.js';
import { json, startHttpFixture, type HttpFixture } from './support/http-fixture.js';
import { endAll } from './support/end-all.js';

let fixture: HttpFixture | undefined;
afterEach(async () => void ([fixture] = await endAll([fixture, 'close'])));

function expiredLogin(origin: string): StoredLogin {
  return {
    tokens: {
      accessToken: 'old',
      tokenType: 'Bearer',
      refreshToken: 'the-refresh',
      expiresAt: Date.now() - 1_000,
      scope: 'mcp:tools',
    },
    client: { issuer: origin, clientId: 'c1', redirectUris: ['http://127.0.0.1:1/callback'], source: 'registered' },
    discovery: {
      resource: `${origin}/mcp`,
      authorizationServer: { issuer: origin, token_endpoint: `${origin}/token` },
    },
  };
}

/** A token endpoint answering `mode`: 503, `invalid_grant`, or fresh tokens. */
async function tokenEndpoint(): Promise<{ origin: string; set(mode: 'down' | 'refuse' | 'up'): void }> {
  let mode: 'down' | 'refuse' | 'up' = 'down';
  fixture = await startHttpFixture((seen, res) => {
    if (seen.path !== '/token') return false;
    if (mode === 'down') return json(res, { error: 'temporarily_unavailable' }, 503);
    if (mode === 'refuse')
      return json(res, { error: 'invalid_grant', error_description: 'refresh token revoked' }, 400);
    return json(res, { access_token: 'fresh', token_type: 'Bearer', expires_in: 3600, refresh_token: 'next-refresh' });
  });
  return { origin: `http://127.0.0.1:${fixture.port}`, set: (next) => (mode = next) };
}

describe('a refresh that fails', () => {
  it('keeps the refresh token when the authorization server cannot answer, and refreshes on the next try', async () => {
    const endpoint = await tokenEndpoint();
    const url = new URL(`${endpoint.origin}/mcp`);
    const store = new MemoryTokenStore();
    await store.set(url.toString(), expiredLogin(endpoint.origin));
    const session = new OAuthSession(url, 'srv', { store });
    // No credentials this time (the request then meets the server's 401), but the login is kept.
    expect(await session.authorize({ method: 'POST', url })).toEqual({});
    expect((await store.get(url.toString()))?.tokens?.refreshToken).toBe('the-refresh');

    endpoint.set('up');
    expect(await new OAuthSession(url, 'srv', { store }).authorize({ method: 'POST', url })).toEqual({
      authorization: 'Bearer fresh',
    });
    expect((await store.get(url.toString()))?.tokens?.refreshToken).toBe('next-refresh');
  });

  it('drops the refresh token the server refuses (invalid_grant), so the next step is a login', async () => {
    const endpoint = await tokenEndpoint();
    endpoint.set('refuse');
    const url = new URL(`${endpoint.origin}/mcp`);
    const store = new MemoryTokenStore();
    await store.set(url.toString(), expiredLogin(endpoint.origin));
    expect(await new OAuthSession(url, 'srv', { store }).authorize({ method: 'POST', url })).toEqual({});
    const kept = await store.get(url.toString());
    expect(kept?.tokens).toBeUndefined();
    expect(kept?.client?.clientId).toBe('c1');
  });
});

/**
 * The session's refresh: tokens about to expire are refreshed before use, once for however many
 * requests wait (one token request, every waiter gets the new token), with `resource` and no
 * redirect URI; a 401 with a working refresh token is answered by a refresh, never by a login.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { StoredLogin } from '../src/auth/token-store.js';
import { HttpError } from '../src/protocol/errors.js';
import { parseAuthChallenges } from '../src/util/auth-challenge.js';
import { json, startHttpFixture, type HttpFixture } from './support/http-fixture.js';
import { endAll } from './support/end-all.js';
import { sessionOnStoredLogin, storedLogin } from './support/oauth-sessions.js';

let fixture: HttpFixture | undefined;
afterEach(async () => void ([fixture] = await endAll([fixture, 'close'])));

/** A token endpoint that hands out `fresh-<n>` for a refresh, holding each answer until `release`. */
async function tokenEndpoint(): Promise<{ fixture: HttpFixture; release(): void; origin: string }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let issued = 0;
  const started = await startHttpFixture(async (seen, res) => {
    if (seen.path !== '/token') return false;
    await gate;
    issued++;
    return json(res, {
      access_token: `fresh-${issued}`,
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: `next-refresh-${issued}`,
    });
  });
  return { fixture: started, release, origin: `http://127.0.0.1:${started.port}` };
}

function loginFor(origin: string, expiresAt: number): StoredLogin {
  return storedLogin(origin, {
    accessToken: 'old',
    tokenType: 'Bearer',
    refreshToken: 'the-refresh',
    expiresAt,
    scope: 'mcp:tools',
  });
}

describe('refreshing a login', () => {
  it('refreshes tokens about to expire once, however many requests wait for them', async () => {
    const endpoint = await tokenEndpoint();
    fixture = endpoint.fixture;
    const { url, store, session } = await sessionOnStoredLogin(
      endpoint.origin,
      loginFor(endpoint.origin, Date.now() + 5_000),
    );
    const waiting = Array.from({ length: 5 }, () => session.authorize({ method: 'POST', url }));
    endpoint.release();
    const headers = await Promise.all(waiting);
    expect(headers).toEqual(Array.from({ length: 5 }, () => ({ authorization: 'Bearer fresh-1' })));
    const requests = fixture.requests.filter((r) => r.path === '/token');
    expect(requests).toHaveLength(1);
    const body = new URLSearchParams(requests[0]!.body);
    expect(body.get('grant_type')).toBe('refresh_token');
    expect(body.get('resource')).toBe(`${endpoint.origin}/mcp`);
    expect(body.has('redirect_uri')).toBe(false);
    expect((await store.get(url.toString()))?.tokens?.refreshToken).toBe('next-refresh-1');
  });

  it('answers a 401 invalid_token with a refresh, not a login', async () => {
    const endpoint = await tokenEndpoint();
    fixture = endpoint.fixture;
    endpoint.release();
    const { url, session } = await sessionOnStoredLogin(
      endpoint.origin,
      loginFor(endpoint.origin, Date.now() + 3_600_000),
    );
    expect(await session.authorize({ method: 'POST', url })).toEqual({ authorization: 'Bearer old' });
    const rejected = new HttpError('AUTH_REQUIRED', 'HTTP 401', {
      url: url.toString(),
      status: 401,
      challenge: parseAuthChallenges('Bearer error="invalid_token"'),
    });
    expect(await session.authorize({ method: 'POST', url, rejected })).toEqual({ authorization: 'Bearer fresh-1' });
  });
});

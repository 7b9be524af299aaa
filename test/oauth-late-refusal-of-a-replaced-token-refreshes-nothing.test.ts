/**
 * A 401 that arrives late, for a request sent with a token the session has replaced since (a
 * renewal, or another process's tokens taken from the store), is answered with the current
 * token: no refresh. A 401 for the current token is answered with a refresh. The transport says
 * which token the refused attempt carried (`rejectedAuthorization`); a real token endpoint on
 * loopback counts the refreshes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../src/protocol/errors.js';
import { parseAuthChallenges } from '../src/util/auth-challenge.js';
import { json, startHttpFixture, type HttpFixture } from './support/http-fixture.js';
import { endAll } from './support/end-all.js';
import { sessionOnStoredLogin, storedLogin } from './support/oauth-sessions.js';

let fixture: HttpFixture | undefined;
afterEach(async () => void ([fixture] = await endAll([fixture, 'close'])));

describe('a refusal of a token already replaced', () => {
  it('is answered with the current token, and only a refusal of that one refreshes', async () => {
    let issued = 0;
    fixture = await startHttpFixture((seen, res) => {
      if (seen.path !== '/token') return false;
      issued++;
      return json(res, { access_token: `fresh-${issued}`, token_type: 'Bearer', expires_in: 3600 });
    });
    const origin = `http://127.0.0.1:${fixture.port}`;
    // What another process left: tokens renewed from "old-token".
    const { url, session } = await sessionOnStoredLogin(
      origin,
      storedLogin(origin, {
        accessToken: 'current',
        tokenType: 'Bearer',
        refreshToken: 'r1',
        expiresAt: Date.now() + 3_600_000,
      }),
    );
    expect(await session.authorize({ method: 'POST', url })).toEqual({ authorization: 'Bearer current' });
    const rejected = new HttpError('AUTH_REQUIRED', 'HTTP 401', {
      url: url.toString(),
      status: 401,
      challenge: parseAuthChallenges('Bearer error="invalid_token"'),
    });

    const late = await session.authorize({ method: 'POST', url, rejected, rejectedAuthorization: 'Bearer old-token' });
    expect(late).toEqual({ authorization: 'Bearer current' });
    expect(fixture.requests.filter((r) => r.path === '/token')).toHaveLength(0);

    const current = await session.authorize({ method: 'POST', url, rejected, rejectedAuthorization: 'Bearer current' });
    expect(current).toEqual({ authorization: 'Bearer fresh-1' });
    expect(fixture.requests.filter((r) => r.path === '/token')).toHaveLength(1);
  });
});

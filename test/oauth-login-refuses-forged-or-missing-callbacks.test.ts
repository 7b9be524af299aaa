/**
 * The browser step's failure paths, through `McpClient.connect({ url, auth })` and the real
 * loopback receiver: a callback whose `state` is not the one sent is refused (and the code never
 * reaches the token endpoint); a browser that never comes back ends the login after the login
 * timeout with an error that says what to do; either way the receiver stops listening.
 */
import { describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../src/auth/token-store.js';
import { OAuthError } from '../src/auth/auth-error.js';
import { McpClient } from '../src/client/mcp-client.js';
import { startScriptedOAuth } from './support/scripted-oauth.js';

/** True when nothing listens at `url` any more. */
async function refused(url: string): Promise<boolean> {
  return fetch(url).then(
    () => false,
    () => true,
  );
}

/**
 * Connects server "guarded" at `url` with a fresh store, handing each authorization URL's
 * redirect_uri to `browse`, and returns the OAuthError the connect must end in.
 */
async function failedLogin(
  url: string,
  options: { loginTimeoutMs?: number },
  browse: (redirectUri: string) => void | Promise<void>,
): Promise<{ error: OAuthError; redirectUri: string }> {
  let redirectUri = '';
  const error = await McpClient.connect(
    {
      url,
      auth: {
        store: new MemoryTokenStore(),
        ...options,
        onAuthorizationUrl: async (authorizationUrl) => {
          redirectUri = authorizationUrl.searchParams.get('redirect_uri')!;
          await browse(redirectUri);
        },
      },
    },
    { name: 'guarded' },
  ).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(OAuthError);
  return { error: error as OAuthError, redirectUri };
}

describe('the login callback', () => {
  it('refuses a callback with another state, and the code never reaches the token endpoint', async () => {
    const fixture = await startScriptedOAuth();
    const { error, redirectUri } = await failedLogin(fixture.url, {}, async (redirect) => {
      // A forged authorization response: right path, a code, the wrong state.
      const forged = new URL(redirect);
      forged.searchParams.set('code', 'stolen-code');
      forged.searchParams.set('state', 'not-the-state-sent');
      const answer = await fetch(forged);
      expect(answer.status).toBe(400);
    });
    expect(error.code).toBe('AUTH_REQUIRED');
    expect(error.step).toBe('callback');
    expect(error.message).toMatch(/^server "guarded": .*state/);
    expect(error.message).not.toContain('stolen-code');
    expect(fixture.requests.filter((r) => r.path === '/token')).toHaveLength(0);
    expect(await refused(redirectUri)).toBe(true);
  });

  it('gives up after the login timeout when the browser never returns, saying what to do', async () => {
    const fixture = await startScriptedOAuth();
    const { error, redirectUri } = await failedLogin(fixture.url, { loginTimeoutMs: 300 }, () => {});
    expect(error.step).toBe('callback');
    expect(error.message).toMatch(/no login callback arrived within 300 ms; open the authorization URL/);
    expect(await refused(redirectUri)).toBe(true);
  });
});

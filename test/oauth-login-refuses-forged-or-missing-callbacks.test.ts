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

describe('the login callback', () => {
  it('refuses a callback with another state, and the code never reaches the token endpoint', async () => {
    const fixture = await startScriptedOAuth();
    let redirectUri = '';
    const error = await McpClient.connect(
      {
        url: fixture.url,
        auth: {
          store: new MemoryTokenStore(),
          onAuthorizationUrl: async (url) => {
            redirectUri = url.searchParams.get('redirect_uri')!;
            // A forged authorization response: right path, a code, the wrong state.
            const forged = new URL(redirectUri);
            forged.searchParams.set('code', 'stolen-code');
            forged.searchParams.set('state', 'not-the-state-sent');
            const answer = await fetch(forged);
            expect(answer.status).toBe(400);
          },
        },
      },
      { name: 'guarded' },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).code).toBe('AUTH_REQUIRED');
    expect((error as OAuthError).step).toBe('callback');
    expect((error as OAuthError).message).toMatch(/^server "guarded": .*state/);
    expect((error as OAuthError).message).not.toContain('stolen-code');
    expect(fixture.requests.filter((r) => r.path === '/token')).toHaveLength(0);
    expect(await refused(redirectUri)).toBe(true);
  });

  it('gives up after the login timeout when the browser never returns, saying what to do', async () => {
    const fixture = await startScriptedOAuth();
    let redirectUri = '';
    const error = await McpClient.connect(
      {
        url: fixture.url,
        auth: {
          store: new MemoryTokenStore(),
          loginTimeoutMs: 300,
          onAuthorizationUrl: (url) => {
            redirectUri = url.searchParams.get('redirect_uri')!;
          },
        },
      },
      { name: 'guarded' },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).step).toBe('callback');
    expect((error as OAuthError).message).toMatch(
      /no login callback arrived within 300 ms; open the authorization URL/,
    );
    expect(await refused(redirectUri)).toBe(true);
  });
});

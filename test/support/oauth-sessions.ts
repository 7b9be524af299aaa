/**
 * An `OAuthSession` on a login already stored, as the refresh tests start from: the login of a
 * client registered at the authorization server `origin` (its token endpoint `<origin>/token`),
 * for the resource `<origin>/mcp`, in a fresh memory store. The session fails the test if it
 * ever asks the user to log in.
 */
import { expect } from 'vitest';
import { OAuthSession } from '../../src/auth/oauth-session.js';
import { MemoryTokenStore, type StoredLogin } from '../../src/auth/token-store.js';

/** The stored login of client `c1` at `origin` holding `tokens`. */
export function storedLogin(origin: string, tokens: StoredLogin['tokens']): StoredLogin {
  return {
    tokens,
    client: { issuer: origin, clientId: 'c1', redirectUris: ['http://127.0.0.1:1/callback'], source: 'registered' },
    discovery: {
      resource: `${origin}/mcp`,
      authorizationServer: { issuer: origin, token_endpoint: `${origin}/token` },
    },
  };
}

/** A session for `<origin>/mcp` (server name `srv`) whose store holds `login`. */
export async function sessionOnStoredLogin(
  origin: string,
  login: StoredLogin,
): Promise<{ url: URL; store: MemoryTokenStore; session: OAuthSession }> {
  const url = new URL(`${origin}/mcp`);
  const store = new MemoryTokenStore();
  await store.set(url.toString(), login);
  const session = new OAuthSession(url, 'srv', {
    store,
    onAuthorizationUrl: () => expect.fail('no login while a refresh token works'),
  });
  return { url, store, session };
}

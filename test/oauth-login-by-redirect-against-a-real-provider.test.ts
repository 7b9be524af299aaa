/**
 * The login by redirect (a browser page's flow: no loopback receiver) against the real
 * oidc-provider, with the Node parts unregistered as in a browser: a connect that meets the
 * server's 401 keeps the PKCE verifier and `state` in the (sessionStorage) store and sends the
 * page to the provider; the page that comes back connects with the callback URL, which finishes
 * the login (state checked, the stored verifier redeemed, the token bound to a non-extractable
 * Web Crypto key) and calls tools with DPoP proofs. A forged callback is refused; a callback of
 * a finished login is ignored; an expired token is refreshed with the same key, no redirect; the
 * explicit start/finish API does the same without a connect.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoginRedirectError, OAuthError } from '../src/auth/auth-error.js';
import { setNodeAuthParts, type NodeAuthPartsLoader } from '../src/auth/auth-runtime.js';
import { finishRedirectLogin, startRedirectLogin } from '../src/auth/browser-login.js';
import { SessionStorageTokenStore } from '../src/auth/session-storage-store.js';
import { MemoryTokenStore, type StoredLogin } from '../src/auth/token-store.js';
import type { OAuthOptions } from '../src/auth/auth-options.js';
import { McpClient } from '../src/client/mcp-client.js';
import { PROCESS_HTTP_ROUTES } from '../src/client/http-routes.js';
import { startAuthorizationServer, type AuthorizationServer } from './support/oauth-servers.js';
import { followToRedirectUri, MapStorage, startDpopKit } from './support/redirect-login.js';

/** The app's page the provider sends the browser back to (never fetched here). */
const REDIRECT_URI = 'http://127.0.0.1:9/app/callback';

let as: AuthorizationServer | undefined;
let nodeParts: NodeAuthPartsLoader | undefined;
const clients: McpClient[] = [];
beforeEach(() => {
  // As in a browser: no file store, no loopback receiver, no undici.
  nodeParts = setNodeAuthParts(undefined);
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await as?.close();
  as = undefined;
  PROCESS_HTTP_ROUTES.clear();
  setNodeAuthParts(nodeParts);
});

describe('the OAuth login by redirect against oidc-provider', () => {
  it('sends the page to the provider, finishes from the callback URL, and calls tools with a DPoP-bound token', async () => {
    as = await startAuthorizationServer({ autoApprove: true });
    const { kit, seen } = await startDpopKit(as.issuer);
    const storage = new MapStorage();
    const sentTo: URL[] = [];
    const auth = (): OAuthOptions => ({
      store: new SessionStorageTokenStore({ storage }), // a new one per page, as after a navigation
      redirectUri: REDIRECT_URI,
      onAuthorizationUrl: (url) => void sentTo.push(url), // a page: location.assign(url)
    });

    // The first page: the server's 401 starts the login; the connect ends with the page on its way.
    const first = await McpClient.connect(
      { url: kit.url, auth: auth() },
      { name: 'kit', connectTimeoutMs: 20_000 },
    ).then(
      (client) => clients.push(client),
      (error: unknown) => error,
    );
    expect(first).toBeInstanceOf(LoginRedirectError);
    expect(sentTo).toHaveLength(1);
    const sent = sentTo[0]!;
    expect((first as LoginRedirectError).authorizationUrl).toBe(sent.href);
    expect(sent.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(sent.searchParams.get('code_challenge_method')).toBe('S256');
    expect(sent.searchParams.get('resource')).toBe(kit.url);
    const pending = storedLogin(storage).pending!;
    expect(pending.state).toBe(sent.searchParams.get('state'));
    expect(pending.client.source).toBe('registered');

    // The provider approves and sends the browser back; the page that loads connects with that URL.
    const callbackUrl = await followToRedirectUri(sent, REDIRECT_URI);
    expect(callbackUrl.searchParams.get('code')).toBeTruthy();
    const client = await McpClient.connect(
      { url: kit.url, auth: { ...auth(), callbackUrl } },
      { name: 'kit', connectTimeoutMs: 20_000 },
    );
    clients.push(client);
    for (let i = 0; i < 2; i++)
      expect((await client.callTool('whoami', {})).structuredContent).toEqual({ subject: 'alice' });
    expect(sentTo).toHaveLength(1);
    expect(seen).toHaveLength(2);
    const jkt = (seen[0]?.claims?.cnf as { jkt?: string } | undefined)?.jkt;
    expect(jkt).toBeTruthy();
    expect(as.grants).toContainEqual({ grantType: 'authorization_code', ok: true });

    // What the tab keeps: the tokens, the client, no pending login, and never the DPoP key.
    const kept = storedLogin(storage);
    expect(kept.pending).toBeUndefined();
    expect(kept.tokens?.tokenType).toBe('DPoP');
    expect(kept.dpopKey).toBeUndefined();
    expect([...storage.entries.values()].join('')).not.toMatch(/"d":|privateJwk|keyPair/);
    // The key is a Web Crypto pair whose private half cannot be exported.
    const login = (await new SessionStorageTokenStore({ storage }).get(kit.url))!;
    const key = login.dpopKey as { keyPair: { privateKey: { extractable: boolean; type: string } } };
    expect(key.keyPair.privateKey).toMatchObject({ type: 'private', extractable: false });

    // The same callback URL again (a reload of that page): the login is finished, its tokens are used.
    const again = await McpClient.connect(
      { url: kit.url, auth: { ...auth(), callbackUrl } },
      { name: 'kit', connectTimeoutMs: 20_000 },
    );
    clients.push(again);
    expect((await again.callTool('whoami', {})).structuredContent).toEqual({ subject: 'alice' });
    expect(as.grants.filter((g) => g.grantType === 'authorization_code')).toHaveLength(1);

    // Expired in the tab: the next page's connect refreshes with the same key (no redirect), and
    // the provider takes the DPoP-bound refresh; the new token is bound to the same key.
    const expired = storedLogin(storage);
    storage.entries.set(
      [...storage.entries.keys()][0]!,
      JSON.stringify({
        key: kit.url,
        login: { ...expired, tokens: { ...expired.tokens!, expiresAt: Date.now() - 1_000 } },
      }),
    );
    const refreshed = await McpClient.connect(
      { url: kit.url, auth: auth() },
      { name: 'kit', connectTimeoutMs: 20_000 },
    );
    clients.push(refreshed);
    expect((await refreshed.callTool('whoami', {})).structuredContent).toEqual({ subject: 'alice' });
    expect(as.grants).toContainEqual({ grantType: 'refresh_token', ok: true });
    expect(storedLogin(storage).tokens!.accessToken).not.toBe(expired.tokens!.accessToken);
    expect((seen.at(-1)?.claims?.cnf as { jkt?: string } | undefined)?.jkt).toBe(jkt);
    expect(sentTo).toHaveLength(1);
  }, 120_000);

  it('refuses a callback with another state and keeps the login under way for the real one', async () => {
    as = await startAuthorizationServer({ autoApprove: true });
    const { kit } = await startDpopKit(as.issuer);
    const store = new MemoryTokenStore();
    const options = { store, redirectUri: REDIRECT_URI };
    const url = await startRedirectLogin(kit.url, options);
    const callbackUrl = await followToRedirectUri(url, REDIRECT_URI);

    const forged = new URL(callbackUrl);
    forged.searchParams.set('state', 'not-the-state-sent');
    const refused = await finishRedirectLogin(kit.url, forged, options).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OAuthError);
    expect(refused).toMatchObject({ code: 'AUTH_REQUIRED', step: 'callback' });
    expect(String((refused as Error).message)).not.toContain(callbackUrl.searchParams.get('code')!);

    const tokens = await finishRedirectLogin(kit.url, callbackUrl, options);
    expect(tokens.tokenType).toBe('DPoP');
    const client = await McpClient.connect({ url: kit.url, auth: options }, { name: 'kit' });
    clients.push(client);
    expect((await client.callTool('whoami', {})).structuredContent).toEqual({ subject: 'alice' });
    expect(((await store.get(kit.url)) as StoredLogin).dpopKey).toMatchObject({
      keyPair: { privateKey: { extractable: false } },
    });
  }, 120_000);

  it('ends the login under way when the provider sends back a refusal (access_denied)', async () => {
    as = await startAuthorizationServer({ autoApprove: true });
    const { kit } = await startDpopKit(as.issuer);
    const store = new MemoryTokenStore();
    const options = { store, redirectUri: REDIRECT_URI };
    const url = await startRedirectLogin(kit.url, options);
    const denied = new URL(REDIRECT_URI);
    denied.searchParams.set('error', 'access_denied');
    denied.searchParams.set('state', url.searchParams.get('state')!);
    denied.searchParams.set('iss', as.issuer);
    const refused = await finishRedirectLogin(kit.url, denied, options).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'AUTH_REQUIRED', step: 'callback', oauthError: 'access_denied' });
    expect((await store.get(kit.url))?.pending).toBeUndefined();
    // Nothing is under way any more: the same callback again says so.
    await expect(finishRedirectLogin(kit.url, denied, options)).rejects.toThrow(/no login by redirect is under way/);
  });

  it('says a login by redirect needs startRedirectLogin when nothing sends the page on', async () => {
    as = await startAuthorizationServer({ autoApprove: true });
    const { kit } = await startDpopKit(as.issuer);
    const failed = await McpClient.connect(
      { url: kit.url, auth: { store: new MemoryTokenStore(), redirectUri: REDIRECT_URI } },
      { name: 'kit' },
    ).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(OAuthError);
    expect(failed).not.toBeInstanceOf(LoginRedirectError);
    expect((failed as OAuthError).message).toMatch(/startRedirectLogin/);
  });
});

/** The one login the stand-in storage holds, as the store wrote it. */
function storedLogin(storage: MapStorage): StoredLogin {
  const entries = [...storage.entries.values()];
  expect(entries).toHaveLength(1);
  return (JSON.parse(entries[0]!) as { login: StoredLogin }).login;
}

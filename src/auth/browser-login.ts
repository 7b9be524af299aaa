/**
 * The login by redirect as an app drives it (a browser page): {@link startRedirectLogin} before
 * the page goes to the authorization server, {@link finishRedirectLogin} on the page it comes
 * back to. Between the two, the PKCE verifier, `state`, the client and discovery wait in the
 * `auth` option's store (`SessionStorageTokenStore` survives the navigation; the memory store
 * does not). `McpClient.connect({ url, auth })` with the same options then finds the tokens;
 * with `auth.callbackUrl` the connect finishes the login itself.
 */
import type { OAuthOptions } from './auth-options.js';
import { OAuthSession } from './oauth-session.js';
import type { StoredTokens } from './token-store.js';

/** The `auth` options of a login by redirect: `redirectUri` is required. */
export type RedirectLoginOptions = OAuthOptions & { redirectUri: string };

/**
 * Starts a login by redirect to the MCP server at `serverUrl`: discovery from its well-known
 * metadata URLs, a client for `auth.redirectUri`, the pending login stored. Hands the
 * authorization URL to `auth.onAuthorizationUrl` when given (e.g. `(url) => location.assign(url)`)
 * and resolves with it. Rejects with an `OAuthError`.
 */
export async function startRedirectLogin(
  serverUrl: string | URL,
  auth: RedirectLoginOptions,
  signal?: AbortSignal,
): Promise<URL> {
  const server = new URL(serverUrl);
  const session = new OAuthSession(server, server.host, auth);
  const url = await session.startRedirect(signal);
  await auth.onAuthorizationUrl?.(url, {
    server: server.host,
    signal: signal ?? new AbortController().signal,
    redirectUri: auth.redirectUri,
    timeoutMs: auth.loginTimeoutMs ?? 300_000,
  });
  return url;
}

/**
 * Finishes the login by redirect to `serverUrl` from `callbackUrl` (`location.href` on the
 * redirect URI's page): `state` checked against the stored one, the code redeemed with the
 * stored verifier (and bound with DPoP when the server takes it), the tokens stored in
 * `auth.store`. Resolves with them (the caller should not show or log them). Rejects with an
 * `OAuthError` (step `callback` for a forged, stale, late or refused response; `token` for a
 * failed token request).
 */
export function finishRedirectLogin(
  serverUrl: string | URL,
  callbackUrl: string | URL,
  auth: RedirectLoginOptions,
  signal?: AbortSignal,
): Promise<StoredTokens> {
  const server = new URL(serverUrl);
  return new OAuthSession(server, server.host, auth).finishRedirect(callbackUrl, signal);
}

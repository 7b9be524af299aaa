/**
 * One interactive login: authorization code with PKCE S256 (RFC 7636), `state`, `resource`
 * (RFC 8707) in both requests, the loopback redirect (RFC 8252) and the `iss` check (RFC 9207,
 * done by oauth4webapi's `validateAuthResponse`). Refuses an authorization server that does not
 * list S256. The code is never sent anywhere but the token endpoint. The pieces (the checks, the
 * authorization URL, redeeming the code) are shared with the login by redirect
 * (`redirect-login.ts`); the loopback receiver is a Node part (`auth-runtime.ts`).
 */
import * as oauth from 'oauth4webapi';
import { redactUrl } from '../util/redact.js';
import { OAuthError } from './auth-error.js';
import type { OAuthOptions } from './auth-options.js';
import { clientAuthOf, clientFor, oauthCode, oauthReason } from './client-identity.js';
import { dpopHandle, withNonceRetry, type StoredDpopKey } from './dpop.js';
import { nodeAuthParts } from './auth-runtime.js';
import type { OAuthFetch } from './oauth-http.js';
import type { StoredClient, StoredTokens } from './token-store.js';

/** Default time the browser step may take. */
export const DEFAULT_LOGIN_TIMEOUT_MS = 300_000;

/** What a token request of a machine grant (client credentials, JWT bearer) needs. */
export interface TokenRequestContext {
  serverName: string;
  options: OAuthOptions;
  fetch: OAuthFetch;
  as: oauth.AuthorizationServer;
  resource: string;
  /** Scopes to request; empty means no `scope` parameter. */
  scopes: string[];
  signal?: AbortSignal | undefined;
}

/** What a login needs. */
export interface LoginContext {
  serverName: string;
  options: OAuthOptions;
  fetch: OAuthFetch;
  as: oauth.AuthorizationServer;
  resource: string;
  /** Scopes to request; empty means no `scope` parameter. */
  scopes: string[];
  storedClient: StoredClient | undefined;
  /** Bind the tokens to this key (DPoP), when the server supports it. */
  dpop?: StoredDpopKey | undefined;
  signal?: AbortSignal | undefined;
}

/** Resolves with the tokens and the client used; rejects with an {@link OAuthError}. */
export async function loginWithBrowser(context: LoginContext): Promise<{ tokens: StoredTokens; client: StoredClient }> {
  const { as, options, serverName } = context;
  const hook = options.onAuthorizationUrl;
  if (!hook) {
    throw new OAuthError(
      'the server requires an OAuth login, no stored login works, and no interactive login is possible here (the auth option has no onAuthorizationUrl hook): log in once where a browser can be opened (give onAuthorizationUrl; the login is kept in the token store), or use a machine grant (auth option "grant")',
      { server: serverName, step: 'authorization' },
    );
  }
  checkAuthorizationServer(as, serverName);
  const parts = await nodeAuthParts();
  if (!parts) {
    throw new OAuthError(
      'a login with a loopback redirect needs Node, Deno or Bun (it listens on 127.0.0.1); here, log in by redirect: give the auth option "redirectUri" (a page of this app) and finish the login from the callback URL (auth option "callbackUrl", or finishRedirectLogin)',
      { server: serverName, step: 'authorization' },
    );
  }
  const receiver = await parts.startReceiver({
    serverName,
    ...(options.callbackPort !== undefined ? { port: options.callbackPort } : {}),
    ...(options.callbackPortFixed === true ? { fixed: true } : {}),
  });
  const life = new AbortController();
  const signal = context.signal ? AbortSignal.any([context.signal, life.signal]) : life.signal;
  try {
    const client = await clientFor(
      { serverName, options, fetch: context.fetch, signal },
      as,
      receiver.redirectUri,
      context.storedClient,
    );
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = await authorizationUrl(context, client, receiver.redirectUri, verifier, state);

    const timeoutMs = options.loginTimeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS;
    const callback = receiver.wait(state, timeoutMs, signal);
    // The callback may fail (a forged state, the timeout) while the hook is still running: handled below, not unhandled
    // now.
    callback.catch(() => {});
    try {
      await hook(url, { server: serverName, signal, redirectUri: receiver.redirectUri, timeoutMs });
    } catch (error) {
      life.abort(error);
      await callback.catch(() => {});
      throw new OAuthError(
        `the authorization URL could not be handed over: ${(error as Error)?.message ?? String(error)}`,
        { server: serverName, step: 'authorization', cause: error },
      );
    }
    const params = await callback;
    const tokens = await redeemCode({ ...context, signal }, client, params, {
      state,
      verifier,
      redirectUri: receiver.redirectUri,
    });
    return { tokens, client };
  } finally {
    life.abort();
    await receiver.close();
  }
}

/**
 * Refuses an authorization server without an authorization endpoint, or that does not list PKCE
 * S256 (mandatory in MCP), with an {@link OAuthError} (step `discovery`).
 */
export function checkAuthorizationServer(as: oauth.AuthorizationServer, serverName: string): void {
  if (!as.authorization_endpoint)
    throw new OAuthError(`the authorization server ${redactUrl(as.issuer)} has no authorization endpoint`, {
      server: serverName,
      step: 'discovery',
    });
  if (!as.code_challenge_methods_supported?.includes('S256')) {
    throw new OAuthError(
      `the authorization server ${redactUrl(as.issuer)} does not advertise PKCE S256 (code_challenge_methods_supported); refusing to log in without PKCE`,
      { server: serverName, step: 'discovery' },
    );
  }
}

/** The authorization request: code, PKCE S256 from `verifier`, `state`, `resource`, the scopes. */
export async function authorizationUrl(
  context: { as: oauth.AuthorizationServer; resource: string; scopes: string[] },
  client: StoredClient,
  redirectUri: string,
  verifier: string,
  state: string,
): Promise<URL> {
  const url = new URL(context.as.authorization_endpoint!);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  url.searchParams.set('resource', context.resource);
  if (context.scopes.length > 0) url.searchParams.set('scope', context.scopes.join(' '));
  return url;
}

/** What the authorization request sent that redeeming its code needs. */
export interface SentAuthorization {
  state: string;
  verifier: string;
  redirectUri: string;
}

/**
 * The authorization response `params` checked (`state`, `iss`, an `error`: step `callback`) and
 * its code redeemed at the token endpoint (step `token`), bound with DPoP when `context.dpop`.
 */
export async function redeemCode(
  context: Pick<LoginContext, 'as' | 'serverName' | 'fetch' | 'resource' | 'scopes' | 'dpop' | 'signal'>,
  client: StoredClient,
  params: URLSearchParams,
  sent: SentAuthorization,
): Promise<StoredTokens> {
  const { as, serverName } = context;
  const oauthClient: oauth.Client = { client_id: client.clientId };
  let validated: URLSearchParams;
  try {
    validated = oauth.validateAuthResponse(as, oauthClient, params, sent.state);
  } catch (error) {
    throw new OAuthError(`the authorization response was refused: ${oauthReason(error)}`, {
      server: serverName,
      step: 'callback',
      ...oauthCode(error),
      cause: error,
    });
  }
  let result: oauth.TokenEndpointResponse;
  try {
    const DPoP = context.dpop ? await dpopHandle(context.dpop, client.clientId) : undefined;
    result = await withNonceRetry(async () => {
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        oauthClient,
        clientAuthOf(client),
        validated,
        sent.redirectUri,
        sent.verifier,
        {
          additionalParameters: { resource: context.resource },
          [oauth.customFetch]: context.fetch,
          [oauth.allowInsecureRequests]: true,
          ...(context.signal ? { signal: context.signal } : {}),
          ...(DPoP ? { DPoP } : {}),
        },
      );
      return oauth.processAuthorizationCodeResponse(as, oauthClient, response);
    });
  } catch (error) {
    throw new OAuthError(
      `the token request at ${redactUrl(as.token_endpoint ?? as.issuer)} failed: ${oauthReason(error)}`,
      { server: serverName, step: 'token', ...oauthCode(error), cause: error },
    );
  }
  return tokensOf(result, context.scopes);
}

/** A token response as stored: absolute expiry, the scopes granted (or asked for when the server did not say). */
export function tokensOf(
  result: oauth.TokenEndpointResponse,
  requested: string[],
  previousRefresh?: string,
): StoredTokens {
  const refresh = result.refresh_token ?? previousRefresh;
  const scope = result.scope ?? (requested.length > 0 ? requested.join(' ') : undefined);
  return {
    accessToken: result.access_token,
    tokenType: String(result.token_type).toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer',
    ...(refresh !== undefined ? { refreshToken: refresh } : {}),
    ...(typeof result.expires_in === 'number' ? { expiresAt: Date.now() + result.expires_in * 1000 } : {}),
    ...(scope !== undefined ? { scope } : {}),
  };
}

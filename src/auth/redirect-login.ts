/**
 * The login by redirect's first half (a browser page; no loopback receiver): the authorization
 * server checked, the client chosen for the app's `redirectUri` (pre-registered, a Client ID
 * Metadata Document, the stored registration, else Dynamic Client Registration), a PKCE verifier
 * and `state`, and the authorization URL. What finishing it needs is the {@link PendingLogin} the
 * session keeps in the store across the page's trip to the authorization server.
 */
import * as oauth from 'oauth4webapi';
import { OAuthError } from './auth-error.js';
import { authorizationUrl, checkAuthorizationServer, type LoginContext } from './authorization-code.js';
import { clientFor } from './client-identity.js';
import type { PendingLogin, StoredDiscovery } from './token-store.js';

/** What starting a login by redirect needs: a login's context, what discovery found, whether to bind with DPoP. */
export interface RedirectContext extends Omit<LoginContext, 'dpop'> {
  discovery: StoredDiscovery;
  dpop: boolean;
}

/** The authorization URL and the pending login to keep. Rejects with an {@link OAuthError}. */
export async function prepareRedirect(context: RedirectContext): Promise<{ url: URL; pending: PendingLogin }> {
  const { as, options, serverName } = context;
  const redirectUri = options.redirectUri;
  if (redirectUri === undefined)
    throw new OAuthError('a login by redirect needs the auth option "redirectUri"', {
      server: serverName,
      step: 'authorization',
    });
  checkAuthorizationServer(as, serverName);
  const client = await clientFor(
    { serverName, options, fetch: context.fetch, signal: context.signal },
    as,
    redirectUri,
    context.storedClient,
  );
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = await authorizationUrl(context, client, redirectUri, verifier, state);
  return {
    url,
    pending: {
      state,
      verifier,
      redirectUri,
      scopes: context.scopes,
      client,
      discovery: context.discovery,
      ...(context.dpop ? { dpop: true } : {}),
      startedAt: Date.now(),
    },
  };
}

/**
 * A URL server's authorization: `oauth`, OAuth discovery as a login would run it (the protected
 * resource metadata the 401 points to, then the authorization server's metadata; `auth/discovery.ts`),
 * and `login`, the stored login read from the store (present, its expiry, whether it renews itself).
 * Tokens are never shown: only their expiry and scopes.
 */
import { NotOAuthError, discover } from '../../auth/discovery.js';
import { oauthHttp } from '../../auth/oauth-http.js';
import { serverKey, type TokenStore } from '../../auth/token-store.js';
import { errorMessage, HttpError } from '../../protocol/errors.js';
import { redactUrl } from '../../util/redact.js';
import type { CheckOutcome } from './run-check.js';

/** The 401/403 behind `error` (itself, an OAuth error's refusal, or a cause), if any. */
export function refusalOf(error: unknown): HttpError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    if (current instanceof HttpError && (current.status === 401 || current.status === 403)) return current;
    const refusal = (current as { refusal?: unknown }).refusal;
    if (refusal instanceof HttpError) return refusal;
    current = current.cause;
  }
  return undefined;
}

/** The `oauth` check after `refusal` (the server's 401/403). */
export async function checkDiscovery(
  url: URL,
  name: string,
  refusal: HttpError,
  signal: AbortSignal,
): Promise<CheckOutcome> {
  const challenge = refusal.challenge?.find((c) => c.scheme === 'bearer' || c.scheme === 'dpop');
  const http = oauthHttp();
  try {
    const found = await discover(
      { serverUrl: url, serverName: name, fetch: http.fetch, signal, bearerChallenged: challenge !== undefined },
      challenge?.params.resource_metadata,
    );
    const issuer = redactUrl(found.authorizationServer.issuer);
    if (found.resourceMetadataUrl === undefined)
      return {
        verdict: 'warn',
        detail: `no protected resource metadata; ${found.fallbackAfter ? 'the 2025-03-26 default endpoints' : 'authorization server metadata'} at ${issuer}`,
        fix: 'the server follows the 2025-03-26 rules: newer clients look for /.well-known/oauth-protected-resource first',
      };
    const registration = found.authorizationServer.registration_endpoint
      ? 'dynamic registration offered'
      : 'no dynamic registration (a pre-registered oauth.clientId is needed)';
    return {
      verdict: 'ok',
      detail: `protected resource metadata at ${redactUrl(found.resourceMetadataUrl)} names ${issuer}; its metadata found (${registration})`,
    };
  } catch (error) {
    if (error instanceof NotOAuthError)
      return {
        verdict: 'fail',
        kind: 'auth',
        detail: error.reason,
        fix: 'give the server\'s credentials with "headers" or "headersHelper" in its config entry',
      };
    return {
      verdict: 'fail',
      kind: 'auth',
      detail: `OAuth discovery failed: ${errorMessage(error)}`,
      fix: 'the server or its authorization server publishes broken metadata: tell its operator',
    };
  } finally {
    await http.close();
  }
}

/**
 * The `login` check: what the store holds for `url`. `needed`: the server refused without one
 * (a missing or dead login is then a failure); `connected`: the connect with it succeeded.
 */
export async function checkLogin(
  url: URL,
  store: TokenStore,
  loginCommand: string,
  needed: boolean,
  connected: boolean,
  now = Date.now(),
): Promise<CheckOutcome> {
  const login = await store.get(serverKey(url));
  const tokens = login?.tokens;
  if (!tokens)
    return needed
      ? { verdict: 'fail', kind: 'auth', detail: 'no login stored for this server', fix: `run: ${loginCommand}` }
      : { verdict: 'skip', detail: 'no login stored; the server asked for none' };
  const scopes = tokens.scope ? `, scopes ${tokens.scope}` : '';
  const renews = tokens.refreshToken !== undefined;
  if (tokens.expiresAt === undefined) return { verdict: 'ok', detail: `logged in (no expiry given)${scopes}` };
  const at = new Date(tokens.expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (tokens.expiresAt > now)
    return {
      verdict: 'ok',
      detail: `logged in until ${at} (${Math.round((tokens.expiresAt - now) / 60_000)} min)${renews ? ', renews itself' : ''}${scopes}`,
    };
  if (renews && (connected || !needed))
    return { verdict: 'ok', detail: `the stored token expired at ${at} and renews itself${scopes}` };
  return {
    verdict: 'fail',
    kind: 'auth',
    detail: `the stored login expired at ${at}${renews ? ' and its renewal was refused' : ' and cannot renew itself'}`,
    fix: `run: ${loginCommand}`,
  };
}

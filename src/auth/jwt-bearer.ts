/**
 * Tokens for an assertion (RFC 7523 JWT-bearer grant): a workload's identity token (MCP
 * extension `io.modelcontextprotocol/auth/wif`), or an Identity Assertion JWT Authorization
 * Grant from the enterprise's identity provider (enterprise-managed authorization, SEP-990),
 * which {@link exchangeForIdJag} obtains by token exchange (RFC 8693). No browser. A refusal is
 * final: the grant is not retried and no other grant is tried.
 */
import * as oauth from 'oauth4webapi';
import { redactUrl } from '../util/redact.js';
import { OAuthError } from './auth-error.js';
import { tokensOf, type TokenRequestContext } from './authorization-code.js';
import { clientAuthOf, oauthCode, oauthReason } from './client-identity.js';
import { withOAuthHttp } from './oauth-http.js';
import type { StoredClient, StoredTokens } from './token-store.js';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Resolves with the tokens and the client used; rejects with an {@link OAuthError} (step `token`). */
export async function jwtBearerTokens(
  context: TokenRequestContext,
): Promise<{ tokens: StoredTokens; client: StoredClient }> {
  const { as, options, serverName } = context;
  if (!options.assertion || !options.client) {
    throw new OAuthError(
      'the jwt_bearer grant needs an assertion hook and a client id (auth options "assertion" and "client")',
      { server: serverName, step: 'token' },
    );
  }
  const { clientId, clientSecret } = options.client;
  const client: StoredClient = {
    issuer: as.issuer,
    clientId,
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    tokenEndpointAuthMethod:
      clientSecret === undefined ? 'none' : (options.client.tokenEndpointAuthMethod ?? 'client_secret_basic'),
    redirectUris: [],
    source: 'pre-registered',
  };
  const assertion = await options.assertion({
    issuer: as.issuer,
    tokenEndpoint: as.token_endpoint,
    resource: context.resource,
    scopes: context.scopes,
    signal: context.signal,
  });
  const oauthClient: oauth.Client = { client_id: clientId };
  const parameters: Record<string, string> = { assertion, resource: context.resource };
  if (context.scopes.length > 0) parameters.scope = context.scopes.join(' ');
  try {
    const response = await oauth.genericTokenEndpointRequest(
      as,
      oauthClient,
      clientAuthOf(client),
      JWT_BEARER,
      parameters,
      {
        [oauth.customFetch]: context.fetch,
        [oauth.allowInsecureRequests]: true,
        ...(context.signal ? { signal: context.signal } : {}),
      },
    );
    const result = await oauth.processGenericTokenEndpointResponse(as, oauthClient, response);
    return { tokens: tokensOf(result, context.scopes), client };
  } catch (error) {
    throw new OAuthError(
      `the jwt-bearer request at ${redactUrl(as.token_endpoint ?? as.issuer)} failed: ${oauthReason(error)}`,
      { server: serverName, step: 'token', ...oauthCode(error), cause: error },
    );
  }
}

/** Options of {@link exchangeForIdJag}. */
export interface IdJagRequest {
  /** The identity provider's token endpoint. */
  tokenEndpoint: string;
  /** This client's id at the identity provider. */
  clientId: string;
  clientSecret?: string;
  /** The user's ID token from the identity provider (never logged). */
  idToken: string;
  /** The authorization server the grant is for (its issuer). */
  audience: string;
  /** The MCP server (RFC 8707). */
  resource: string;
  scopes?: string[];
  signal?: AbortSignal | undefined;
}

/**
 * Exchanges an ID token at the identity provider for an Identity Assertion JWT Authorization
 * Grant (RFC 8693 token exchange, `requested_token_type` id-jag). Resolves with the ID-JAG;
 * rejects with an {@link OAuthError} (step `token`) naming the endpoint, never the tokens.
 */
export async function exchangeForIdJag(request: IdJagRequest): Promise<string> {
  const body = new URLSearchParams({
    grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
    subject_token: request.idToken,
    subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
    requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
    audience: request.audience,
    resource: request.resource,
    client_id: request.clientId,
  });
  if (request.clientSecret !== undefined) body.set('client_secret', request.clientSecret);
  if (request.scopes?.length) body.set('scope', request.scopes.join(' '));
  const where = redactUrl(request.tokenEndpoint);
  return withOAuthHttp(undefined, async (http) => {
    let response: Response;
    try {
      response = await http.fetch(request.tokenEndpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        ...(request.signal ? { signal: request.signal } : {}),
      });
    } catch (error) {
      throw new OAuthError(`the token exchange at ${where} failed: ${(error as Error).message}`, {
        step: 'token',
        url: where,
        cause: error,
      });
    }
    const answer = (await response.json().catch(() => undefined)) as
      { access_token?: unknown; error?: unknown } | undefined;
    if (response.status !== 200 || typeof answer?.access_token !== 'string') {
      const code = typeof answer?.error === 'string' ? answer.error : undefined;
      throw new OAuthError(`the token exchange at ${where} was refused: ${code ?? `HTTP ${response.status}`}`, {
        step: 'token',
        url: where,
        ...(code !== undefined ? { oauthError: code } : {}),
      });
    }
    return answer.access_token;
  });
}

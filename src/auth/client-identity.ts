/**
 * Which client id a login uses, in the spec's order of preference: pre-registered credentials;
 * a Client ID Metadata Document (the document's URL is the id) when the server supports it;
 * the stored registration when it is this issuer's and was registered for this redirect URI;
 * else Dynamic Client Registration (RFC 7591), through oauth4webapi.
 */
import * as oauth from 'oauth4webapi';
import { errorMessage } from '../protocol/errors.js';
import { base64FromText } from '../util/base64url.js';
import { redactUrl } from '../util/redact.js';
import { OAuthError } from './auth-error.js';
import type { OAuthOptions } from './auth-options.js';
import type { OAuthFetch } from './oauth-http.js';
import type { StoredClient } from './token-store.js';

/** What choosing a client needs. */
export interface IdentityContext {
  serverName: string;
  options: OAuthOptions;
  fetch: OAuthFetch;
  signal?: AbortSignal | undefined;
}

/** The client to use at `as` for `redirectUri` (registering one when needed). */
export async function clientFor(
  context: IdentityContext,
  as: oauth.AuthorizationServer,
  redirectUri: string,
  stored: StoredClient | undefined,
): Promise<StoredClient> {
  const { options } = context;
  const supported = as.token_endpoint_auth_methods_supported;
  if (options.client) {
    const { clientId, clientSecret } = options.client;
    const method =
      options.client.tokenEndpointAuthMethod ??
      (clientSecret === undefined
        ? 'none'
        : supported?.includes('client_secret_post') && !supported.includes('client_secret_basic')
          ? 'client_secret_post'
          : 'client_secret_basic');
    return {
      issuer: as.issuer,
      clientId,
      ...(clientSecret !== undefined ? { clientSecret } : {}),
      tokenEndpointAuthMethod: method,
      redirectUris: [redirectUri],
      source: 'pre-registered',
    };
  }
  if (options.clientMetadataUrl !== undefined && as.client_id_metadata_document_supported === true) {
    return {
      issuer: as.issuer,
      clientId: options.clientMetadataUrl,
      tokenEndpointAuthMethod: 'none',
      redirectUris: [redirectUri],
      source: 'metadata-document',
    };
  }
  // A registration belongs to its issuer (a migrated server means registering again) and to its redirect URIs.
  if (
    stored &&
    stored.source === 'registered' &&
    stored.issuer === as.issuer &&
    stored.redirectUris.includes(redirectUri)
  )
    return stored;
  return register(context, as, redirectUri);
}

/** The token-endpoint authentication a new registration asks for: public if allowed, else a secret. */
export function registrationAuthMethod(supported: string[] | undefined): string {
  if (supported === undefined) return 'client_secret_basic'; // RFC 8414's default
  for (const method of ['none', 'client_secret_basic', 'client_secret_post'])
    if (supported.includes(method)) return method;
  return supported[0] ?? 'none';
}

async function register(
  context: IdentityContext,
  as: oauth.AuthorizationServer,
  redirectUri: string,
): Promise<StoredClient> {
  const endpoint = as.registration_endpoint;
  if (endpoint === undefined) {
    throw new OAuthError(
      `the authorization server ${redactUrl(as.issuer)} offers no client registration and no client id is configured; give the server's pre-registered client id in the auth options (client.clientId)`,
      {
        server: context.serverName,
        step: 'registration',
        url: redactUrl(as.issuer),
      },
    );
  }
  const method = registrationAuthMethod(as.token_endpoint_auth_methods_supported);
  try {
    const response = await oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: context.options.clientName ?? 'mcpwire',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: method,
        // A page of a web app (the login by redirect) is a web client; a loopback receiver, a native one.
        application_type: context.options.redirectUri !== undefined ? 'web' : 'native',
      },
      {
        [oauth.customFetch]: context.fetch,
        [oauth.allowInsecureRequests]: true,
        ...(context.signal ? { signal: context.signal } : {}),
      },
    );
    const client = await readRegistration(response);
    const secret = typeof client.client_secret === 'string' ? client.client_secret : undefined;
    const granted =
      typeof client.token_endpoint_auth_method === 'string'
        ? client.token_endpoint_auth_method
        : secret === undefined
          ? 'none'
          : method;
    return {
      issuer: as.issuer,
      clientId: client.client_id,
      ...(secret !== undefined ? { clientSecret: secret } : {}),
      tokenEndpointAuthMethod: granted,
      redirectUris: [redirectUri],
      source: 'registered',
    };
  } catch (error) {
    throw new OAuthError(`client registration at ${redactUrl(endpoint)} failed: ${oauthReason(error)}`, {
      server: context.serverName,
      step: 'registration',
      url: redactUrl(endpoint),
      ...oauthCode(error),
      cause: error,
    });
  }
}

/**
 * The registration response (RFC 7591 §3.2.1), read leniently: oauth4webapi also insists on
 * `client_secret_expires_at` beside a secret, which servers in the field (and the suite's) omit.
 */
async function readRegistration(
  response: Response,
): Promise<{ client_id: string; client_secret?: unknown; token_endpoint_auth_method?: unknown }> {
  if (response.status !== 201 && response.status !== 200) {
    // Lets oauth4webapi turn the error body into a ResponseBodyError (error, error_description).
    await oauth.processDynamicClientRegistrationResponse(response);
    throw new Error(`HTTP ${response.status}`);
  }
  const body = (await response.json()) as { client_id?: unknown };
  if (typeof body?.client_id !== 'string' || body.client_id === '')
    throw new Error('the registration response has no client_id');
  return body as { client_id: string };
}

/** The client authentication oauth4webapi sends at the token endpoint. */
export function clientAuthOf(client: StoredClient): oauth.ClientAuth {
  if (client.clientSecret === undefined) return oauth.None();
  if (client.tokenEndpointAuthMethod === 'client_secret_post') return oauth.ClientSecretPost(client.clientSecret);
  if (client.tokenEndpointAuthMethod === 'none') return oauth.None();
  return secretBasic(client.clientSecret);
}

/**
 * `client_secret_basic` (RFC 6749 §2.3.1): id and secret form-encoded, then Base64. Written here
 * because oauth4webapi's encoder also escapes `-`, `.`, `_`, `~`, which servers that compare the
 * raw id (the suite's among them) refuse; unreserved characters need no escaping.
 */
function secretBasic(secret: string): oauth.ClientAuth {
  const encode = (value: string): string => encodeURIComponent(value).replace(/%20/g, '+');
  return (_as, client, _body, headers) => {
    headers.set('authorization', `Basic ${base64FromText(`${encode(client.client_id)}:${encode(secret)}`)}`);
  };
}

/** A short reason for an oauth4webapi failure: the server's `error` and description, never a token. */
export function oauthReason(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError)
    return `${error.error}${error.error_description ? ` (${error.error_description})` : ''}, HTTP ${error.status}`;
  if (error instanceof oauth.AuthorizationResponseError)
    return `${error.error}${error.error_description ? ` (${error.error_description})` : ''}`;
  return errorMessage(error);
}

/** `{ oauthError }` for an error the authorization server sent, else `{}`. */
export function oauthCode(error: unknown): { oauthError?: string } {
  if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError)
    return { oauthError: error.error };
  return {};
}

/**
 * Machine-to-machine tokens: the `client_credentials` grant (OAuth 2.1 §4.2; MCP extension
 * `io.modelcontextprotocol/oauth-client-credentials`) with a pre-registered client that proves
 * itself with a secret (`client_secret_basic` / `_post`) or a signed assertion
 * (`private_key_jwt`, RFC 7523, ES256 or RS256), and `resource` (RFC 8707). No browser.
 */
import * as oauth from 'oauth4webapi';
import { bytesFromBase64url } from '../util/base64url.js';
import { redactUrl } from '../util/redact.js';
import { OAuthError } from './auth-error.js';
import { tokensOf, type TokenRequestContext } from './authorization-code.js';
import { clientAuthOf, oauthCode, oauthReason } from './client-identity.js';
import type { StoredClient, StoredTokens } from './token-store.js';

/** Resolves with the tokens and the client used; rejects with an {@link OAuthError} (step `token`). */
export async function clientCredentialsTokens(
  context: TokenRequestContext,
): Promise<{ tokens: StoredTokens; client: StoredClient }> {
  const { as, options, serverName } = context;
  const configured = options.client;
  if (!configured || (configured.clientSecret === undefined && configured.privateKey === undefined)) {
    throw new OAuthError(
      'the client_credentials grant needs a pre-registered client with a secret or a private key (auth option "client")',
      { server: serverName, step: 'token' },
    );
  }
  const client: StoredClient = {
    issuer: as.issuer,
    clientId: configured.clientId,
    ...(configured.clientSecret !== undefined ? { clientSecret: configured.clientSecret } : {}),
    tokenEndpointAuthMethod:
      configured.privateKey !== undefined
        ? 'private_key_jwt'
        : (configured.tokenEndpointAuthMethod ??
          (as.token_endpoint_auth_methods_supported?.includes('client_secret_basic') === false &&
          as.token_endpoint_auth_methods_supported.includes('client_secret_post')
            ? 'client_secret_post'
            : 'client_secret_basic')),
    redirectUris: [],
    source: 'pre-registered',
  };
  let auth: oauth.ClientAuth;
  if (configured.privateKey !== undefined) {
    const alg = configured.signingAlgorithm ?? 'ES256';
    let key: Parameters<typeof oauth.PrivateKeyJwt>[0];
    try {
      key = await importPkcs8(configured.privateKey, alg);
    } catch (error) {
      throw new OAuthError(`the client's private key is not a PKCS#8 PEM ${alg} key`, {
        server: serverName,
        step: 'token',
        cause: error,
      });
    }
    auth = oauth.PrivateKeyJwt(key);
  } else {
    auth = clientAuthOf(client);
  }
  const oauthClient: oauth.Client = { client_id: client.clientId };
  const parameters: Record<string, string> = { resource: context.resource };
  if (context.scopes.length > 0) parameters.scope = context.scopes.join(' ');
  try {
    const response = await oauth.clientCredentialsGrantRequest(as, oauthClient, auth, parameters, {
      [oauth.customFetch]: context.fetch,
      [oauth.allowInsecureRequests]: true,
      ...(context.signal ? { signal: context.signal } : {}),
    });
    const result = await oauth.processClientCredentialsResponse(as, oauthClient, response);
    return { tokens: tokensOf(result, context.scopes), client };
  } catch (error) {
    throw new OAuthError(
      `the client_credentials request at ${redactUrl(as.token_endpoint ?? as.issuer)} failed: ${oauthReason(error)}`,
      { server: serverName, step: 'token', ...oauthCode(error), cause: error },
    );
  }
}

/** A PKCS#8 PEM private key for signing with `alg`, non-extractable (Web Crypto, as jose's `importPKCS8`). */
async function importPkcs8(pem: string, alg: 'ES256' | 'RS256'): Promise<oauth.CryptoKey> {
  const body = /-----BEGIN PRIVATE KEY-----([\s\S]+?)-----END PRIVATE KEY-----/.exec(pem)?.[1];
  const der =
    body === undefined
      ? undefined
      : bytesFromBase64url(body.replace(/\s+/g, '').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
  if (der === undefined) throw new TypeError('not a PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----")');
  const algorithm =
    alg === 'ES256' ? { name: 'ECDSA', namedCurve: 'P-256' } : { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  return await crypto.subtle.importKey('pkcs8', der, algorithm, false, ['sign']);
}

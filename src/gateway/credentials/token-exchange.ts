/**
 * RFC 8693 token exchange for one upstream server: the downstream caller's access token (the
 * subject token) traded at an authorization server for a token of the upstream's own audience,
 * so that the upstream sees the user, while the caller's token itself never leaves the gateway
 * but for the authorization server (MCP forbids passing a client's token through). Requests go
 * through oauth4webapi's generic grant; the authorization server is reached over HTTPS or plain
 * HTTP on loopback only. A failure rejects with an `OAuthError` (`AUTH_REQUIRED`) whose message
 * names the server and the authorization server's answer, never a token or a secret.
 */
import * as oauth from 'oauth4webapi';
import { OAuthError } from '../../auth/auth-error.js';
import { findServerMetadata } from '../../auth/discovery.js';
import { clientAuthOf, oauthCode, oauthReason } from '../../auth/client-identity.js';
import { isAcceptableEndpoint, oauthHttp, type OAuthHttp } from '../../auth/oauth-http.js';
import { McpError } from '../../protocol/errors.js';
import { redactUrl } from '../../util/redact.js';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/** How the gateway gets per-user tokens for one upstream server (`GatewayOptions.tokenExchange`). */
export interface TokenExchangeServer {
  /** The authorization server's token endpoint; or give `issuer` and it is discovered (RFC 8414 / OpenID). */
  tokenEndpoint?: string;
  issuer?: string;
  /** The gateway's client at that authorization server. */
  clientId: string;
  /** Its secret (`client_secret_basic`); without one the client is public. */
  clientSecret?: string;
  /** RFC 8693 `audience` of the token asked for. */
  audience?: string;
  /** RFC 8707 `resource` of the token asked for (default, without `audience`: the upstream's URL). */
  resource?: string;
  /** The scopes asked for (space-separated). */
  scope?: string;
}

/** An exchanged upstream token. */
export interface ExchangedToken {
  accessToken: string;
  /** When it stops being used (ms since the epoch): its `expires_in`, less a margin. */
  expiresAt: number;
}

const KEYS = new Set(['tokenEndpoint', 'issuer', 'clientId', 'clientSecret', 'audience', 'resource', 'scope']);
/** Without `expires_in`: how long an exchanged token is reused. */
const DEFAULT_LIFETIME_MS = 60_000;

/** Throws `INVALID_ARGUMENT` naming `where` and the bad key. */
export function checkTokenExchangeServer(value: unknown, where: string): asserts value is TokenExchangeServer {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new McpError('INVALID_ARGUMENT', `${where} must be an object`);
  for (const key of Object.keys(value))
    if (!KEYS.has(key)) throw new McpError('INVALID_ARGUMENT', `unknown key "${key}" in ${where}`);
  const entry = value as Record<string, unknown>;
  for (const key of KEYS)
    if (entry[key] !== undefined && (typeof entry[key] !== 'string' || entry[key] === ''))
      throw new McpError('INVALID_ARGUMENT', `${where}.${key} must be a non-empty string`);
  if (entry.clientId === undefined) throw new McpError('INVALID_ARGUMENT', `${where}.clientId is required`);
  if ((entry.tokenEndpoint === undefined) === (entry.issuer === undefined))
    throw new McpError('INVALID_ARGUMENT', `${where} needs one of "tokenEndpoint" or "issuer"`);
  for (const key of ['tokenEndpoint', 'issuer', 'resource'] as const) {
    const text = entry[key] as string | undefined;
    if (text === undefined) continue;
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new McpError('INVALID_ARGUMENT', `${where}.${key} must be an absolute URL`);
    }
    if (key !== 'resource' && !isAcceptableEndpoint(url))
      throw new McpError('INVALID_ARGUMENT', `${where}.${key} must be HTTPS (or plain HTTP on loopback)`);
  }
}

/** Exchanges subject tokens for one upstream server. `close()` ends its connections. */
export class TokenExchanger {
  private readonly http: OAuthHttp = oauthHttp();
  private metadata: Promise<oauth.AuthorizationServer> | undefined;

  /** `upstreamUrl`: the default `resource` when the options name neither `audience` nor `resource`. */
  constructor(
    private readonly server: string,
    private readonly options: TokenExchangeServer,
    private readonly upstreamUrl: string | undefined,
  ) {}

  /** The upstream token for `subjectToken`. Rejects with an `OAuthError`, or the signal's reason. */
  async exchange(subjectToken: string, signal?: AbortSignal): Promise<ExchangedToken> {
    const as = await this.authorizationServer(signal);
    const client: oauth.Client = { client_id: this.options.clientId };
    const auth = clientAuthOf({
      issuer: as.issuer,
      clientId: this.options.clientId,
      ...(this.options.clientSecret !== undefined ? { clientSecret: this.options.clientSecret } : {}),
      redirectUris: [],
      source: 'pre-registered',
    });
    const parameters: Record<string, string> = {
      subject_token: subjectToken,
      subject_token_type: ACCESS_TOKEN_TYPE,
      requested_token_type: ACCESS_TOKEN_TYPE,
    };
    const { audience, scope } = this.options;
    const resource = this.options.resource ?? (audience === undefined ? this.upstreamUrl : undefined);
    if (audience !== undefined) parameters.audience = audience;
    if (resource !== undefined) parameters.resource = resource;
    if (scope !== undefined) parameters.scope = scope;
    const started = Date.now();
    let result: oauth.TokenEndpointResponse;
    try {
      const response = await oauth.genericTokenEndpointRequest(as, client, auth, TOKEN_EXCHANGE_GRANT, parameters, {
        [oauth.customFetch]: this.http.fetch,
        [oauth.allowInsecureRequests]: true,
        ...(signal ? { signal } : {}),
      });
      result = await oauth.processGenericTokenEndpointResponse(as, client, response);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const url = redactUrl(as.token_endpoint!);
      throw new OAuthError(`the token exchange at ${url} failed: ${masked(oauthReason(error), subjectToken)}`, {
        server: this.server,
        step: 'token',
        url,
        cause: error,
        ...oauthCode(error),
      });
    }
    const lifetimeMs = typeof result.expires_in === 'number' ? result.expires_in * 1000 : DEFAULT_LIFETIME_MS;
    // Renewed a little before it runs out, so that a call does not reach the upstream with a token about to lapse.
    return { accessToken: result.access_token, expiresAt: started + lifetimeMs - Math.min(30_000, lifetimeMs / 10) };
  }

  /** Ends the connections to the authorization server. Never rejects. */
  close(): Promise<void> {
    return this.http.close().catch(() => undefined);
  }

  /** The token endpoint as given, or the issuer's metadata (discovered once; a failure is tried again next time). */
  private authorizationServer(signal?: AbortSignal): Promise<oauth.AuthorizationServer> {
    const { tokenEndpoint, issuer } = this.options;
    if (tokenEndpoint !== undefined)
      return Promise.resolve({ issuer: new URL(tokenEndpoint).origin, token_endpoint: tokenEndpoint });
    const found = (this.metadata ??= this.discover(issuer!, signal));
    found.catch(() => {
      if (this.metadata === found) this.metadata = undefined;
    });
    return found;
  }

  private async discover(issuer: string, signal?: AbortSignal): Promise<oauth.AuthorizationServer> {
    const statuses: number[] = [];
    const context = { serverUrl: new URL(issuer), serverName: this.server, fetch: this.http.fetch, signal };
    let metadata: oauth.AuthorizationServer | undefined;
    try {
      metadata = await findServerMetadata(context, issuer, false, statuses);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw error instanceof OAuthError ? this.discoveryError(error.message, error) : error;
    }
    if (!metadata)
      throw this.discoveryError(
        `no authorization server metadata at ${redactUrl(issuer)} (HTTP ${statuses.join(', ')})`,
      );
    if (typeof metadata.token_endpoint !== 'string')
      throw this.discoveryError(`the metadata of ${redactUrl(issuer)} names no token endpoint`);
    return metadata;
  }

  private discoveryError(reason: string, cause?: unknown): OAuthError {
    return new OAuthError(`the token exchange could not start: ${reason}`, {
      server: this.server,
      step: 'discovery',
      ...(cause !== undefined ? { cause } : {}),
    });
  }
}

/** `text` with `secret` masked, in case an authorization server quoted it. */
function masked(text: string, secret: string): string {
  return text.split(secret).join('***');
}

/** `GatewayOptions.tokenExchange`: the upstream servers reached as the calling user. */
export interface TokenExchangeOptions {
  /** Per server name: where and how its per-user tokens are exchanged for. */
  servers: Record<string, TokenExchangeServer>;
  /** How long a user's connection to such a server stays open without a call (default 300 000 ms). */
  idleMs?: number;
  /**
   * At most this many per-user upstream connections at once (default 100); the least recently
   * used idle one is closed to make room.
   */
  maxConnections?: number;
}

/** Throws `INVALID_ARGUMENT` naming `where` and the bad key. */
export function checkTokenExchangeOptions(value: unknown, where: string): asserts value is TokenExchangeOptions {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new McpError('INVALID_ARGUMENT', `${where} must be { servers: { NAME: { … } } }`);
  const options = value as Record<string, unknown>;
  for (const key of Object.keys(options))
    if (key !== 'servers' && key !== 'idleMs' && key !== 'maxConnections')
      throw new McpError('INVALID_ARGUMENT', `unknown key "${key}" in ${where}`);
  const servers = options.servers;
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers))
    throw new McpError('INVALID_ARGUMENT', `${where}.servers must be an object of server names`);
  for (const [name, server] of Object.entries(servers)) checkTokenExchangeServer(server, `${where}.servers.${name}`);
  for (const key of ['idleMs', 'maxConnections'] as const) {
    const number = options[key];
    if (number !== undefined && !(typeof number === 'number' && Number.isInteger(number) && number > 0))
      throw new McpError('INVALID_ARGUMENT', `${where}.${key} must be a positive integer`);
  }
}

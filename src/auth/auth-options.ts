/**
 * The `auth` option of a URL target: how mcpwire logs in to an OAuth-protected MCP server.
 */
import type { FetchLike } from './oauth-http.js';
import type { TokenStore } from './token-store.js';

/** What the assertion hook is told: where the assertion will be presented. */
export interface AssertionContext {
  /** The authorization server's issuer (the audience of an ID-JAG or a workload JWT). */
  issuer: string;
  tokenEndpoint: string | undefined;
  /** The resource the tokens are for (RFC 8707). */
  resource: string;
  scopes: string[];
  signal?: AbortSignal | undefined;
}

/** Client credentials registered beforehand with the authorization server. */
export interface PreRegisteredClient {
  clientId: string;
  /** A confidential client's secret (never logged). */
  clientSecret?: string;
  /** How to authenticate at the token endpoint (default: from the secret and the server's list). */
  tokenEndpointAuthMethod?: 'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
  /** A PKCS#8 PEM private key for `private_key_jwt` (never logged). */
  privateKey?: string;
  /** Its signing algorithm (default ES256). */
  signingAlgorithm?: 'ES256' | 'RS256';
}

/** What the authorization-URL hook is given besides the URL. */
export interface AuthorizationUrlContext {
  /** The server being logged in to (display name). */
  server: string;
  /** Aborted when the login is abandoned (timeout, close, the caller's signal). */
  signal: AbortSignal;
  /**
   * Where the authorization server sends the browser back: the loopback receiver, listening now,
   * or (the login by redirect) the auth option's `redirectUri`.
   */
  redirectUri: string;
  /** How long the receiver waits for that callback from now (ms); by redirect, how long the login may take. */
  timeoutMs: number;
}

/** Options of an OAuth login (`McpClient.connect({ url, auth })`). */
export interface OAuthOptions {
  /**
   * `authorization_code` (default): a user logs in in a browser. `client_credentials`: the
   * machine is the client (a pre-registered `client` with a secret or a private key), no browser.
   * `jwt_bearer`: tokens for an {@link OAuthOptions.assertion} (RFC 7523), no browser.
   */
  grant?: 'authorization_code' | 'client_credentials' | 'jwt_bearer';
  /**
   * `jwt_bearer`: the assertion to present (a workload identity JWT, or an ID-JAG from
   * `exchangeForIdJag`). Called for each token request; never logged.
   */
  assertion?: (context: AssertionContext) => string | Promise<string>;
  /**
   * Where logins are kept (default on Node, Deno and Bun: a `FileTokenStore` in `~/.mcpwire/oauth`;
   * elsewhere a `MemoryTokenStore`). In a browser, `SessionStorageTokenStore` keeps a login across
   * the redirect; a store of your own can use IndexedDB.
   */
  store?: TokenStore;
  /**
   * The login by redirect (a browser page, no loopback receiver): the URL of the app's page the
   * authorization server sends the browser back to (registered, or sent in registration). A login
   * is then started (the authorization URL handed to {@link OAuthOptions.onAuthorizationUrl},
   * which sends the page there, or returned by `startRedirectLogin`) and finished when the page
   * comes back, from the callback URL ({@link OAuthOptions.callbackUrl}, or
   * `finishRedirectLogin`); the PKCE verifier and `state` wait in the store meanwhile.
   */
  redirectUri?: string;
  /**
   * The login by redirect: the URL the browser came back with (`location.href` on the redirect
   * URI's page). The login under way is finished from it (its `state` checked, the verifier taken
   * from the store, the code redeemed) before the first request. A URL of a login already
   * finished is ignored when the store has its tokens.
   */
  callbackUrl?: string | URL;
  /** Pre-registered credentials; preferred over a metadata document and registration. */
  client?: PreRegisteredClient;
  /** The URL of this client's Client ID Metadata Document, used when the server supports it. */
  clientMetadataUrl?: string;
  /** The `client_name` sent when registering (default `mcpwire`). */
  clientName?: string;
  /** Scopes to ask for instead of the challenge's / the metadata's. */
  scopes?: string[];
  /** The loopback port of the redirect URI to try first (default 0: any). */
  callbackPort?: number;
  /**
   * With true, the login listens on {@link OAuthOptions.callbackPort} or fails at once naming
   * it (a port in use is an `OAuthError`, step `callback`), never on another port: for a redirect
   * URI registered beforehand or forwarded (`ssh -L`).
   */
  callbackPortFixed?: boolean;
  /** How long the browser step may take (default 300000 ms). */
  loginTimeoutMs?: number;
  /**
   * Hands the authorization URL to the user (open a browser, print it; by redirect,
   * `location.assign(url)`). Without it no interactive login is possible: a server without a
   * usable stored login fails with `AUTH_REQUIRED` saying so. May resolve at once; the login then
   * waits for the callback (by redirect: the connect fails with a `LoginRedirectError`, and the
   * page that comes back finishes it).
   */
  onAuthorizationUrl?: (url: URL, context: AuthorizationUrlContext) => void | Promise<void>;
  /** How many times a `403 insufficient_scope` may start a new login per connection (default 2). */
  maxStepUps?: number;
  /** The `fetch` for the OAuth requests (metadata, registration, tokens); default: the runtime's (undici on Node). */
  fetch?: FetchLike;
  /** Node: the undici `Dispatcher` for the OAuth requests (default: one the session owns). */
  dispatcher?: object;
}

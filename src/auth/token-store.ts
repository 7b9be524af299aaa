/**
 * What a login leaves behind, and where it is kept: tokens with an absolute expiry, the client
 * registration with the redirect URIs it was registered for, the discovery results, the DPoP key,
 * and a login by redirect that is under way (its PKCE verifier and `state`), keyed by the MCP
 * server's canonical URL. {@link MemoryTokenStore} keeps them for the process (or the page);
 * `SessionStorageTokenStore` (session-storage-store.ts) for a browser tab, across the redirect;
 * `FileTokenStore` (file-token-store.ts, Node) across processes, with a lock around each refresh.
 * A store of your own (IndexedDB, a server-side session) implements {@link TokenStore}.
 */

import type { StoredDpopKey } from './dpop.js';

/** Tokens of one server. Secrets: never logged, never in an error. */
export interface StoredTokens {
  accessToken: string;
  /** `Bearer` (or `DPoP` later). */
  tokenType: string;
  refreshToken?: string;
  /** Absolute expiry, ms since the epoch; absent when the server gave no `expires_in`. */
  expiresAt?: number;
  /** The scopes granted (or requested, when the server did not say), space-separated. */
  scope?: string;
}

/** How the client is known to the authorization server. */
export interface StoredClient {
  /** The issuer this client id belongs to: another issuer means registering again. */
  issuer: string;
  clientId: string;
  clientSecret?: string;
  /** `none`, `client_secret_basic`, `client_secret_post`. */
  tokenEndpointAuthMethod?: string;
  /** The redirect URIs it was registered with (a login on another port needs a new registration). */
  redirectUris: string[];
  /** How it came about. */
  source: 'registered' | 'pre-registered' | 'metadata-document';
}

/** What discovery found, so a refresh needs no discovery. */
export interface StoredDiscovery {
  /** The `resource` sent (RFC 8707): the metadata's, verbatim, or the server URL. */
  resource: string;
  /** The authorization server's metadata (RFC 8414), as received. */
  authorizationServer: Record<string, unknown> & { issuer: string };
  resourceMetadataUrl?: string;
}

/**
 * A login by redirect that was started and has not come back yet: what finishing it from the
 * callback URL needs. Secrets: the verifier (never logged, never in an error).
 */
export interface PendingLogin {
  /** The `state` sent: the callback must carry it. */
  state: string;
  /** The PKCE code verifier (RFC 7636). */
  verifier: string;
  redirectUri: string;
  /** The scopes asked for (empty: none). */
  scopes: string[];
  /** The client the authorization request named, and what discovery found. */
  client: StoredClient;
  discovery: StoredDiscovery;
  /** Bind the tokens with DPoP (both ends take it). */
  dpop?: boolean;
  /** When it started, ms since the epoch: a callback after the login timeout is refused. */
  startedAt: number;
}

/** Everything kept for one server. */
export interface StoredLogin {
  tokens?: StoredTokens;
  client?: StoredClient;
  discovery?: StoredDiscovery;
  /** The key DPoP-bound tokens are bound to (a secret). */
  dpopKey?: StoredDpopKey;
  /** A login by redirect under way. */
  pending?: PendingLogin;
}

/** Where logins are kept, by server key (the canonical server URL). */
export interface TokenStore {
  /** The login of `key`, or undefined. */
  get(key: string): Promise<StoredLogin | undefined>;
  /** Replaces the login of `key`. */
  set(key: string, login: StoredLogin): Promise<void>;
  /** Forgets the login of `key` (idempotent). */
  delete(key: string): Promise<void>;
  /**
   * Optional, for a store that several processes share: runs `task` while holding `key`'s lock
   * across all of them, and releases it however `task` ends. The OAuth session refreshes a login
   * under it, reading the store again first, so one process redeems a refresh token and the
   * others take what it wrote. Rejects (without running `task`) when the lock cannot be had in
   * the store's bound, or on `signal`.
   */
  lock?<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /**
   * True when the store keeps `CryptoKey` objects as they are (structured clone: memory,
   * IndexedDB): a DPoP key is then made non-extractable and kept as keys. Otherwise (a store that
   * writes JSON) it is kept as JWKs.
   */
  readonly keepsCryptoKeys?: boolean;
}

/**
 * A store for the life of the process or the page (structured copies in and out, so callers
 * cannot alias its state; DPoP keys stay non-extractable `CryptoKey`s).
 */
export class MemoryTokenStore implements TokenStore {
  readonly keepsCryptoKeys = true;
  private readonly logins = new Map<string, StoredLogin>();

  async get(key: string): Promise<StoredLogin | undefined> {
    const login = this.logins.get(key);
    return login === undefined ? undefined : structuredClone(login);
  }

  async set(key: string, login: StoredLogin): Promise<void> {
    this.logins.set(key, structuredClone(login));
  }

  async delete(key: string): Promise<void> {
    this.logins.delete(key);
  }
}

/**
 * The key of a server: its URL without fragment, lower-case scheme and host (URL does that), no trailing-slash games.
 */
export function serverKey(url: URL): string {
  const copy = new URL(url);
  copy.hash = '';
  return copy.toString();
}

/**
 * OAuth for MCP servers on every runtime (a browser page, a Worker, Node): the session a URL
 * target's `auth` option creates, the memory and `sessionStorage` token stores, the login by
 * redirect, and the errors. Nothing here imports a Node builtin; the file token store and the
 * loopback receiver are in `index.ts` (the node entry of `mcpwire/auth`).
 */
export { LoginRedirectError, OAuthError, type OAuthErrorDetails, type OAuthStep } from './auth-error.js';
export type { AssertionContext, AuthorizationUrlContext, OAuthOptions, PreRegisteredClient } from './auth-options.js';
export {
  MemoryTokenStore,
  serverKey,
  type PendingLogin,
  type StoredClient,
  type StoredDiscovery,
  type StoredLogin,
  type StoredTokens,
  type TokenStore,
} from './token-store.js';
export type { CryptoDpopKey, ExportedDpopKey, StoredDpopKey } from './dpop.js';
export {
  SessionStorageTokenStore,
  type KeyValueStorage,
  type SessionStorageTokenStoreOptions,
} from './session-storage-store.js';
export { finishRedirectLogin, startRedirectLogin, type RedirectLoginOptions } from './browser-login.js';
export { OAuthSession } from './oauth-session.js';
export { NotOAuthError } from './discovery.js';
export { exchangeForIdJag, type IdJagRequest } from './jwt-bearer.js';
export type { FetchLike } from './oauth-http.js';

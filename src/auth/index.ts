/**
 * OAuth for MCP servers (spec: basic/authorization): the session a URL target's `auth` option
 * creates, the token stores, and the errors.
 */
export { OAuthError, type OAuthErrorDetails, type OAuthStep } from './auth-error.js';
export type { AuthorizationUrlContext, OAuthOptions, PreRegisteredClient } from './auth-options.js';
export { FileTokenStore, defaultTokenDir, type FileTokenStoreOptions } from './file-token-store.js';
export {
  MemoryTokenStore,
  serverKey,
  type StoredClient,
  type StoredDiscovery,
  type StoredLogin,
  type StoredTokens,
  type TokenStore,
} from './token-store.js';
export { OAuthSession } from './oauth-session.js';
export { NotOAuthError } from './discovery.js';
export { LoopbackReceiver, type LoopbackReceiverOptions } from './loopback-receiver.js';
export { exchangeForIdJag, type IdJagRequest } from './jwt-bearer.js';
export type { AssertionContext } from './auth-options.js';

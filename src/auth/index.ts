/**
 * OAuth for MCP servers (spec: basic/authorization), the node entry of `mcpwire/auth`: everything
 * in `neutral.ts` (the session, the memory and `sessionStorage` stores, the login by redirect,
 * the errors) and the Node parts: the file token store and the loopback receiver.
 */
export * from './neutral.js';
export { FileTokenStore, defaultTokenDir, type FileTokenStoreOptions } from './file-token-store.js';
export { LoopbackReceiver, type LoopbackReceiverOptions } from './loopback-receiver.js';
import { setNodeAuthParts } from './auth-runtime.js';

// This entry is Node's: its logins default to the file store and may use the loopback receiver.
setNodeAuthParts(() => import('./node-auth-parts.js'));

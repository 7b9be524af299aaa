/**
 * Merge shim: the request link moved to `router/request-link.ts`. Re-exports what
 * `src/server/http` imports from here until its imports point there (then this file goes).
 */
export { statelessLegacy } from './router/request-link.js';
export type { LegacySession, RequestLink } from './router/request-link.js';

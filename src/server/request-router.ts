/**
 * Merge shim: the router moved to `router/`. Re-exports what `src/server/http` imports from here
 * until its imports point at `router/` (then this file goes).
 */
export { routeRequest } from './router/route-request.js';
export { claimedRevision, modernEnvelopeProblem } from './router/modern-envelope.js';
export type { ServerCore } from './router/server-core.js';

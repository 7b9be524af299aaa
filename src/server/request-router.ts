/**
 * Merge shim: the router moved to `router/`. Re-exports what `src/server/http` imports from here
 * until its imports point at `router/` (then this file goes). Its `routeRequest` answers
 * `STATE_UNAVAILABLE` as the JSON-RPC error a message transport gives (status 200), so the HTTP
 * layer written before the router rejected with it still says the store is unavailable; the HTTP
 * core that maps the rejection to 503 imports `router/route-request.ts` directly.
 */
import type { JsonRpcMessage, JsonRpcRequest } from '../protocol/jsonrpc.js';
import { routeRequest as route } from './router/route-request.js';
import type { RequestLink } from './router/request-link.js';
import type { ServerCore } from './router/server-core.js';
import { isStateUnavailable, stateUnavailableAnswer } from './state/state-unavailable.js';

export { claimedRevision, modernEnvelopeProblem } from './router/modern-envelope.js';
export type { ServerCore } from './router/server-core.js';

/** The router's `routeRequest`, resolving with the JSON-RPC error where it rejects `STATE_UNAVAILABLE`. */
export function routeRequest(core: ServerCore, request: JsonRpcRequest, link: RequestLink): Promise<JsonRpcMessage> {
  return route(core, request, link).catch((error: unknown) => {
    if (isStateUnavailable(error)) return stateUnavailableAnswer(request.id);
    throw error;
  });
}

/**
 * What the server kit keeps of one POST while its requests run (the `facts` of its
 * {@link PostRoute}): read by the router through the request's link, and after the exchange by
 * the handler, which writes the response from them.
 */
import type { AuthInfo } from '../auth-info.js';
import type { LegacySession } from '../router/request-link.js';

export interface PostFacts {
  /** The legacy session the POST's requests run in (set by `initialize`; per POST when stateless). */
  legacy: LegacySession | undefined;
  /** True when `initialize` may make a session here. */
  readonly canInitialize: boolean;
  /** The POST's token facts (a protected endpoint). */
  readonly auth: AuthInfo | undefined;
  /** True when the server may send the client requests on this POST's stream (a session, SSE). */
  readonly carriesRequests: boolean;
  /** Set when a request of the POST found the state store down (answered 503 when nothing was streamed yet). */
  unavailable: boolean;
}

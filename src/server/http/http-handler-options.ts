/**
 * The options and the public shape of the server kit's HTTP handlers (`createHttpHandler` for
 * node:http, `createFetchHandler` for `Request` → `Response`), kept apart so what a user
 * configures reads in one place.
 */
import type { HttpAuthOptions } from './auth/bearer-gate.js';
import type { CorsOptions } from './cors.js';
import type { GuardOptions } from './request-guards.js';
import type { ServerCardOptions } from './server-card.js';

/** Options of {@link createHttpHandler}. */
export interface HttpHandlerOptions extends GuardOptions {
  /** Serve only this path (e.g. `/mcp`); other paths get 404. Default: every path. */
  path?: string;
  /** Legacy sessions (`Mcp-Session-Id`); `false` serves legacy revisions statelessly. Default true. */
  sessions?: boolean;
  /** Largest request body in bytes (default 4 MiB): 413 past it. */
  maxBodyBytes?: number;
  /** Longest wait for a request body (default 30 s): 408 past it. */
  bodyTimeoutMs?: number;
  /** Longest a request may run (default 5 min): then it is aborted and answered -32603. */
  requestTimeoutMs?: number;
  /** Most legacy sessions open at once (default 1000): 503 past it. */
  maxSessions?: number;
  /** A session unused this long (default 30 min) is dropped when a new one is made. */
  sessionIdleMs?: number;
  /**
   * With an event log given in the server's `state.events`: how long this node's claim on a
   * session's POST stream holds unrenewed (default 30 s; renewed every third of it while the
   * stream runs). A client resuming a stream whose node died gets an error within this time.
   */
  streamLeaseMs?: number;
  /**
   * Most 2026 `subscriptions/listen` streams open at once (default 1000): 503 past it. A listen is
   * the one modern response that stays open; `requestTimeoutMs` does not apply to it.
   */
  maxListens?: number;
  /**
   * How long (ms) an open SSE stream may stay silent before the handler writes it a keep-alive (a
   * comment frame, which SSE clients drop): a quiet standalone GET stream or listen stream is
   * otherwise cut by whatever closes idle connections — `Bun.serve` after 10 s by default (its
   * `idleTimeout`), nginx after 60 s, load balancers. Default 8000: below Bun's 10 s, so the kit
   * works under Bun without `idleTimeout: 0`. A longer interval needs the server's and every
   * proxy's idle limit above it. `0` or `false`: no keep-alives. All streams share one timer,
   * which does not keep the process alive and which `close()` stops.
   */
  keepAliveMs?: number | false;
  /**
   * Makes the endpoint an OAuth 2.1 protected resource: its Protected Resource Metadata is served
   * (at the well-known path of `auth.resource`'s path, and the root one; outside `path`), and
   * every request needs a bearer token `auth.verifyToken` accepts (its facts in `context.auth`).
   */
  auth?: HttpAuthOptions;
  /**
   * Lets browser pages on other origins call the endpoint: preflight `OPTIONS` answered (204, or
   * 403 for an origin not listed), and every answer, streams and refusals included, names the
   * allowed origin and the headers a page may read (`Mcp-Session-Id`, `WWW-Authenticate`, …).
   * A listed origin also passes the Origin guard; one not listed is refused 403 before anything runs.
   */
  cors?: CorsOptions;
  /**
   * The MCP Server Card (SEP-2127, draft): `GET|HEAD <path>/server-card` and the catalog at
   * `/.well-known/mcp/catalog.json`, public (CORS `*`, cacheable an hour), served outside `path`
   * and before auth. Built from `serverInfo` and these fields. Default: served when the card would
   * be valid (a reverse-DNS `name` such as `com.example/weather`, and a `description`), otherwise
   * not (one warning in the server's log). Given explicitly, an invalid card throws
   * `INVALID_ARGUMENT`. `false`: never.
   */
  serverCard?: false | ServerCardOptions;
}

/** Options of {@link McpHttpHandler.close}. */
export interface HttpHandlerCloseOptions {
  /** How long calls in flight may take to finish before they are aborted (default 10 s). */
  graceMs?: number;
}

/** What both handlers have besides being called: a graceful `close` and their counts. */
export interface McpHandlerControls {
  /**
   * Refuses new requests (503), ends every `subscriptions/listen` stream with its completion
   * result, waits for the other requests in flight (at most `graceMs`), aborts what is left, and
   * ends every session and stream, and closes the token verifier's connections (`auth.verifyToken.close`).
   * Idempotent. It does not close the `http.Server`.
   */
  close(options?: HttpHandlerCloseOptions): Promise<void>;
  /** Requests being handled now, open listen streams included (standalone GET streams not). */
  readonly inFlight: number;
  /** Standalone GET streams (legacy sessions) open now. */
  readonly openStreams: number;
  /** 2026 `subscriptions/listen` streams open now. */
  readonly openListens: number;
}

/** The keys {@link HttpHandlerOptions} accepts (a handler made with any other is refused). */
export const OPTION_KEYS = new Set([
  'path',
  'sessions',
  'maxBodyBytes',
  'bodyTimeoutMs',
  'requestTimeoutMs',
  'maxSessions',
  'sessionIdleMs',
  'streamLeaseMs',
  'maxListens',
  'keepAliveMs',
  'allowedHosts',
  'allowedOrigins',
  'dnsRebindingProtection',
  'auth',
  'cors',
  'serverCard',
]);

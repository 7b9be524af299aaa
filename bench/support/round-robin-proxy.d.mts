/** The types of `round-robin-proxy.mjs` (see there). */
import { type IncomingHttpHeaders } from 'node:http';
/** A backend: its base URL (`http://127.0.0.1:PORT`), and how to kill it (e.g. a node's SIGKILL). */
export interface ProxyTarget {
  url: string;
  kill?: () => void | Promise<void>;
}
/** One backend as the proxy keeps it. */
export interface ProxyBackend {
  readonly url: string;
  /** Requests routed to it. */
  served: number;
  /** Taken out of the rotation by {@link RoundRobinProxy.kill}. */
  down: boolean;
}
/** One request the proxy routed. */
export interface ProxyRecord {
  backend: number;
  method: string;
  path: string;
  /** The request's headers as the client sent them (`mcp-session-id`, `last-event-id`, …). */
  headers: IncomingHttpHeaders;
  /** The backend's status, or 502 when it could not be reached; undefined while the head is awaited. */
  status?: number;
  /** How the exchange ended: `done`, `dropped` (by `dropNext`), `backend-lost` (mid-response), `client-gone`. */
  end?: 'done' | 'dropped' | 'backend-lost' | 'client-gone';
}
/**
 * When a drop cuts a response: after the chunk for which `when(body, record)` first holds, `body`
 * being what that response passed on while a drop was pending.
 */
export interface DropOptions {
  /** Default: the first chunk of a response body. */
  when?: (bodySoFar: string, record: ProxyRecord) => boolean;
}
export interface RoundRobinProxy {
  /** `http://127.0.0.1:PORT` (append the endpoint's path). */
  readonly url: string;
  readonly port: number;
  readonly backends: readonly ProxyBackend[];
  /** The requests routed, in arrival order (the last `logLimit` of them). */
  readonly log: readonly ProxyRecord[];
  /** Routes the next request to backend `i` (the rotation then goes on from `i + 1`). */
  sendNextTo(i: number): void;
  /**
   * Cuts the client connection of the next response (one in flight or one to come) whose body
   * meets `when`, after passing that chunk on; the request to the backend is aborted too (the
   * backend sees its client gone). Resolves with the record of the response it cut.
   */
  dropNext(options?: DropOptions): Promise<ProxyRecord>;
  /**
   * Kills backend `i` through its `kill` hook (when it has one), takes it out of the rotation
   * and cuts the client connections of the responses it was streaming.
   */
  kill(i: number): Promise<void>;
  /** Stops listening, cuts every connection, frees the agent. Idempotent. */
  close(): Promise<void>;
}
/** Options of the proxy. */
export interface ProxyOptions {
  /** Most records kept in `log` (default 10,000; the oldest go first). The `served` counts are always exact. */
  logLimit?: number;
}
/** Starts the proxy in front of `targets`; the caller closes it. */
export declare function listenRoundRobinProxy(
  targets: ReadonlyArray<string | ProxyTarget>,
  options?: ProxyOptions,
): Promise<RoundRobinProxy>;

/**
 * What the engine tells an observer, and when: the hooks a {@link JsonRpcConnection} calls where
 * a message's life starts and ends, in either role. The engine knows nothing of who listens; the
 * layer that builds a connection passes an {@link EngineTracing} (mcpwire's publishes
 * `node:diagnostics_channel` TracingChannels, `observe/`), and when it returns
 * undefined for a message, nobody listens and the engine does nothing more for it.
 *
 * Contracts:
 * - Each hook is called synchronously where the message starts: `sendingRequest` before its id's
 *   record is armed and its `send` runs, `handlingRequest` before its handler is looked up.
 * - Every trace a hook returns is ended exactly once (`settled`, `ended`), on every path
 *   (answer, error, timeout, cancel, close).
 * - A tracing must not throw; the engine does not guard it (it is mcpwire's own code).
 */
import type { JsonRpcId, JsonRpcMessage, JsonRpcRequest } from './jsonrpc.js';

/** Params of a message, as the engine sends or receives them. */
type Params = Record<string, unknown> | undefined;

/** The life of one request or notification we send. */
export interface OutboundTrace {
  /** The params to send instead of the caller's (what observers propagate rides in `_meta`). */
  readonly params: Params;
  /** Runs `send` (the transport's send) in the observers' context; returns what it returns. */
  run<T>(send: () => T): T;
  /** The request was answered (`result`) or failed (`error`); a notification was written or not. */
  settled(result: Record<string, unknown> | undefined, error: unknown): void;
}

/** The life of one request or notification of the peer that we handle. */
export interface InboundTrace {
  /** Runs the handler in the observers' context; returns what it returns. */
  run<T>(handler: () => T): T;
  /**
   * Handling ended: `answer` is what was sent back (a response or an error response), or
   * undefined when nothing was (a notification; a request cancelled, or cut by the connection's
   * end, whose reason is `error`).
   */
  ended(answer: JsonRpcMessage | undefined, error: unknown): void;
}

/** The life of one connection, from its construction to its shutdown. */
export interface SessionTrace {
  /** The connection is going down (`error` when that is a failure, not a close by either side). */
  ended(error: unknown): void;
}

/** An observer of one connection's messages; see the file's contracts. */
export interface EngineTracing {
  /** A request of ours is about to go out; undefined when nobody listens. */
  sendingRequest(method: string, id: JsonRpcId, params: Params): OutboundTrace | undefined;
  /** A notification of ours is about to go out; undefined when nobody listens. */
  sendingNotification(method: string, params: Params): OutboundTrace | undefined;
  /** A request of the peer is about to be handled; undefined when nobody listens. */
  handlingRequest(request: JsonRpcRequest): InboundTrace | undefined;
  /** A notification of the peer is about to be handled; undefined when nobody listens. */
  handlingNotification(method: string, params: Params): InboundTrace | undefined;
  /** The connection was built; undefined when nobody listens (or it is no session of its own). */
  opened(): SessionTrace | undefined;
}

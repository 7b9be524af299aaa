/**
 * The contract between a connection and the pipe under it. A transport moves whole messages and
 * closes; it knows nothing of ids, timeouts, capabilities or what a method means. Implementations
 * live in `src/transport`; the interface lives here so that the connection can depend on it
 * without importing a layer above.
 */
import type { McpError } from './errors.js';
import type { JsonRpcId, JsonRpcMessage } from './jsonrpc.js';
import type { SendSignal } from './send-signal.js';

/** Removes a registration. Calling it more than once is harmless. */
export type Disposer = () => void;

/** Options for one {@link Transport.send}. */
export interface SendOptions {
  /**
   * The signal of the request this message belongs to, given when the connection was built with
   * `requestSignals` (the client does so for transports with a channel per request). A transport
   * that maps a request to its own channel (an HTTP POST) aborts that channel when the signal
   * fires; others ignore it. A {@link SendSignal} (cheaper than an AbortSignal; `asAbortSignal()`
   * gives a real one for an API that needs it).
   */
  signal?: SendSignal;
  /**
   * Extra headers of this one message (2026 Streamable HTTP: a tool call's `Mcp-Param-*`
   * headers); transports without headers ignore them.
   */
  headers?: Record<string, string>;
  /**
   * The peer's request this message belongs to (a notification or request a server sends while
   * it handles that request). A transport with a channel per request (the server's side of
   * Streamable HTTP: one response stream per POST) sends it there; others ignore it.
   */
  relatedRequestId?: JsonRpcId;
}

/** Why a transport closed. `error` is absent for a close the client asked for. */
export interface CloseInfo {
  error?: McpError;
}

/** Something the transport noticed that is not a message and not fatal (junk on stdout, an oversize line). */
export interface TransportDiagnostic {
  kind: 'invalid-json' | 'oversize' | 'invalid-message' | 'late-response' | (string & {});
  message: string;
  /** The offending text, truncated. */
  sample?: string;
  /**
   * `oversize` only, from a transport whose messages share one channel (stdio, the HTTP+SSE stream):
   * the first characters of the dropped message (at most `MESSAGE_HEAD_CHARS`, message-head.ts).
   * The transport knows no ids; the connection reads the head and fails the request the message
   * answered, or, for a response whose id is past the head, every pending request (see
   * `JsonRpcConnection`). A
   * transport that fails the request itself (Streamable HTTP, one stream per request) sends none.
   */
  head?: string;
  /** `oversize` only: the size limit that was passed (`maxMessageBytes`), in bytes. */
  limit?: number;
  /** `oversize` only: the dropped message's size in bytes, when the transport knows it. */
  size?: number;
}

/**
 * A bidirectional pipe of whole JSON-RPC messages. It knows no ids, methods or sessions; what
 * varies per kind of transport (a process id, an HTTP session) lives on the concrete classes,
 * which the layer that built them holds.
 */
export interface Transport {
  /**
   * Writes one message. Returns nothing when the message was written synchronously (the stdio
   * fast path: no promise per message); otherwise a promise that resolves when the message is
   * handed to the OS or accepted by the peer (HTTP). Failures are a rejected promise with a
   * `TRANSPORT` or `CONNECTION_CLOSED` McpError, never a throw.
   */
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void> | void;
  /**
   * Registers the receiver of inbound decoded JSON values (one message, or a batch array).
   * A transport buffers what arrives before the first receiver registers. Returns a disposer.
   */
  onMessage(listener: (value: unknown) => void): Disposer;
  /** Registers a receiver of non-fatal diagnostics. Returns a disposer. */
  onDiagnostic(listener: (diagnostic: TransportDiagnostic) => void): Disposer;
  /** Graceful close; idempotent; resolves once the pipe is fully down (process exited, sockets closed). */
  close(): Promise<void>;
  /**
   * Immediate stop, without the goodbyes of {@link close} (no stdin EOF wait, no session DELETE):
   * everything in flight is aborted and every resource released. Synchronous and safe at any
   * time, also during or after close(). `closed` resolves with `reason` (no error when absent),
   * unless it had resolved already.
   */
  destroy(reason?: McpError): void;
  /** Resolves (never rejects) once the transport is closed, for whatever reason. */
  readonly closed: Promise<CloseInfo>;
}

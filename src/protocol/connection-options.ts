/**
 * Options and callback types of {@link JsonRpcConnection}, and its default timeouts.
 */
import type { DeadlineSet } from './deadline-set.js';
import type { EngineTracing } from './engine-tracing.js';
import type { JsonRpcId } from './jsonrpc.js';
import { optionKeys } from './option-keys.js';
import type { TransportDiagnostic } from './transport.js';
import type { ProgressParams } from './types.js';

/** Default idle timeout of a request: 30 s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Default hard cap of a request whose idle timer progress keeps resetting: 10 min. */
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 600_000;

/** Per-request options. */
export interface RequestOptions {
  /** Aborting rejects the request with `CANCELLED` (cause: the signal's reason) and sends a cancel notice. */
  signal?: AbortSignal;
  /** Idle timeout in ms: reset by every progress notification for this request. `Infinity` disables it. */
  timeoutMs?: number;
  /** Hard cap in ms from the moment the request is sent; progress never extends it. */
  maxTotalTimeoutMs?: number;
  /** Whether progress resets the idle timer (default true; works with or without `onProgress`). */
  resetTimeoutOnProgress?: boolean;
  /** Receives this request's progress notifications. Implies a progress token is sent. */
  onProgress?: (progress: ProgressParams) => void;
  /** Ask the server for progress (send `_meta.progressToken`) even without `onProgress`. */
  trackProgress?: boolean;
  /** Send `notifications/cancelled` when this request times out or is aborted (default true). */
  sendCancelNotice?: boolean;
  /**
   * Extra headers of this one request, handed to the transport with its `send` (2026 Streamable
   * HTTP: the `Mcp-Param-*` headers of a tool call); transports without headers ignore them.
   */
  headers?: Record<string, string>;
  /**
   * The peer's request this one serves (a server's elicitation during a tool call), handed to the
   * transport with its `send`, so a transport with a channel per request sends it there.
   */
  relatedRequestId?: JsonRpcId;
}

/** The keys {@link RequestOptions} accepts (a request with any other key is refused). */
export const REQUEST_OPTION_KEYS = optionKeys<RequestOptions>(
  'request options',
  {
    signal: true,
    timeoutMs: true,
    maxTotalTimeoutMs: true,
    resetTimeoutOnProgress: true,
    onProgress: true,
    trackProgress: true,
    sendCancelNotice: true,
    headers: true,
    relatedRequestId: true,
  },
  { abortSignal: 'signal', timeout: 'timeoutMs', idleTimeoutMs: 'timeoutMs', progress: 'onProgress' },
);

/** Receives the params of one inbound notification. */
export type NotificationHandler = (params: Record<string, unknown> | undefined, method: string) => void;

/** Options of a connection. */
export interface ConnectionOptions {
  /** The peer's display name, used in every error message (default: `server` or `client`, the peer's role). */
  name?: string;
  /**
   * Ids of our requests are this prefix and a number (a string: `s1`, `s2`, …) instead of bare
   * numbers, so they never look like the peer's ids in a transcript (the server role uses `s`).
   */
  idPrefix?: string;
  /** Which side this end plays (default `client`); words its errors and cancel reasons. */
  role?: 'client' | 'server';
  /**
   * Answer what cannot be handled with the JSON-RPC error the spec gives (-32700 for junk,
   * -32600 for an invalid message, an empty batch, a message too large), as a server must
   * (default false: a client only reports them as diagnostics).
   */
  answerMalformed?: boolean;
  /**
   * The role's batch gate: given an inbound JSON-RPC batch, the message of the -32600 error that
   * refuses it as a whole (none of it runs; the revision has no batches), or undefined to serve it.
   */
  batchGate?: (items: readonly unknown[]) => string | undefined;
  /**
   * How long an inbound request may run before its handler's signal aborts (`TIMEOUT`) and it is
   * answered -32603 (default: no limit).
   */
  inboundTimeoutMs?: number;
  /** One set of deadlines shared with other connections for {@link inboundTimeoutMs} (one timer for all). */
  inboundDeadlines?: DeadlineSet;
  /** Idle timeout of requests that give none (default 30 s). */
  defaultTimeoutMs?: number;
  /** Hard cap of requests that give none (default 10 min). */
  maxTotalTimeoutMs?: number;
  /**
   * Give each request's `send` a signal of its own, aborted when the connection gives up on the
   * request (timeout, abort, oversize answer, close), so a transport with a channel per request
   * (Streamable HTTP: the POST and its response stream) releases it at once. Set by the layer
   * that built the transport and knows its kind (default false: no signal, no allocation).
   */
  requestSignals?: boolean;
  /** How an abandoned request is cancelled; see {@link CancelNotices}. Changeable later with `setCancelNotices`. */
  cancelNotices?: CancelNotices;
  /**
   * Who is told where each message's life starts and ends (mcpwire's diagnostics channels, given
   * by the layer that builds the connection and knows its facts). Default: nobody.
   */
  tracing?: EngineTracing;
}

/**
 * `send`: a `notifications/cancelled` goes to the peer (the default). `abort-only`: aborting the
 * request's send signal is the whole cancellation (2026 Streamable HTTP, where closing the
 * request's stream is the cancel); it implies a signal per request.
 */
export type CancelNotices = 'send' | 'abort-only';

/** A connection-level diagnostic: the transport's, or one the connection noticed itself. */
export type ConnectionDiagnostic = TransportDiagnostic;

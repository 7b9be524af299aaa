/**
 * What mcpwire's diagnostics channels carry: the public contract of `docs/observability.md`. Every
 * event object is one message's (or one connection's) whole life: the same object goes through a
 * TracingChannel's `start`, `end`, `error` (when it failed), `asyncStart` and `asyncEnd`, and its
 * fields are filled in as that life goes on. Subscribers read facts; they never parse messages.
 */
import type { JsonRpcId, JsonRpcMessage } from '../protocol/jsonrpc.js';

/** How messages travel on a connection. */
export type McpTransportKind = 'stdio' | 'http' | 'sse' | 'memory';

/**
 * The facts of one connection, live: read them when needed (the revision and the session id are
 * known only after the handshake; a server's HTTP facts are those of the POST being served).
 */
export interface McpConnectionFacts {
  /** Which side this process plays on the connection. */
  readonly role: 'client' | 'server';
  /** The peer's display name: the server's (config name, command or host) on a client; `client` on a server. */
  readonly peer: string;
  readonly transport: McpTransportKind;
  /** The negotiated revision (legacy) or the one the latest modern request carried; undefined before. */
  readonly protocolVersion: string | undefined;
  /** The legacy Streamable HTTP session (`Mcp-Session-Id`); undefined elsewhere. */
  readonly sessionId: string | undefined;
  /** The server's host and port (HTTP; a client's view, or the listener on a server). */
  readonly serverAddress: string | undefined;
  readonly serverPort: number | undefined;
  /** The client's address and port (a server's view of the POST being served). */
  readonly clientAddress: string | undefined;
  readonly clientPort: number | undefined;
}

/** What every message event carries. */
export interface McpMessageEvent {
  readonly connection: McpConnectionFacts;
  readonly method: string;
  /** The message's params as sent or received (do not change them). */
  readonly params: Record<string, unknown> | undefined;
  /** `tools/call`'s tool. */
  readonly toolName: string | undefined;
  /** `prompts/get`'s prompt. */
  readonly promptName: string | undefined;
  /** The resource of `resources/read|subscribe|unsubscribe` and `notifications/resources/updated`. */
  readonly resourceUri: string | undefined;
  /** This message's revision: its 2026-07-28 `_meta` revision, else the connection's. */
  readonly protocolVersion: string | undefined;
}

/** `mcpwire:send-request`: a request this process sends (a client's call; a server's elicitation). */
export interface McpSendRequestEvent extends McpMessageEvent {
  readonly id: JsonRpcId;
  /**
   * Propagation fields: a subscriber of `start` may set string entries here (`traceparent`,
   * `tracestate`, `baggage`); they ride in the request's `params._meta`, over any of the same name.
   */
  readonly meta: Record<string, string>;
  /** The result, once answered. */
  result?: Record<string, unknown>;
  /** Why it failed, once it did: an `McpError` (`SERVER_ERROR` with `rpcCode`, `TIMEOUT`, `CANCELLED`, …). */
  error?: unknown;
}

/** `mcpwire:send-notification`: a notification this process sends. */
export interface McpSendNotificationEvent extends McpMessageEvent {
  /** Propagation fields, as on {@link McpSendRequestEvent.meta}. */
  readonly meta: Record<string, string>;
  /** Why it could not be written, if it could not. */
  error?: unknown;
}

/** `mcpwire:handle-request`: a request of the peer this process handles. */
export interface McpHandleRequestEvent extends McpMessageEvent {
  readonly id: JsonRpcId;
  /** The request's `params._meta` as received (where `traceparent` arrives), if any. */
  readonly meta: Record<string, unknown> | undefined;
  /** What was sent back (a response or an error response), once it was. */
  answer?: JsonRpcMessage;
  /** Why nothing was sent back (the peer cancelled it, the connection ended), when nothing was. */
  error?: unknown;
}

/** `mcpwire:handle-notification`: a notification of the peer this process handles. */
export interface McpHandleNotificationEvent extends McpMessageEvent {
  /** The notification's `params._meta` as received, if any. */
  readonly meta: Record<string, unknown> | undefined;
}

/**
 * `mcpwire:session`: one connection's life (a client's connection to a server; a server's stdio
 * session or legacy HTTP session). `start` when it is built, `asyncEnd` when it ends.
 */
export interface McpSessionEvent {
  readonly connection: McpConnectionFacts;
  /** Why it ended, when that was a failure (the transport broke, the peer crashed). */
  error?: unknown;
}

/**
 * `mcpwire:gateway-forward`: one downstream call a gateway forwards to an upstream (a tool call,
 * a prompt get, a resource read), published inside the handling of the downstream request and
 * around the upstream call (so the upstream request's `send-request` life lies within it). Audit
 * facts only: never a token, a secret or an argument.
 */
export interface McpGatewayForwardEvent {
  /** The upstream server's configured name. */
  readonly server: string;
  /** The upstream method: `tools/call`, `prompts/get` or `resources/read`. */
  readonly method: string;
  /** The upstream's own name of the tool or prompt, or its own URI of the resource. */
  readonly target: string;
  /** Who asked: the verified token's subject, else its OAuth client id; undefined without a bearer check. */
  readonly principal: string | undefined;
  /** Why the upstream call failed, when it did. */
  error?: unknown;
}

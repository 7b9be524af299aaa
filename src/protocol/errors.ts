/**
 * The one error root of mcpwire. Every error mcpwire throws or rejects with is an {@link McpError}
 * whose `code` is a stable string; errors the peer sent keep their numeric JSON-RPC code in
 * `rpcCode`, their message untouched in `rpcMessage` and their `data` in `data`.
 */

/** Stable string codes. Match on these, never on messages. */
export type McpErrorCode =
  /** The request got no answer within its timeout (or its hard cap). */
  | 'TIMEOUT'
  /** The caller aborted the request through its AbortSignal. */
  | 'CANCELLED'
  /** The transport closed (server exited, pipe broke, client closed) while the request was pending. */
  | 'CONNECTION_CLOSED'
  /** The server did not advertise the capability the method needs; nothing was sent. */
  | 'CAPABILITY_MISSING'
  /** The peer broke the protocol: a malformed message, an impossible result, a failed handshake. */
  | 'PROTOCOL'
  /** The transport failed to move bytes (write error, oversize frame, I/O error). */
  | 'TRANSPORT'
  /** The server process could not be started (ENOENT, EACCES, …). */
  | 'SPAWN_FAILED'
  /** The peer answered with a JSON-RPC error; see `rpcCode` and `data`. */
  | 'SERVER_ERROR'
  /** No protocol revision both sides support. */
  | 'VERSION_UNSUPPORTED'
  /** A tool result's `structuredContent` does not match the tool's `outputSchema`. */
  | 'OUTPUT_SCHEMA_MISMATCH'
  /** A list walk passed its page cap (a server that never stops paginating). */
  | 'PAGINATION_LIMIT'
  /** A multi-round-trip request passed its round cap. */
  | 'INPUT_ROUNDS_EXCEEDED'
  /** The server asked for input (sampling, elicitation, roots) the client has no handler for. */
  | 'INPUT_UNSUPPORTED'
  /** An operation was called in a state that does not allow it (e.g. after close). */
  | 'INVALID_STATE'
  /** An argument was out of range or malformed. */
  | 'INVALID_ARGUMENT'
  /** A configuration file or object is invalid. */
  | 'CONFIG_INVALID'
  /** The server needs credentials (HTTP 401/403). */
  | 'AUTH_REQUIRED'
  /** A permission rule (or the user, asked) refused a tool call; nothing was sent. */
  | 'PERMISSION_DENIED';

/** Extra fields an {@link McpError} may carry. */
export interface McpErrorDetails {
  /** The underlying error. */
  cause?: unknown;
  /** The server's display name (config name, command or URL). */
  server?: string;
  /** The JSON-RPC method involved. */
  method?: string;
  /** The numeric JSON-RPC error code the peer sent (only for `SERVER_ERROR`, or a modern-era error). */
  rpcCode?: number;
  /** The `message` of the peer's JSON-RPC error, untouched (only for `SERVER_ERROR`). */
  rpcMessage?: string;
  /** The `data` of the peer's JSON-RPC error, untouched. */
  data?: unknown;
}

/**
 * The error root. `message` names the server and the method where known, e.g.
 * `server "fs": tools/call timed out after 30000 ms`.
 */
export class McpError extends Error {
  override readonly name = 'McpError';
  readonly code: McpErrorCode;
  readonly server: string | undefined;
  readonly method: string | undefined;
  readonly rpcCode: number | undefined;
  /**
   * `SERVER_ERROR`: the peer's own error message, whole and untouched, however long; our
   * `message` quotes at most 500 characters of it, so logs and displays stay bounded. Not part of
   * {@link toJSON} for the same reason.
   */
  readonly rpcMessage: string | undefined;
  readonly data: unknown;

  constructor(code: McpErrorCode, message: string, details: McpErrorDetails = {}) {
    super(prefix(details.server, details.method) + message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.server = details.server;
    this.method = details.method;
    this.rpcCode = details.rpcCode;
    this.rpcMessage = details.rpcMessage;
    this.data = details.data;
  }

  /** The JSON form used by `--json` output and traces: code, message and the optional fields. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { code: this.code, message: this.message };
    if (this.server !== undefined) out.server = this.server;
    if (this.method !== undefined) out.method = this.method;
    if (this.rpcCode !== undefined) out.rpcCode = this.rpcCode;
    if (this.data !== undefined) out.data = this.data;
    return out;
  }
}

function prefix(server: string | undefined, method: string | undefined): string {
  if (server !== undefined && method !== undefined) return `server "${server}": ${method} `;
  if (server !== undefined) return `server "${server}": `;
  if (method !== undefined) return `${method} `;
  return '';
}

/** True when `value` is an {@link McpError}, optionally with the given code. */
export function isMcpError(value: unknown, code?: McpErrorCode): value is McpError {
  return value instanceof McpError && (code === undefined || value.code === code);
}

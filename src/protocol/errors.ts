/**
 * The one error root of mcpwire. Every error mcpwire throws or rejects with is an {@link McpError}
 * whose `code` is a stable string. Three kinds of fact are kept apart:
 * - the context: `server`, `method`, and `reason`, the bare text of what went wrong; `message`
 *   is formatted from them (`server "fs": tools/call timed out after 30000 ms`), so nothing ever
 *   strips a prefix to get the reason back;
 * - the peer's facts, untouched: its numeric JSON-RPC code in `rpcCode`, its message in
 *   `rpcMessage`, its `data` in `data` (never anything of ours);
 * - what we know locally (an HTTP status, a URL, a size limit, a config file): typed fields of
 *   the subclasses {@link HttpError}, {@link SizeLimitError} and {@link ConfigError} (here, so
 *   every layer can throw them), `PermissionError` (manager) and `OutputSchemaError` (client).
 * Each subclass keeps a stable `code`; match on `code`, or on the class for its fields.
 */
import type { AuthChallenge } from '../util/auth-challenge.js';

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
  /** The runtime lacks what the call needs (a stdio server where no process can be started: browsers, Workers). */
  | 'UNSUPPORTED'
  /** A configuration file or object is invalid. */
  | 'CONFIG_INVALID'
  /**
   * A library that only some commands need (an optional peer dependency, such as
   * json-schema-to-typescript for `mcpwire emit-ts`) is not installed: `MissingDependencyError`
   * names it and the `npm install` to run.
   */
  | 'DEPENDENCY_MISSING'
  /** The server needs credentials (HTTP 401/403). */
  | 'AUTH_REQUIRED'
  /** A permission rule (or the user, asked) refused a tool call; nothing was sent. */
  | 'PERMISSION_DENIED'
  /** A server kit tool handler failed on purpose (`ToolError`, src/server): its own code is `toolCode`. */
  | 'TOOL_ERROR'
  /** A server kit resource read found nothing at the URI (`ResourceNotFoundError`, src/server). */
  | 'RESOURCE_NOT_FOUND'
  /**
   * A skill file (or its entry) failed verification against what the server listed: an unlisted
   * file, a size or digest that differs, a `SKILL.md` whose frontmatter differs from its entry, a
   * limit passed (`SkillVerificationError`, src/client/skills). Its bytes were never returned.
   */
  | 'SKILL_REJECTED'
  /**
   * The server kit's shared state (a session, task or event store) could not be reached; the
   * request may be retried (HTTP answers 503 with `Retry-After`). Its message names no internals.
   */
  | 'STATE_UNAVAILABLE';

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
  /** The `data` of the peer's JSON-RPC error, untouched. Never a fact of ours: those are typed fields of a subclass. */
  data?: unknown;
}

/**
 * The error root. `reason` is the bare reason (`timed out after 30000 ms`); `message` adds the
 * server and the method where known: `server "fs": tools/call timed out after 30000 ms`.
 */
export class McpError extends Error {
  override readonly name: string = 'McpError';
  readonly code: McpErrorCode;
  /** What went wrong, without the server and method that `message` puts in front of it. */
  readonly reason: string;
  readonly server: string | undefined;
  readonly method: string | undefined;
  readonly rpcCode: number | undefined;
  /**
   * `SERVER_ERROR`: the peer's own error message, whole and untouched, however long; our
   * `message` quotes at most 500 characters of it, so logs and displays stay bounded. Not part of
   * {@link toJSON} for the same reason.
   */
  readonly rpcMessage: string | undefined;
  /**
   * What the peer sent with the failure, untouched: the `data` of its JSON-RPC error (for a
   * workflow step's `isError` tool result, that result). Never a fact of ours: those are typed
   * fields of a subclass.
   */
  readonly data: unknown;

  constructor(code: McpErrorCode, reason: string, details: McpErrorDetails = {}) {
    super(
      prefix(details.server, details.method) + reason,
      details.cause === undefined ? undefined : { cause: details.cause },
    );
    this.code = code;
    this.reason = reason;
    this.server = details.server;
    this.method = details.method;
    this.rpcCode = details.rpcCode;
    this.rpcMessage = details.rpcMessage;
    this.data = details.data;
  }

  /**
   * The JSON form used by `--json` output and traces: code, message, the optional fields and a
   * subclass's typed facts (bounded). Never `rpcMessage` (unbounded peer text; `message` quotes it).
   */
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

/**
 * The text of anything thrown: an Error's `message`, otherwise `String(value)`. Never throws (a
 * value whose `toString` throws gives its tag, `[object Object]`).
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}

// ---- typed local facts ----

/**
 * Whether a message that failed over HTTP may be sent again:
 * - `unsent`: the server never got it (no connection could be made); any method may be re-sent;
 * - `if-idempotent`: it was sent and the response stream broke before the answer: the server
 *   may have run it, so only methods without side effects may be re-sent;
 * - `never`: do not re-send (the server answered it with a failure, or nothing says it is safe).
 */
export type ResendPolicy = 'unsent' | 'if-idempotent' | 'never';

/** The fields of an {@link HttpError}. */
export interface HttpErrorDetails extends Omit<McpErrorDetails, 'rpcCode' | 'rpcMessage' | 'data'> {
  /** The URL of the exchange, credentials redacted. */
  url: string;
  status?: number;
  challenge?: readonly AuthChallenge[];
  body?: string;
  unreachable?: boolean;
  resend?: ResendPolicy;
  dpopNonce?: string;
}

/** Codes an {@link HttpError} has. */
export type HttpErrorCode = Extract<McpErrorCode, 'TRANSPORT' | 'AUTH_REQUIRED' | 'CONNECTION_CLOSED' | 'PROTOCOL'>;

/**
 * An HTTP exchange failed: `AUTH_REQUIRED` for a 401/403, `TRANSPORT` for another status, a
 * network failure or a response that broke the rules. The message names the URL; no field ever
 * holds a credential (URLs are redacted, configured header values scrubbed).
 */
export class HttpError extends McpError {
  override readonly name: string = 'HttpError';
  declare readonly code: HttpErrorCode;
  /** The URL of the exchange, credentials redacted. */
  readonly url: string;
  /** The response status, when a response came. */
  readonly status: number | undefined;
  /**
   * A 401/403's `WWW-Authenticate` challenges, parsed (RFC 9110 §11.6.1), e.g. `bearer` with
   * `resource_metadata`, `scope` and `error`; absent when the server sent none.
   */
  readonly challenge: readonly AuthChallenge[] | undefined;
  /** A bounded quote of the error response's body (the JSON-RPC error text when it is one). */
  readonly body: string | undefined;
  /**
   * True when no HTTP response came at all: connection refused, no such host, a TLS failure or a
   * reset before the status line (and a broken stream whose server then refused the reconnect).
   */
  readonly unreachable: boolean;
  /** Whether the message may be sent again; see {@link ResendPolicy}. */
  readonly resend: ResendPolicy;
  /** A 401's `DPoP-Nonce` header (RFC 9449 §9): the nonce the next DPoP proof must carry. */
  readonly dpopNonce: string | undefined;

  constructor(code: HttpErrorCode, reason: string, details: HttpErrorDetails) {
    super(code, reason, details);
    this.url = details.url;
    this.status = details.status;
    this.challenge = details.challenge;
    this.body = details.body;
    this.unreachable = details.unreachable ?? false;
    this.resend = details.resend ?? 'never';
    this.dpopNonce = details.dpopNonce;
  }

  override toJSON(): Record<string, unknown> {
    const out = super.toJSON();
    out.url = this.url;
    if (this.status !== undefined) out.status = this.status;
    if (this.challenge !== undefined) out.challenge = this.challenge;
    if (this.body !== undefined) out.body = this.body;
    out.unreachable = this.unreachable;
    out.resend = this.resend;
    if (this.dpopNonce !== undefined) out.dpopNonce = this.dpopNonce;
    return out;
  }
}

/**
 * `TRANSPORT`, status 404: a legacy Streamable HTTP session is gone (the server answered 404 to a
 * request that carried its `Mcp-Session-Id`). The server never ran the message (`resend:
 * 'unsent'`). The transport has forgotten the session id; whoever owns the session (the client)
 * establishes a new one (`initialize`, `notifications/initialized`) and sends the message again.
 * Recognise it with `instanceof SessionExpiredError`.
 */
export class SessionExpiredError extends HttpError {
  override readonly name: string = 'SessionExpiredError';
  declare readonly code: 'TRANSPORT';
  declare readonly resend: 'unsent';

  constructor(reason: string, details: Omit<HttpErrorDetails, 'status' | 'resend' | 'unreachable' | 'challenge'>) {
    super('TRANSPORT', reason, { ...details, status: 404, resend: 'unsent' });
  }
}

/** The fields of a {@link SizeLimitError}. */
export interface SizeLimitErrorDetails extends Omit<McpErrorDetails, 'rpcCode' | 'rpcMessage' | 'data'> {
  limit: number;
  size?: number;
  url?: string;
}

/**
 * `TRANSPORT`: a message was larger than `maxMessageBytes` and was not read (stdio, Streamable
 * HTTP, HTTP+SSE). The request it answered fails with this; it is never re-sent (the same answer
 * would be dropped again).
 */
export class SizeLimitError extends McpError {
  override readonly name: string = 'SizeLimitError';
  declare readonly code: 'TRANSPORT';
  /** The limit that was passed, in bytes. */
  readonly limit: number;
  /** The message's size in bytes, when known (a stream is dropped once past the limit). */
  readonly size: number | undefined;
  /** The option that sets the limit. */
  readonly option = 'maxMessageBytes' as const;
  /** The URL the message came from (HTTP), credentials redacted. */
  readonly url: string | undefined;

  constructor(reason: string, details: SizeLimitErrorDetails) {
    super('TRANSPORT', reason, details);
    this.limit = details.limit;
    this.size = details.size;
    this.url = details.url;
  }

  override toJSON(): Record<string, unknown> {
    const out = super.toJSON();
    out.limit = this.limit;
    if (this.size !== undefined) out.size = this.size;
    out.option = this.option;
    if (this.url !== undefined) out.url = this.url;
    return out;
  }
}

/** The fields of a {@link ConfigError}. */
export interface ConfigErrorDetails extends Pick<McpErrorDetails, 'cause' | 'server'> {
  file?: string;
  field?: string;
  variable?: string;
  line?: number;
  column?: number;
}

/**
 * `CONFIG_INVALID`: a config file, entry or server definition is wrong. `reason` is the bare
 * problem; `message` puts the place first: `/repo/.mcp.json:3:7: server "db": url must be a string`
 * (file, line and column where known, then the server).
 */
export class ConfigError extends McpError {
  override readonly name: string = 'ConfigError';
  declare readonly code: 'CONFIG_INVALID';
  /** The config file (or its label, `inline[0]`, `workflow step`), when the problem is in one. */
  readonly file: string | undefined;
  /** The field at fault, as a path in the entry (`url`, `env.TOKEN`, `args[1]`). */
  readonly field: string | undefined;
  /** The variable that is not set (`${TOKEN}` with no default). */
  readonly variable: string | undefined;
  /** 1-based line and column of a syntax error. */
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(reason: string, details: ConfigErrorDetails = {}) {
    super('CONFIG_INVALID', reason, details);
    this.file = details.file;
    this.field = details.field;
    this.variable = details.variable;
    this.line = details.line;
    this.column = details.column;
    // The file leads: a config problem is found by where it is, then by which server.
    if (details.file !== undefined)
      this.message = `${place(details)}: ${details.server !== undefined ? `server "${details.server}": ` : ''}${reason}`;
  }

  override toJSON(): Record<string, unknown> {
    const out = super.toJSON();
    for (const key of ['file', 'field', 'variable', 'line', 'column'] as const)
      if (this[key] !== undefined) out[key] = this[key];
    return out;
  }
}

function place(details: ConfigErrorDetails): string {
  if (details.line === undefined) return details.file!;
  return `${details.file}:${details.line}${details.column !== undefined ? `:${details.column}` : ''}`;
}

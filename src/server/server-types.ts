/**
 * The public types of the server kit: options, tool definitions, the context a handler gets and
 * what it returns.
 */
import type { ExtensionMap, ExtensionSettings } from '../protocol/extensions/ids.js';
import type { UiClientCapability } from '../protocol/extensions/apps-types.js';
import type { AppsOptions } from './apps/app-only-tools.js';
import type { AuthInfo } from './auth-info.js';
import type { VisibilityOptions } from './visibility-types.js';
import type { ServerStateOptions } from './state/server-state.js';
import type { JsonRpcId } from '../protocol/jsonrpc.js';
import type { Era, ProtocolRevision } from '../protocol/revisions.js';
import type {
  ClientCapabilities,
  ContentBlock,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  Icon,
  Implementation,
  JsonSchema,
  ListRootsResult,
  LoggingLevel,
  ToolAnnotations,
} from '../protocol/types.js';

/** One line the server logs about itself (never sent to the client). */
export interface ServerLogRecord {
  level: 'debug' | 'info' | 'warning' | 'error';
  /** What happened, e.g. `tool handler threw`. */
  msg: string;
  tool?: string;
  /** The error's text and stack (server-side only). */
  error?: string;
  stack?: string;
  [key: string]: unknown;
}

/** Receives the server's own log records. The default writes one JSON line per record to stderr. */
export type ServerLogger = (record: ServerLogRecord) => void;

/** Options of `McpServer`. */
export interface McpServerOptions {
  /** `serverInfo.name`. */
  name: string;
  /** `serverInfo.version`. */
  version: string;
  title?: string;
  /**
   * `serverInfo.description` (2025-11-25 and later sessions, and 2026): what the server does, for
   * people. Also the Server Card's description (1–100 characters there).
   */
  description?: string;
  /** `serverInfo.websiteUrl` (2025-11-25+): the server's homepage or documentation. */
  websiteUrl?: string;
  /** `serverInfo.icons` (2025-11-25+). */
  icons?: Icon[];
  /** Guidance for the model, sent in the `initialize` / `server/discover` result. */
  instructions?: string;
  /** Entries per page of every list: tools, resources, templates, prompts (default 100). */
  pageSize?: number;
  /** Where the server's own records go (default: JSON lines on stderr; stdout is the wire on stdio). */
  logger?: ServerLogger;
  /**
   * The secret that signs 2026-07-28 `requestState` (multi-round-trip input); the same as
   * `state.stateSecret` (give one of them). Default: random per process; give the same secret to
   * every process behind one load balancer.
   */
  stateSecret?: string;
  /**
   * Where the kit keeps what outlives a request (change bus, tasks, legacy sessions, SSE events),
   * this node's id and the shared `stateSecret`: see `docs/server-state.md`. Default: everything
   * in this process's memory.
   */
  state?: ServerStateOptions;
  /**
   * Told of every finished `tools/call` of a registered tool, failed validation included (for
   * per-call logs and metrics). A throw is logged and ignored.
   */
  onToolCall?: ToolCallObserver;
  /**
   * Tasks of the 2026 tasks extension (tools with `taskSupport`): how long each is kept after its
   * creation (`ttlMs`, default one hour), the poll interval told to clients (`pollIntervalMs`,
   * default 500), how many the in-memory store holds at once (`maxTasks`, default 1000; beyond it
   * the oldest ended task is dropped, or a new call is refused with -32603) and how long a node's
   * claim on a running task holds unrenewed (`leaseMs`, default 30 s: a dead node's tasks are
   * `failed` after it).
   */
  tasks?: { ttlMs?: number; pollIntervalMs?: number; maxTasks?: number; leaseMs?: number };
  /**
   * Extensions to advertise (SEP-2133), id → settings, in both eras' capabilities; the same as
   * `registerExtension({ id, settings })` for each (an extension with methods needs that call).
   */
  extensions?: Readonly<Record<string, ExtensionSettings>>;
  /**
   * MCP Apps (`registerAppTool`): `hideAppOnlyFromTextClients` (default true) keeps app-only tools
   * (`ui.visibility` without `model`) out of `tools/list` for a client that did not declare the
   * ui extension with `text/html;profile=mcp-app`, and answers its `tools/call` of one -32602
   * (unknown tool); `false` shows them to every client.
   */
  apps?: AppsOptions;
  /**
   * Who is shown which tools, prompts and resources, per request (from its verified `auth` and
   * its capabilities): an item a request is not shown is left out of its lists and is unknown to
   * its calls, gets, reads and completions (-32602, or the resource-not-found error), as if it
   * were not registered. For policies per principal (a gateway's). Default: everything to everyone.
   */
  visibility?: VisibilityOptions;
}

/** One finished tool call, for {@link McpServerOptions.onToolCall}. */
export interface ToolCallRecord {
  tool: string;
  /** The arguments as received (unchecked when `errorCode` is `VALIDATION_ERROR`): log only what is safe. */
  arguments: unknown;
  durationMs: number;
  isError: boolean;
  /** The envelope's `error.code` of an error result made by the kit or a `ToolError`. */
  errorCode?: string;
}

/** Receives {@link ToolCallRecord}s. */
export type ToolCallObserver = (record: ToolCallRecord) => void;

/** What a handler (tool, resource read, prompt) gets beside its input. */
export interface RequestContext {
  /** Aborted when the client cancels the request, its connection closes or the server shuts down. */
  readonly signal: AbortSignal;
  /** The era and revision of this request (legacy: the session's; modern: the request's `_meta`). */
  readonly era: Era;
  readonly revision: ProtocolRevision;
  /** The JSON-RPC id of the request. */
  readonly requestId: JsonRpcId;
  /** What the client says it is (self-reported: for logs and display, never for security). */
  readonly clientInfo: Implementation | undefined;
  /** The client's capabilities (legacy: declared at `initialize`; modern: on this request). */
  readonly clientCapabilities: ClientCapabilities;
  /** The extensions the client declared, id → settings (from `clientCapabilities.extensions`). */
  readonly extensions: ExtensionMap;
  /**
   * What the client declared for MCP Apps (`extensions["io.modelcontextprotocol/ui"]`, e.g.
   * `{ mimeTypes: ["text/html;profile=mcp-app"] }`), or `undefined` when it did not: a tool may
   * answer a client without it differently (its text is all such a client shows).
   */
  readonly ui: UiClientCapability | undefined;
  /**
   * Reports progress when the client asked for it (a `progressToken`); otherwise does nothing.
   * Values that do not increase are dropped (the spec requires increasing progress).
   */
  progress(progress: number, total?: number, message?: string): void;
  /** True when the client asked for progress (its request carried a `progressToken`). */
  readonly wantsProgress: boolean;
  /**
   * Sends a log message to the client when it asked for this level or a more severe one
   * (legacy: `logging/setLevel`, default `info`; modern: this request's `_meta` log level, none
   * when absent). Never throws.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /**
   * Asks the user through the client (`elicitation/create`) and resolves with the answer.
   * Legacy: a request to the client on this connection. 2026-07-28 (tools and prompts):
   * multi-round-trip input: the answer the request carries (`inputResponses`, or one kept in its
   * signed `requestState`), else the call ends in an `input_required` result asking for it and the
   * handler runs again, from the top, on the client's next round (`resumed` true), so it asks the
   * same things in the same order on every run (or gives each a `key`); in a task, it waits for
   * the client's `tasks/update`. Rejects with `INPUT_UNSUPPORTED` when the client did not declare
   * `elicitation`, on stateless legacy HTTP (no way to send a request) and in a 2026
   * `resources/read`; `CANCELLED` when the request is cancelled; `SERVER_ERROR` when the client
   * answers with an error.
   */
  elicit(params: ElicitParams, options?: InputOptions): Promise<ElicitResult>;
  /** Asks the client's model (`sampling/createMessage`); rejects like {@link elicit} (capability `sampling`). */
  sample(params: CreateMessageParams, options?: InputOptions): Promise<CreateMessageResult>;
  /** Asks for the client's roots (`roots/list`); rejects like {@link elicit} (capability `roots`). */
  listRoots(options?: InputOptions): Promise<ListRootsResult>;
  /**
   * 2026-07-28 tools: true when this run continues an exchange (the request carried a valid
   * `requestState`, so earlier answers are available).
   */
  readonly resumed: boolean;
  /**
   * Turns a call that may run as a task (`taskStart: 'handler'`, the client declared the tasks
   * extension) into one: the request is answered with `CreateTaskResult` and the handler goes on;
   * from then on its input requests wait for `tasks/update` and its signal follows
   * `tasks/cancel`. Does nothing elsewhere (the call is answered when the handler returns).
   * Idempotent.
   */
  startTask(): void;
  /**
   * Closes this request's SSE response now while the handler goes on (SSE polling, 2025-11-25):
   * the client reconnects with GET + `Last-Event-ID` and gets what follows — progress, the
   * result — there. Only on a legacy Streamable HTTP session whose client accepts SSE; does
   * nothing elsewhere. Never throws.
   */
  closeStream(): void;
  /** The id of the task this call runs as, once it is one. */
  readonly taskId: string | undefined;
  /** Who the request comes from, on a protected HTTP endpoint (its bearer token, verified); undefined elsewhere. */
  readonly auth?: AuthInfo;
}

/** Options of an input request. */
export interface InputOptions {
  /**
   * 2026-07-28: the key of this request in `inputRequests` (default `input-1`, `input-2`, … in
   * the order the handler asks). A handler asks the same things in the same order on every run;
   * give keys when that order can vary.
   */
  key?: string;
}

/** What a tool handler gets beside its arguments (the same as every handler). */
export type ToolContext = RequestContext;

/**
 * Completes the value of one prompt argument or template variable: the values that fit the
 * partial `value` (at most 100 are sent). `context.arguments` holds the other arguments already
 * given (2025-06-18+).
 */
export type CompleteHandler = (
  value: string,
  context: { arguments: Record<string, string> },
) => string[] | Promise<string[]>;

/**
 * What a tool handler returns: content, structured content, or both. `Structured` is the type of
 * `structuredContent`: what the tool's `outputSchema` admits when it is written `as const`.
 */
export interface ToolResult<Structured = unknown> {
  /** Content blocks; when absent, one text block holding the JSON of `structuredContent`. */
  content?: ContentBlock[];
  /** Checked against the tool's `outputSchema` (when it has one) before it is sent. */
  structuredContent?: Structured;
  /** A failure the handler reports itself (prefer throwing `ToolError`). */
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/**
 * Handles a call of one tool, with arguments already validated against its `inputSchema`; `Args`
 * and `Structured` are what `McpServer.registerTool` infers from the schemas.
 */
export type ToolHandler<Args = Record<string, unknown>, Structured = unknown> = (
  args: Args,
  context: ToolContext,
) => ToolResult<Structured> | Promise<ToolResult<Structured>>;

/**
 * A tool as registered with `McpServer.registerTool`. `Args` types the handler's arguments and
 * `Structured` its `structuredContent`; `registerTool` infers both from schemas written `as const`
 * (see `FromSchema`).
 */
export interface ToolDefinition<Args = Record<string, unknown>, Structured = unknown> {
  name: string;
  title?: string;
  description?: string;
  /**
   * JSON Schema of the arguments (`type: 'object'`), checked before the handler runs. Its dialect
   * is its `$schema`'s: draft-07, 2019-09 or 2020-12 (the default when `$schema` is absent); any
   * other `$schema` is refused at registration. The formats `date`, `time`, `date-time`, `email`,
   * `hostname`, `ipv4`, `ipv6`, `uri`, `uri-reference` and `uuid` are checked; any other `format`
   * passes unchecked. Written `as const`, it types the handler's arguments.
   */
  inputSchema: JsonSchema;
  /**
   * JSON Schema of `structuredContent` (dialects as `inputSchema`'s); every successful result is
   * checked against it before it is sent. Error results carry the kit's envelope in
   * `structuredContent` only when this schema admits it (SDK clients check error results too), in
   * text always. Written `as const`, it types the `structuredContent` the handler returns.
   */
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
  /**
   * Client capabilities the tool cannot work without (`{ sampling: {} }`): a call from a client
   * that did not declare one of them (legacy: at `initialize`; 2026: on the request) is refused
   * with -32021 (MissingRequiredClientCapability, `data.requiredCapabilities` naming the missing
   * ones; HTTP 400) before the arguments are checked.
   */
  requiredClientCapabilities?: ClientCapabilities;
  /**
   * Whether a call may run as a task of the 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`,
   * SEP-2663): `forbidden` (default) always answers the call itself; `optional` runs as a task
   * when the request declares the extension in its capabilities, else answers the call itself;
   * `required` refuses a request without the extension with -32021 (`data.requiredCapabilities`
   * naming it). Legacy revisions never get tasks: the call is answered itself.
   */
  taskSupport?: 'forbidden' | 'optional' | 'required';
  /**
   * When a task-run call becomes a task: `call` (default) at once, before the handler runs (the
   * request is answered with `CreateTaskResult`); `handler` when the handler calls
   * `context.startTask()`, so it can first gather input through the request's own
   * multi-round-trip rounds (a handler that returns without calling it answers the call itself).
   */
  taskStart?: 'call' | 'handler';
  /**
   * OAuth scopes a call needs on a protected HTTP endpoint (`createHttpHandler`'s `auth`): a
   * token without one of them is answered 403 `insufficient_scope` before the arguments are
   * checked. Ignored where there is no bearer check (stdio, an unprotected handler).
   */
  requiredScopes?: readonly string[];
  /**
   * Whether the kit checks arguments against `inputSchema` and results against `outputSchema`
   * (default true). `false` is for a tool that forwards its call to another server which checks
   * them itself (a gateway): the schemas are sent in `tools/list` as given, never compiled, so a
   * dialect the kit does not know passes through too, and results are sent as the handler returns them.
   */
  checkSchemas?: boolean;
  handler: ToolHandler<Args, Structured>;
}

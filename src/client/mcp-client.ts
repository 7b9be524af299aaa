/**
 * `McpClient`: one server, any revision, one typed API. It detects the era, negotiates the
 * revision, gates every method on the server's capabilities, walks pages, caches lists, turns
 * server input into handler calls in both eras, and validates structured tool output.
 */
import { DEFAULT_MAX_TOTAL_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, JsonRpcConnection, type RequestOptions } from '../protocol/connection.js';
import { errorMessage, isMcpError, McpError } from '../protocol/errors.js';
import { checkOptions } from '../protocol/option-keys.js';
import { commandDisplayName } from '../transport/command-name.js';
import { STDIO_SPEC_KEYS } from '../transport/option-keys.js';
import { RpcErrorCode } from '../protocol/jsonrpc.js';
import type { ClientRequestMethod, ParamsOf, ResultOf } from '../protocol/methods.js';
import { hasFeature, type Era, type ProtocolRevision } from '../protocol/revisions.js';
import type { CloseInfo, Disposer, Transport } from '../protocol/transport.js';
import type {
  CallToolResult,
  ClientCapabilities,
  CompleteParams,
  CompleteResult,
  GetPromptResult,
  Implementation,
  InputRequiredResult,
  LoggingLevel,
  LoggingMessageParams,
  Meta,
  ProgressParams,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ResourceUpdatedParams,
  ServerCapabilities,
  SubscriptionFilter,
  Tool,
} from '../protocol/types.js';
import type { StdioServerSpec, StdioTransport } from '../transport/stdio.js';
import type { StreamableHttpTransport } from '../transport/http/streamable-http.js';
import type { HttpSession } from '../transport/http/legacy-session.js';
import { isStdioTransport, isStreamableHttpTransport } from '../transport/kinds.js';
import { VERSION } from '../protocol/version.js';
import { sampleValue } from '../protocol/value-sample.js';
import { connectHttp, isHttpSpec, type HttpServerSpec } from './connect-http.js';
import { ConnectDeadline } from './connect-deadline.js';
import { Emitter } from '../protocol/emitter.js';
import type { ClientEvents } from './events.js';
import { cacheLifetime, LIST_KEYS, ListCache, type ListMethod } from './list-cache.js';
import { assertCapability, assertEra, hasCapability } from './gating.js';
import { ListenStream } from './listen.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_PROBE_TIMEOUT_MS, modernMeta, negotiate, pickModern, type Link, type Negotiated } from './negotiate.js';
import { Resender } from './resend-policy.js';
import { checkClientOptions, type CallOptions, type ClientOptions, type ListOptions } from './options.js';
import { checkStructuredContent, OutputSchemaError } from './output-schema.js';
import { walkPages, type Page } from './pagination.js';
import { paramHeaders, planParamHeaders } from './x-mcp-header.js';
import type { ConnectTracer } from './trace-hook.js';
import { capabilitiesFor, fulfilAll, fulfilInput, type ServerInputHandlers } from './server-input.js';

export type { ClientEvents } from './events.js';

/** What `connect` accepts: a ready transport, the command line of a stdio server, or a URL. */
export type ConnectTarget = Transport | StdioServerSpec | HttpServerSpec;

/** Shared defaults of the hot path, so a plain call allocates no options object. */
const NO_OPTIONS: CallOptions = Object.freeze({});
const TRACK_PROGRESS: CallOptions = Object.freeze({ trackProgress: true });

/** Methods the 2026-07-28 revision removed. */
const LEGACY_ONLY = new Set(['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);

/** Request options inside the client: `headers` are a tool call's `Mcp-Param-*` headers (2026 HTTP), handed to the HTTP transport, never to the connection. */
type HeaderedOptions = RequestOptions & { headers?: Record<string, string> };

function isTransport(target: ConnectTarget): target is Transport {
  return typeof (target as Transport).send === 'function';
}

/** A transport as the client holds it: the object it was given or built, and the pipe its connection uses (the same, or a tracing decorator around it). */
interface Held {
  concrete: Transport;
  pipe: Transport;
}

/** Starts a stdio server under tracing: its transport wrapped, a failed start recorded. */
async function spawnTraced(spawn: () => Promise<StdioTransport>, spec: StdioServerSpec, tracer: ConnectTracer): Promise<Held> {
  const spawned = { command: spec.command, args: spec.args ?? [] };
  let transport: StdioTransport;
  try {
    transport = await spawn();
  } catch (error) {
    tracer.event('spawn-failed', { ...spawned, error: errorMessage(error) });
    throw error;
  }
  return { concrete: transport, pipe: tracer.wrap(transport, spawned) };
}

/** A connected MCP client. Create with {@link McpClient.connect}. */
export class McpClient {
  /** The server's display name, used in every error. */
  readonly name: string;
  private connection: JsonRpcConnection;
  /** The server process, when the transport is a stdio one (for `pid`). */
  private process: StdioTransport | undefined;
  /** The Streamable HTTP transport, when it is one: told the session, given per-message headers. */
  private readonly http: StreamableHttpTransport | undefined;
  private readonly resender: Resender;
  private negotiated!: Negotiated;
  private meta: Meta | undefined;
  private logLevel: LoggingLevel | undefined;
  private readonly events = new Emitter<ClientEvents>();
  private readonly caches = new ListCache();
  private toolIndex: Map<string, Tool> | undefined;
  private readonly subscribed = new Set<string>();
  private listen: ListenStream | undefined;
  private closing: Promise<void> | undefined;
  private readonly lifetime = new AbortController();
  private readonly declared: ClientCapabilities;

  private constructor(
    held: Held,
    private readonly options: ClientOptions,
    private readonly handlers: ServerInputHandlers,
    private readonly clientInfo: Implementation,
  ) {
    this.name = options.name ?? 'server';
    this.declared = capabilitiesFor(handlers, options.elicitationModes);
    this.logLevel = options.logLevel;
    if (options.onDiagnostic) this.events.on('diagnostic', options.onDiagnostic);
    this.http = isStreamableHttpTransport(held.concrete) ? held.concrete : undefined;
    const link = this.wire(held);
    this.connection = link.connection;
    this.process = isStdioTransport(link.transport) ? link.transport : undefined;
    const client = this;
    this.resender = new Resender({
      get connection() {
        return client.connection;
      },
      get legacyHttp() {
        return client.negotiated?.era === 'legacy' ? client.http : undefined;
      },
      get initializeParams() {
        return client.negotiated?.initialize;
      },
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      diagnostic: (kind, message) => this.events.emit('diagnostic', { kind, message }),
    });
  }

  /**
   * Starts (stdio spec) or adopts (transport) a server, detects its era and negotiates the
   * revision. Rejects with `SPAWN_FAILED`, `VERSION_UNSUPPORTED`, `TIMEOUT`, `CONNECTION_CLOSED`
   * or `SERVER_ERROR`; on rejection nothing is left running.
   *
   * `options.connectTimeoutMs` is one deadline that starts when `connect` is called and bounds
   * all of it: loading the stdio transport and starting the server (looked at before the start
   * and once it returned: starting a process is one system call that nothing interrupts, so a
   * start that overran the deadline fails right after it and the server is killed), the
   * `server/discover` probe, a restart after it, the handshake, and the `logging/setLevel` sent
   * after it when `logLevel` is set. Running out rejects with one `TIMEOUT` naming the step.
   *
   * `options.signal` aborts every step alike: the connect rejects at once with `CANCELLED`
   * (`cause`: the signal's reason). After an abort or once the connect timeout has run out, a
   * server the connect started is killed with its tree (`destroy`), not closed politely, so the
   * rejection comes without the close's own waits.
   */
  static async connect(target: ConnectTarget, options: ClientOptions = {}): Promise<McpClient> {
    checkClientOptions(options);
    if (isHttpSpec(target)) return connectHttp(target, options, (transport, pipe, routeOptions) => McpClient.connectOver(transport, pipe, routeOptions));
    // The spec is checked before its fields are read for the display name (a `{ cmd }` typo has no command).
    if (!isTransport(target)) checkOptions(target, STDIO_SPEC_KEYS);
    const name = options.name ?? (isTransport(target) ? 'server' : commandDisplayName((target as StdioServerSpec).command, (target as StdioServerSpec).args));
    const { signal } = options;
    // Nothing to start: a given transport is closed by the failed handshake below, as on any failure.
    if (signal?.aborted && !isTransport(target)) throw new McpError('CANCELLED', 'connect was cancelled by the caller', { server: name, cause: signal.reason });
    // The clock starts here, before anything is loaded or started (see the TSDoc above).
    const deadline = new ConnectDeadline(options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
    const clientInfo = options.clientInfo ?? { name: 'mcpwire', version: VERSION };
    const handlers = options.handlers ?? {};
    const events: Array<(line: string) => void> = [];
    /** The stdio transport this connect started last, so an abort can kill it rather than wait for a polite close. */
    let started: StdioTransport | undefined;
    const spawn = isTransport(target)
      ? undefined
      : async () => {
          // Loaded on demand: a caller with its own transport never pays for child_process.
          const { StdioTransport } = await import('../transport/stdio.js');
          deadline.check(name, 'before the server was started');
          const transport = await StdioTransport.spawn(target as StdioServerSpec, {
            name,
            onStderr: (line: string) => events[0]?.(line),
            ...(signal ? { signal } : {}),
            ...(options.stdio?.inheritEnv !== undefined ? { inheritEnv: options.stdio.inheritEnv } : {}),
            ...(options.stdio?.maxMessageBytes !== undefined ? { maxMessageBytes: options.stdio.maxMessageBytes } : {}),
            ...(options.stdio?.stderrLines !== undefined ? { stderrLines: options.stdio.stderrLines } : {}),
          });
          if (deadline.left() <= 0) {
            // The start itself overran the whole budget: nothing of this server may stay behind.
            transport.destroy();
            await transport.closed;
            throw deadline.ranOut(name, 'while the server was being started');
          }
          started = transport;
          return transport;
        };
    const tracer = options.trace ? (await import('./trace-hook.js')).connectTracer(options.trace, name) : undefined;
    const start: (() => Promise<Held>) | undefined = !spawn
      ? undefined
      : tracer
        ? () => spawnTraced(spawn, target as StdioServerSpec, tracer)
        : async () => {
            const transport = await spawn();
            return { concrete: transport, pipe: transport };
          };
    const given = target as Transport;
    const held = start ? await start() : { concrete: given, pipe: tracer ? tracer.wrap(given) : given };
    return McpClient.open(held, { ...options, name }, { start, deadline, clientInfo, handlers, events, started: () => started });
  }

  /**
   * Connects over a transport already held (the connect of a URL comes here for each route it
   * tries, with the transport it built and, when tracing, the decorator around it).
   * @internal
   */
  private static connectOver(concrete: Transport, pipe: Transport, options: ClientOptions): Promise<McpClient> {
    const deadline = new ConnectDeadline(options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
    const clientInfo = options.clientInfo ?? { name: 'mcpwire', version: VERSION };
    const name = options.name ?? 'server';
    return McpClient.open({ concrete, pipe }, { ...options, name }, { start: undefined, deadline, clientInfo, handlers: options.handlers ?? {}, events: [], started: () => undefined });
  }

  private static async open(
    held: Held,
    options: ClientOptions & { name: string },
    setup: {
      start: (() => Promise<Held>) | undefined;
      deadline: ConnectDeadline;
      clientInfo: Implementation;
      handlers: ServerInputHandlers;
      events: Array<(line: string) => void>;
      started: () => StdioTransport | undefined;
    },
  ): Promise<McpClient> {
    const { start, deadline, clientInfo, handlers, events } = setup;
    const { signal } = options;
    const client = new McpClient(held, options, handlers, clientInfo);
    events.push((line) => {
      options.onStderr?.(line);
      client.events.emit('stderr', line);
    });
    try {
      const { negotiated, link } = await negotiate({ connection: client.connection, transport: held.concrete }, {
        era: options.era ?? 'auto',
        protocolVersion: options.protocolVersion,
        clientInfo,
        capabilities: client.declared,
        probeTimeoutMs: options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
        deadline,
        signal: options.signal,
        restart: start
          ? async () => {
              await client.connection.close();
              return client.wire(await start());
            }
          : undefined,
        onSession: (session, connection) => client.sessionLearned(session, connection),
      });
      client.connection = link.connection;
      client.process = isStdioTransport(link.transport) ? link.transport : undefined;
      client.adopt(negotiated);
      await client.afterHandshake(signal, deadline);
    } catch (error) {
      // The caller wants out now, or the connect's time is up: the polite close could spend its
      // whole budget (4 s) on a server that ignores stdin EOF and SIGTERM — and a server that
      // hangs is often the reason for the abort or the timeout.
      if (signal?.aborted || deadline.left() <= 0) setup.started()?.destroy();
      await client.close();
      throw error;
    }
    return client;
  }

  /** `legacy` (initialize handshake) or `modern` (2026-07-28, stateless). */
  get era(): Era {
    return this.negotiated.era;
  }

  /** The negotiated revision. */
  get protocolVersion(): ProtocolRevision {
    return this.negotiated.protocolVersion;
  }

  /** What the server says it is. */
  get serverInfo(): Implementation | undefined {
    return this.negotiated.serverInfo;
  }

  /** The capabilities the server advertised. */
  get capabilities(): ServerCapabilities {
    return this.negotiated.capabilities;
  }

  /** The server's instructions for the model, if any. */
  get instructions(): string | undefined {
    return this.negotiated.instructions;
  }

  /** The capabilities this client declares (from its handlers). */
  get clientCapabilities(): ClientCapabilities {
    return this.declared;
  }

  /** The server's process id (stdio), for status displays and debugging. */
  get pid(): number | undefined {
    return this.process?.pid;
  }

  /** Resolves when the connection is closed, whoever closed it. */
  get closed(): Promise<CloseInfo> {
    return this.connection.closed;
  }

  /** True once closed or closing. */
  get isClosed(): boolean {
    return this.connection.isClosed;
  }

  /** Subscribes to a client event; returns a disposer. */
  on<E extends keyof ClientEvents>(event: E, listener: ClientEvents[E]): Disposer {
    return this.events.on(event, listener);
  }

  /** Liveness check: `ping` in the legacy era; `server/discover` in the modern era (which has no ping). */
  async ping(options: CallOptions = {}): Promise<void> {
    if (this.era === 'modern') await this.send('server/discover', undefined, options);
    else await this.send('ping', undefined, options);
  }

  /** Every tool, walking all pages (cached while fresh: modern `ttlMs`, legacy until list_changed). */
  async listTools(options: ListOptions = {}): Promise<Tool[]> {
    let tools = (await this.listAll('tools/list', options)) as Tool[];
    if (this.mirrorsHeaders) tools = this.withValidHeaderMarkings(tools);
    this.toolIndex = new Map(tools.map((tool) => [tool.name, tool]));
    return tools;
  }

  /** 2026 HTTP: a tool whose `x-mcp-header` markings break the rules is left out, with a diagnostic. */
  private withValidHeaderMarkings(tools: Tool[]): Tool[] {
    let kept: Tool[] | undefined;
    for (let i = 0; i < tools.length; i++) {
      const plan = planParamHeaders(tools[i]!);
      if (plan.ok) {
        kept?.push(tools[i]!);
        continue;
      }
      kept ??= tools.slice(0, i);
      this.events.emit('diagnostic', { kind: 'invalid-tool', message: `tool ${sampleValue(tools[i]!.name)} left out: ${plan.reason}` });
    }
    return kept ?? tools;
  }

  /** True in the 2026 era over Streamable HTTP, which mirrors request fields into HTTP headers. */
  private get mirrorsHeaders(): boolean {
    return this.era === 'modern' && this.http !== undefined;
  }

  /** One page of tools at an explicit cursor (no cache). */
  listToolsPage(cursor?: string, options: CallOptions = {}): Promise<ResultOf<'tools/list'>> {
    return this.listPage('tools/list', cursor, options);
  }

  /**
   * Calls a tool. A result with `isError: true` is returned, not thrown. Rejects with
   * `OUTPUT_SCHEMA_MISMATCH` when `structuredContent` breaks the tool's `outputSchema`
   * (unless `validateOutput: false`). Progress resets the idle timeout by default.
   */
  callTool(name: string, args?: Record<string, unknown>, options: CallOptions = NO_OPTIONS): Promise<CallToolResult> {
    const params = args === undefined ? { name } : { name, arguments: args };
    const requestOptions = options === NO_OPTIONS ? TRACK_PROGRESS : options.trackProgress === undefined ? { ...options, trackProgress: true } : options;
    if (this.mirrorsHeaders) return this.callToolWithHeaders(name, args, params, options, requestOptions);
    // Not async on purpose: a plain call costs the connection's promise and this one `then`.
    return (this.send('tools/call', params, requestOptions) as Promise<Record<string, unknown>>).then((raw) => {
      const type = raw.resultType;
      if (type === undefined || type === 'complete') return this.checkedResult(name, raw as CallToolResult, options);
      return this.continueWithInput('tools/call', params, requestOptions, raw, 0).then((done) => this.checkedResult(name, done as CallToolResult, options));
    });
  }

  /**
   * 2026 HTTP: the call carries the `Mcp-Param-*` headers of the tool's `x-mcp-header` markings;
   * on -32020 (headers and body disagree, e.g. the tool's schema changed) the tool list is
   * fetched again and the call retried once, as the transport spec advises.
   */
  private async callToolWithHeaders(name: string, args: Record<string, unknown> | undefined, params: ParamsOf<'tools/call'>, options: CallOptions, requestOptions: RequestOptions): Promise<CallToolResult> {
    const withHeaders = (): HeaderedOptions => {
      const tool = this.toolIndex?.get(name);
      const headers = tool ? paramHeaders(planParamHeaders(tool), args) : undefined;
      return headers ? { ...requestOptions, headers } : requestOptions;
    };
    let callOptions = withHeaders();
    let raw: Record<string, unknown>;
    try {
      raw = (await this.send('tools/call', params, callOptions)) as Record<string, unknown>;
    } catch (error) {
      if (!(error instanceof McpError) || error.rpcCode !== RpcErrorCode.HeaderMismatch) throw error;
      await this.listTools({ refresh: true, ...(options.signal ? { signal: options.signal } : {}) });
      callOptions = withHeaders();
      raw = (await this.send('tools/call', params, callOptions)) as Record<string, unknown>;
    }
    const type = raw.resultType;
    const done = type === undefined || type === 'complete' ? raw : await this.continueWithInput('tools/call', params, callOptions, raw, 0);
    return this.checkedResult(name, done as CallToolResult, options);
  }

  /** Applies output validation where it can apply; returns the result itself when it cannot. */
  private checkedResult(name: string, result: CallToolResult, options: CallOptions): CallToolResult | Promise<CallToolResult> {
    if (result.isError || this.options.validateOutput === false) return result;
    if (this.toolIndex === undefined && result.structuredContent === undefined) return result;
    return this.validateOutput(name, result, options).then(() => result);
  }

  /** Every resource, walking all pages. */
  async listResources(options: ListOptions = {}): Promise<Resource[]> {
    return (await this.listAll('resources/list', options)) as Resource[];
  }

  /** One page of resources at an explicit cursor. */
  listResourcesPage(cursor?: string, options: CallOptions = {}): Promise<ResultOf<'resources/list'>> {
    return this.listPage('resources/list', cursor, options);
  }

  /** Every resource template, walking all pages. */
  async listResourceTemplates(options: ListOptions = {}): Promise<ResourceTemplate[]> {
    return (await this.listAll('resources/templates/list', options)) as ResourceTemplate[];
  }

  /** One page of resource templates at an explicit cursor. */
  listResourceTemplatesPage(cursor?: string, options: CallOptions = {}): Promise<ResultOf<'resources/templates/list'>> {
    return this.listPage('resources/templates/list', cursor, options);
  }

  /** Reads a resource. Not-found arrives as `SERVER_ERROR` with `rpcCode` -32002 (legacy) or -32602 (modern). */
  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    return (await this.withInput('resources/read', { uri }, options)) as ReadResourceResult;
  }

  /** Every prompt, walking all pages. */
  async listPrompts(options: ListOptions = {}): Promise<Prompt[]> {
    return (await this.listAll('prompts/list', options)) as Prompt[];
  }

  /** One page of prompts at an explicit cursor. */
  listPromptsPage(cursor?: string, options: CallOptions = {}): Promise<ResultOf<'prompts/list'>> {
    return this.listPage('prompts/list', cursor, options);
  }

  /** Renders a prompt. */
  async getPrompt(name: string, args?: Record<string, string>, options: CallOptions = {}): Promise<GetPromptResult> {
    const params = args === undefined ? { name } : { name, arguments: args };
    return (await this.withInput('prompts/get', params, options)) as GetPromptResult;
  }

  /** Asks for completions of a prompt or resource-template argument. */
  async complete(ref: CompleteParams['ref'], argument: CompleteParams['argument'], options: CallOptions & { context?: CompleteParams['context'] } = {}): Promise<CompleteResult['completion']> {
    const { context, ...rest } = options;
    const params: CompleteParams = context ? { ref, argument, context } : { ref, argument };
    return (await this.send('completion/complete', params, rest)).completion;
  }

  /**
   * Sets the server's log level. Legacy: `logging/setLevel` (needs the `logging` capability).
   * Modern: the level rides on every later request's `_meta`.
   */
  async setLoggingLevel(level: LoggingLevel, options: CallOptions = {}): Promise<void> {
    if (this.era === 'modern') {
      this.logLevel = level;
      this.meta = modernMeta(this.protocolVersion, this.declared, this.clientInfo, level);
      return;
    }
    await this.send('logging/setLevel', { level }, options);
  }

  /**
   * Subscribes to updates of one resource (`resourceUpdated` events). Legacy:
   * `resources/subscribe`; modern: the URI joins the `subscriptions/listen` filter. Resolves with
   * an async disposer that unsubscribes. Needs the `resources.subscribe` capability.
   */
  async subscribeResource(uri: string, options: CallOptions = {}): Promise<(options?: CallOptions) => Promise<void>> {
    assertCapability('resources/subscribe', this.capabilities, this.protocolVersion, this.name);
    if (this.era === 'legacy') await this.send('resources/subscribe', { uri }, options);
    this.subscribed.add(uri);
    if (this.era === 'modern') this.refreshListen();
    let done = false;
    // The unsubscribe request gets its own options: the subscribe call's signal may long be aborted.
    return async (unsubscribeOptions: CallOptions = {}) => {
      if (done) return;
      this.subscribed.delete(uri);
      if (this.era === 'modern') {
        done = true;
        return this.refreshListen();
      }
      if (this.isClosed) {
        done = true;
        return;
      }
      try {
        await this.send('resources/unsubscribe', { uri }, unsubscribeOptions);
        done = true;
      } catch (error) {
        if (isMcpError(error, 'CONNECTION_CLOSED')) {
          done = true;
          return;
        }
        this.subscribed.add(uri); // still subscribed on the server: a retry must be possible
        throw error;
      }
    };
  }

  /** Tells a legacy server the roots changed (needs a `roots` handler). A no-op in the modern era. */
  async notifyRootsChanged(): Promise<void> {
    if (this.era === 'modern' || !this.handlers.roots) return;
    await this.connection.notify('notifications/roots/list_changed', undefined);
  }

  /**
   * Sends any request of the method table with the era's envelope, unchecked by capability
   * gates and unmodified otherwise. For methods this class does not wrap.
   */
  request<M extends ClientRequestMethod>(method: M, params: ParamsOf<M>, options: CallOptions = {}): Promise<ResultOf<M>> {
    return this.send(method, params, options, false);
  }

  /** Graceful, idempotent close: ends listen streams, closes the transport (stdio: stdin EOF → SIGTERM → SIGKILL). */
  close(): Promise<void> {
    if (!this.closing) {
      this.lifetime.abort(new McpError('CONNECTION_CLOSED', 'client closed', { server: this.name }));
      this.listen?.stop();
      this.closing = this.connection.close();
    }
    return this.closing;
  }

  /** `await using client = await McpClient.connect(…)` closes it at scope end. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  // ---- internals ----

  /** A new connection over `held.pipe`; a Streamable HTTP transport gets a signal per request (its POST). */
  private wire(held: Held): Link {
    const connection = new JsonRpcConnection(held.pipe, {
      name: this.name,
      defaultTimeoutMs: this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      maxTotalTimeoutMs: this.options.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS,
      requestSignals: isStreamableHttpTransport(held.concrete),
    });
    connection.onDiagnostic((d) => this.events.emit('diagnostic', d));
    connection.onNotification('notifications/tools/list_changed', () => {
      this.caches.delete('tools/list');
      this.toolIndex = undefined;
      this.events.emit('toolsChanged');
    });
    connection.onNotification('notifications/resources/list_changed', () => {
      this.caches.delete('resources/list', 'resources/templates/list');
      this.events.emit('resourcesChanged');
    });
    connection.onNotification('notifications/prompts/list_changed', () => {
      this.caches.delete('prompts/list');
      this.events.emit('promptsChanged');
    });
    connection.onNotification('notifications/resources/updated', (p) => this.events.emit('resourceUpdated', p as ResourceUpdatedParams));
    connection.onNotification('notifications/message', (p) => this.events.emit('log', p as LoggingMessageParams));
    connection.onNotification('notifications/progress', (p) => this.events.emit('progress', p as ProgressParams));
    connection.onNotification('notifications/elicitation/complete', (p) => this.events.emit('elicitationComplete', p as { elicitationId: string }));
    connection.onRequest('ping', () => ({}));
    for (const method of ['sampling/createMessage', 'elicitation/create', 'roots/list'] as const) {
      connection.onRequest(method, (params, context) =>
        fulfilInput({ method, ...(params ? { params } : {}) }, this.handlers, { server: this.name, era: 'legacy', signal: context.signal }, this.options.elicitationModes),
      );
    }
    void connection.closed.then((info) => {
      if (connection !== this.connection) return; // a probe connection replaced during connect
      this.listen?.stop();
      this.events.emit('close', info);
    });
    return { connection, transport: held.concrete };
  }

  private adopt(negotiated: Negotiated): void {
    this.negotiated = negotiated;
    if (negotiated.era === 'modern') {
      this.meta = modernMeta(negotiated.protocolVersion, this.declared, this.clientInfo, this.logLevel);
    }
  }

  /** What the connect does once negotiated; its requests spend from the connect's deadline and stop at its signal. */
  private async afterHandshake(signal: AbortSignal | undefined, deadline: ConnectDeadline): Promise<void> {
    if (this.era === 'legacy') {
      if (this.logLevel !== undefined && hasCapability(this.capabilities, ['logging'])) {
        const level = this.logLevel;
        await deadline.request(this.name, 'logging/setLevel', (timeoutMs) =>
          this.send('logging/setLevel', { level }, { timeoutMs, maxTotalTimeoutMs: timeoutMs, ...(signal ? { signal } : {}) }),
        );
      }
      return;
    }
    if (this.options.listen !== false) {
      this.listen = new ListenStream(
        (filter, signal) => this.send('subscriptions/listen', { notifications: filter }, { signal, timeoutMs: Infinity, maxTotalTimeoutMs: Infinity }, false),
        (message) => this.events.emit('diagnostic', { kind: 'listen', message }),
      );
      this.refreshListen();
    }
  }

  private refreshListen(): void {
    if (!this.listen) return;
    const caps = this.capabilities;
    const filter: SubscriptionFilter = {};
    if (caps.tools?.listChanged) filter.toolsListChanged = true;
    if (caps.prompts?.listChanged) filter.promptsListChanged = true;
    if (caps.resources?.listChanged) filter.resourcesListChanged = true;
    if (this.subscribed.size > 0) filter.resourceSubscriptions = [...this.subscribed];
    this.listen.update(filter);
  }

  /**
   * Sends one request with the era's envelope. Gated methods fail locally with
   * `CAPABILITY_MISSING`. Modern: one retry on -32022 with a mutually supported revision.
   */
  private send<M extends ClientRequestMethod>(method: M, params: ParamsOf<M>, options: HeaderedOptions, gate = true): Promise<ResultOf<M>> {
    if (gate) {
      try {
        this.gate(method);
      } catch (error) {
        return Promise.reject(error);
      }
    }
    // A lost legacy session being replaced: this request goes out in the new one.
    const waiting = this.resender.pending;
    if (waiting) return waiting.then(() => this.send(method, params, options, false));
    let headers: Record<string, string> | undefined;
    if (options.headers !== undefined) ({ headers, ...options } = options);
    if (this.era === 'legacy') return this.resender.guard(method, this.requestOn(method, params, options, headers), () => this.requestOn(method, params, options, headers));
    const sent = this.resender.guard(method, this.requestOn(method, this.envelope(params) as ParamsOf<M>, options, headers), () =>
      this.requestOn(method, this.envelope(params) as ParamsOf<M>, options, headers),
    );
    return sent.catch((error: unknown) => {
      const other = error instanceof McpError && error.rpcCode === RpcErrorCode.UnsupportedProtocolVersion && this.options.protocolVersion === undefined ? pickModern((error.data as { supported?: unknown } | undefined)?.supported) : undefined;
      if (!other || other === this.protocolVersion) throw error;
      this.negotiated = { ...this.negotiated, protocolVersion: other };
      this.meta = modernMeta(other, this.declared, this.clientInfo, this.logLevel);
      return this.requestOn(method, this.envelope(params) as ParamsOf<M>, options, headers);
    });
  }

  /** One request on the connection; `headers` (2026 HTTP: `Mcp-Param-*`) go to the HTTP transport with it. */
  private requestOn<M extends ClientRequestMethod>(method: M, params: ParamsOf<M>, options: RequestOptions, headers: Record<string, string> | undefined): Promise<ResultOf<M>> {
    if (headers === undefined || this.http === undefined) return this.connection.request(method, params, options);
    return this.http.sendingHeaders(headers, () => this.connection.request(method, params, options));
  }

  /** Tells an HTTP transport what negotiation learned of the session, and the connection how to cancel there. */
  private sessionLearned(session: HttpSession, connection: JsonRpcConnection): void {
    if (!this.http) return;
    this.http.setSession(session);
    // 2026 Streamable HTTP: closing a request's stream is its cancellation; no notice is sent.
    connection.setCancelNotices(session.era === 'modern' ? 'abort-only' : 'send');
  }

  private envelope(params: Record<string, unknown> | undefined): Record<string, unknown> {
    const own = params?._meta as Meta | undefined;
    return { ...params, _meta: own ? { ...own, ...this.meta } : this.meta };
  }

  private gate(method: string): void {
    if (LEGACY_ONLY.has(method)) assertEra(method, this.era, 'legacy', this.name);
    assertCapability(method, this.capabilities, this.protocolVersion, this.name);
  }

  /**
   * Runs a request that may come back `input_required` (2026-07-28): fulfils the input
   * requests through the handlers and retries with a new id, the original params,
   * `inputResponses` and the untouched `requestState`, up to `maxInputRounds` times.
   */
  private withInput(method: 'tools/call' | 'prompts/get' | 'resources/read', params: Record<string, unknown>, options: RequestOptions, round = 0, current = params): Promise<Record<string, unknown>> {
    return (this.send(method, current as never, options) as Promise<Record<string, unknown>>).then((result) => {
      const type = result.resultType;
      if (type === undefined || type === 'complete') return result;
      return this.continueWithInput(method, params, options, result, round);
    });
  }

  private async continueWithInput(method: 'tools/call' | 'prompts/get' | 'resources/read', params: Record<string, unknown>, options: RequestOptions, result: Record<string, unknown>, round: number): Promise<Record<string, unknown>> {
    if (result.resultType !== 'input_required') {
      throw new McpError('PROTOCOL', `returned an unknown resultType ${sampleValue(result.resultType)}`, { server: this.name, method });
    }
    const maxRounds = this.options.maxInputRounds ?? 10;
    if (round >= maxRounds) {
      throw new McpError('INPUT_ROUNDS_EXCEEDED', `still asked for input after ${maxRounds} rounds; gave up`, { server: this.name, method });
    }
    const { inputRequests, requestState } = result as InputRequiredResult;
    // The retry carries the ORIGINAL params plus this round's answers; nothing from earlier rounds.
    const retry: Record<string, unknown> = { ...params };
    if (inputRequests) {
      const signal = options.signal ? AbortSignal.any([options.signal, this.lifetime.signal]) : this.lifetime.signal;
      retry.inputResponses = await fulfilAll(inputRequests, this.handlers, { server: this.name, era: 'modern', signal }, this.options.elicitationModes);
    }
    if (requestState !== undefined) retry.requestState = requestState;
    return this.withInput(method, params, options, round + 1, retry);
  }

  private async listAll(method: ListMethod, options: ListOptions): Promise<unknown[]> {
    const fresh = options.refresh ? undefined : this.caches.get(method);
    if (fresh) return fresh;
    if (!this.gateList(method)) return [];
    const { refresh: _refresh, ...callOptions } = options;
    const walked = await walkPages<unknown>((cursor) => this.fetchPage(method, cursor, callOptions), this.options.maxPages ?? 64, this.name, method);
    this.caches.store(method, walked.items, cacheLifetime(this.era, this.capabilities, method, walked.ttlMs));
    return walked.items;
  }

  private async fetchPage(method: ListMethod, cursor: string | undefined, options: RequestOptions): Promise<Page<unknown>> {
    const result = await this.listPage(method, cursor, options);
    const items = (result as Record<string, unknown>)[LIST_KEYS[method]];
    if (!Array.isArray(items)) {
      throw new McpError('PROTOCOL', `returned a result without a "${LIST_KEYS[method]}" array`, { server: this.name, method });
    }
    const next = (result as { nextCursor?: unknown }).nextCursor;
    return { items, nextCursor: typeof next === 'string' ? next : undefined, ttlMs: (result as { ttlMs?: number }).ttlMs };
  }

  private listPage<M extends ListMethod>(method: M, cursor: string | undefined, options: RequestOptions): Promise<ResultOf<M>> {
    return this.send(method, (cursor === undefined ? undefined : { cursor }) as ParamsOf<M>, options);
  }

  /** False (send nothing, return []) when the capability is missing and the option says `empty`. */
  private gateList(method: ListMethod): boolean {
    try {
      assertCapability(method, this.capabilities, this.protocolVersion, this.name);
      return true;
    } catch (error) {
      if (this.options.missingCapability === 'empty') return false;
      throw error;
    }
  }

  private async validateOutput(name: string, result: CallToolResult, options: CallOptions): Promise<void> {
    if (this.toolIndex === undefined) {
      // Only a result that could be checked is worth a tools/list; most calls never get here twice.
      if (result.structuredContent === undefined) return;
      await this.listTools({ ...(options.signal ? { signal: options.signal } : {}) });
    }
    const schema = this.toolIndex?.get(name)?.outputSchema;
    if (!schema) return;
    if (result.structuredContent === undefined) {
      throw new OutputSchemaError(`tool "${name}" declares an outputSchema but returned no structuredContent`, { server: this.name, method: 'tools/call', tool: name });
    }
    const dialect = hasFeature(this.protocolVersion, 'icons') ? '2020-12' : 'draft-07';
    checkStructuredContent(schema, result.structuredContent, dialect, this.name, name);
  }
}

/**
 * `McpClient`: one server, any revision, one typed API — tools, resources, prompts, completion,
 * logging and subscriptions, gated on the server's capabilities, lists walked page by page and
 * cached, structured tool output validated. What runs under it lives beside it:
 * - `connect.ts`: from a target to a negotiated client (start, trace, negotiate, clean up);
 * - `client-session.ts`: the connection, what negotiation settled, the one request path;
 * - `input-rounds.ts`: 2026 `input_required` rounds; `tool-call-headers.ts`: `Mcp-Param-*`
 *   headers and their retry; `resend-policy.ts`: what is sent again after a transport lost it.
 */
import type { RequestOptions } from '../protocol/connection.js';
import { errorMessage, isMcpError, McpError } from '../protocol/errors.js';
import type { ClientRequestMethod, ParamsOf, ResultOf } from '../protocol/methods.js';
import { hasFeature, type Era, type ProtocolRevision } from '../protocol/revisions.js';
import { schemaEngineReady } from '../protocol/schema-engines.js';
import type { CloseInfo, Disposer } from '../protocol/transport.js';
import type {
  CallToolResult,
  ClientCapabilities,
  CompleteParams,
  CompleteResult,
  GetPromptResult,
  Implementation,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from '../protocol/types.js';
import { ClientSession, type Held, type SessionSetup } from './client-session.js';
import { connectTarget, type ConnectTarget } from './connect.js';
import type { ClientEvents } from './events.js';
import { assertCapability } from './gating.js';
import { assertServerExtension } from './extensions.js';
import { SkillsApi } from './skills/skills-api.js';
import { extensionsOf, type ExtensionMap } from '../protocol/extensions/ids.js';
import { continueWithInput, withInput } from './input-rounds.js';
import { cacheLifetime, LIST_KEYS, ListCache, type ListMethod } from './list-cache.js';
import type { CallOptions, ClientOptions, ListOptions } from './options.js';
import { checkStructuredContent, OutputSchemaError } from './output-schema.js';
import { walkPages, type Page } from './pagination.js';
import { callWithParamHeaders, withValidHeaderMarkings, type ToolLookup } from './tool-call-headers.js';

export type { ClientEvents } from './events.js';
export type { ConnectTarget } from './connect.js';

/** Shared defaults of the hot path, so a plain call allocates no options object. */
const NO_OPTIONS: CallOptions = Object.freeze({});
const TRACK_PROGRESS: CallOptions = Object.freeze({ trackProgress: true });

/** A connected MCP client. Create with {@link McpClient.connect}. */
export class McpClient {
  /** The server's display name, used in every error. */
  readonly name: string;
  private readonly session: ClientSession;
  private readonly caches = new ListCache();
  private toolIndex: Map<string, Tool> | undefined;
  private skillsApi: SkillsApi | undefined;
  /** The tools a 2026 HTTP call reads its `x-mcp-header` markings from. */
  private readonly tools: ToolLookup = {
    get: (name) => this.toolIndex?.get(name),
    refresh: (signal) => this.listTools({ refresh: true, ...(signal ? { signal } : {}) }),
  };

  private constructor(held: Held, setup: Omit<SessionSetup, 'listsChanged'>) {
    this.name = setup.options.name;
    this.session = new ClientSession(held, {
      ...setup,
      listsChanged: (...methods) => {
        this.caches.delete(...methods);
        if (methods.includes('tools/list')) this.toolIndex = undefined;
      },
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
  static connect(target: ConnectTarget, options: ClientOptions = {}): Promise<McpClient> {
    return connectTarget(target, options, (held, setup) => {
      const client = new McpClient(held, setup);
      return { client, session: client.session };
    });
  }

  /** `legacy` (initialize handshake) or `modern` (2026-07-28, stateless). */
  get era(): Era {
    return this.session.negotiated.era;
  }

  /** The negotiated revision. */
  get protocolVersion(): ProtocolRevision {
    return this.session.negotiated.protocolVersion;
  }

  /** What the server says it is. */
  get serverInfo(): Implementation | undefined {
    return this.session.negotiated.serverInfo;
  }

  /** The capabilities the server advertised. */
  get capabilities(): ServerCapabilities {
    return this.session.negotiated.capabilities;
  }

  /**
   * The extensions the server advertised, by id, with their settings (both eras: the
   * `initialize` result or `server/discover`). Only well-formed ids with object settings count.
   */
  get serverExtensions(): ExtensionMap {
    return extensionsOf(this.session.negotiated.capabilities);
  }

  /**
   * The skills the server publishes (SEP-2640): `list()` (reads no file), `get(uri)`, and
   * `read(uri)` returning a file only once it matches its entry. `supported` says whether the
   * server advertised the extension; without it every method is `CAPABILITY_MISSING`, nothing sent.
   */
  get skills(): SkillsApi {
    return (this.skillsApi ??= new SkillsApi(this, this.session.options.maxPages ?? 64));
  }

  /** The server's instructions for the model, if any. */
  get instructions(): string | undefined {
    return this.session.negotiated.instructions;
  }

  /** The capabilities this client declares (from its handlers). */
  get clientCapabilities(): ClientCapabilities {
    return this.session.declared;
  }

  /** The server's process id (stdio), for status displays and debugging. */
  get pid(): number | undefined {
    return this.session.process?.pid;
  }

  /** Resolves when the connection is closed, whoever closed it. */
  get closed(): Promise<CloseInfo> {
    return this.session.connection.closed;
  }

  /** True once closed or closing. */
  get isClosed(): boolean {
    return this.session.connection.isClosed;
  }

  /** Subscribes to a client event; returns a disposer. */
  on<E extends keyof ClientEvents>(event: E, listener: ClientEvents[E]): Disposer {
    return this.session.events.on(event, listener);
  }

  /** Liveness check: `ping` in the legacy era; `server/discover` in the modern era (which has no ping). */
  async ping(options: CallOptions = {}): Promise<void> {
    if (this.era === 'modern') await this.session.send('server/discover', undefined, options);
    else await this.session.send('ping', undefined, options);
  }

  /** Every tool, walking all pages (cached while fresh: modern `ttlMs`, legacy until list_changed). */
  async listTools(options: ListOptions = {}): Promise<Tool[]> {
    let tools = (await this.listAll('tools/list', options)) as Tool[];
    if (this.mirrorsHeaders)
      tools = withValidHeaderMarkings(tools, (message) =>
        this.session.events.emit('diagnostic', { kind: 'invalid-tool', message }),
      );
    this.toolIndex = new Map(tools.map((tool) => [tool.name, tool]));
    return tools;
  }

  /** True in the 2026 era over Streamable HTTP, which mirrors request fields into HTTP headers. */
  private get mirrorsHeaders(): boolean {
    return this.era === 'modern' && this.session.http !== undefined;
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
    const requestOptions =
      options === NO_OPTIONS
        ? TRACK_PROGRESS
        : options.trackProgress === undefined
          ? // Object.assign, not a spread and a property: slow on Node 20 (see protocol/with-meta.ts).
            Object.assign({}, options, TRACK_PROGRESS)
          : options;
    if (this.mirrorsHeaders) {
      return callWithParamHeaders(this.session, this.tools, name, args, params, requestOptions, options.signal).then(
        (done) => this.checkedResult(name, done as CallToolResult, options),
      );
    }
    // Not async on purpose: a plain call costs the connection's promise and this one `then`.
    return (this.session.send('tools/call', params, requestOptions) as Promise<Record<string, unknown>>).then((raw) => {
      const type = raw.resultType;
      if (type === undefined || type === 'complete') return this.checkedResult(name, raw as CallToolResult, options);
      return continueWithInput(this.session, 'tools/call', params, requestOptions, raw, 0).then((done) =>
        this.checkedResult(name, done as CallToolResult, options),
      );
    });
  }

  /** Applies output validation where it can apply; returns the result itself when it cannot. */
  private checkedResult(
    name: string,
    result: CallToolResult,
    options: CallOptions,
  ): CallToolResult | Promise<CallToolResult> {
    if (result.isError || this.session.options.validateOutput === false) return result;
    // Nothing to check, known without waiting: no index and nothing structured, or a tool the index has no schema for.
    const index = this.toolIndex;
    if (index === undefined ? result.structuredContent === undefined : index.get(name)?.outputSchema === undefined)
      return result;
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
    return (await withInput(this.session, 'resources/read', { uri }, options)) as ReadResourceResult;
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
    return (await withInput(this.session, 'prompts/get', params, options)) as GetPromptResult;
  }

  /** Asks for completions of a prompt or resource-template argument. */
  async complete(
    ref: CompleteParams['ref'],
    argument: CompleteParams['argument'],
    options: CallOptions & { context?: CompleteParams['context'] } = {},
  ): Promise<CompleteResult['completion']> {
    const { context, ...rest } = options;
    const params: CompleteParams = context ? { ref, argument, context } : { ref, argument };
    return (await this.session.send('completion/complete', params, rest)).completion;
  }

  /**
   * Sets the server's log level. Legacy: `logging/setLevel` (needs the `logging` capability).
   * Modern: the level rides on every later request's `_meta`.
   */
  async setLoggingLevel(level: LoggingLevel, options: CallOptions = {}): Promise<void> {
    if (this.era === 'modern') return this.session.setModernLogLevel(level);
    await this.session.send('logging/setLevel', { level }, options);
  }

  /**
   * Subscribes to updates of one resource (`resourceUpdated` events). Legacy:
   * `resources/subscribe`; modern: the URI joins the `subscriptions/listen` filter. Resolves with
   * an async disposer that unsubscribes. Needs the `resources.subscribe` capability.
   */
  async subscribeResource(uri: string, options: CallOptions = {}): Promise<(options?: CallOptions) => Promise<void>> {
    assertCapability('resources/subscribe', this.capabilities, this.protocolVersion, this.name);
    if (this.era === 'legacy') await this.session.send('resources/subscribe', { uri }, options);
    this.session.subscribed.add(uri);
    if (this.era === 'modern') this.session.refreshListen();
    let done = false;
    // The unsubscribe request gets its own options: the subscribe call's signal may long be aborted.
    return async (unsubscribeOptions: CallOptions = {}) => {
      if (done) return;
      this.session.subscribed.delete(uri);
      if (this.era === 'modern') {
        done = true;
        return this.session.refreshListen();
      }
      if (this.isClosed) {
        done = true;
        return;
      }
      try {
        await this.session.send('resources/unsubscribe', { uri }, unsubscribeOptions);
        done = true;
      } catch (error) {
        if (isMcpError(error, 'CONNECTION_CLOSED')) {
          done = true;
          return;
        }
        this.session.subscribed.add(uri); // still subscribed on the server: a retry must be possible
        throw error;
      }
    };
  }

  /** Tells a legacy server the roots changed (needs a `roots` handler). A no-op in the modern era. */
  async notifyRootsChanged(): Promise<void> {
    if (this.era === 'modern' || !this.session.handlers.roots) return;
    await this.session.connection.notify('notifications/roots/list_changed', undefined);
  }

  /**
   * Sends any request of the method table with the era's envelope, unchecked by capability
   * gates and unmodified otherwise. For methods this class does not wrap.
   */
  request<M extends ClientRequestMethod>(
    method: M,
    params: ParamsOf<M>,
    options: CallOptions = {},
  ): Promise<ResultOf<M>> {
    return this.session.send(method, params, options, false);
  }

  /**
   * Sends `method` of extension `id` with the era's envelope: rejects with `CAPABILITY_MISSING`,
   * nothing sent, when the server did not advertise `id` (or, for a method the client knows, the
   * setting it needs). Resolves with the raw result; checking its shape is the caller's.
   */
  extensionRequest(
    id: string,
    method: string,
    params?: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<Record<string, unknown>> {
    try {
      assertServerExtension(this.capabilities, id, this.name, method);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.session.send(method as ClientRequestMethod, params, options);
  }

  /** Graceful, idempotent close: ends listen streams, closes the transport (stdio: stdin EOF → SIGTERM → SIGKILL). */
  close(): Promise<void> {
    return this.session.close();
  }

  /** `await using client = await McpClient.connect(…)` closes it at scope end. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  // ---- lists and output validation ----

  private async listAll(method: ListMethod, options: ListOptions): Promise<unknown[]> {
    const fresh = options.refresh ? undefined : this.caches.get(method);
    if (fresh) return fresh;
    if (!this.gateList(method)) return [];
    const { refresh: _refresh, ...callOptions } = options;
    const walked = await walkPages<unknown>(
      (cursor) => this.fetchPage(method, cursor, callOptions),
      this.session.options.maxPages ?? 64,
      this.name,
      method,
    );
    this.caches.store(method, walked.items, cacheLifetime(this.era, this.capabilities, method, walked.ttlMs));
    return walked.items;
  }

  private async fetchPage(
    method: ListMethod,
    cursor: string | undefined,
    options: RequestOptions,
  ): Promise<Page<unknown>> {
    const result = await this.listPage(method, cursor, options);
    const items = (result as Record<string, unknown>)[LIST_KEYS[method]];
    if (!Array.isArray(items)) {
      throw new McpError('PROTOCOL', `returned a result without a "${LIST_KEYS[method]}" array`, {
        server: this.name,
        method,
      });
    }
    const next = (result as { nextCursor?: unknown }).nextCursor;
    return {
      items,
      nextCursor: typeof next === 'string' ? next : undefined,
      ttlMs: (result as { ttlMs?: number }).ttlMs,
    };
  }

  private listPage<M extends ListMethod>(
    method: M,
    cursor: string | undefined,
    options: RequestOptions,
  ): Promise<ResultOf<M>> {
    return this.session.send(method, cursor === undefined ? undefined : { cursor }, options);
  }

  /** False (send nothing, return []) when the capability is missing and the option says `empty`. */
  private gateList(method: ListMethod): boolean {
    try {
      assertCapability(method, this.capabilities, this.protocolVersion, this.name);
      return true;
    } catch (error) {
      if (this.session.options.missingCapability === 'empty') return false;
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
      throw new OutputSchemaError(`tool "${name}" declares an outputSchema but returned no structuredContent`, {
        server: this.name,
        method: 'tools/call',
        tool: name,
      });
    }
    const dialect = hasFeature(this.protocolVersion, 'icons') ? '2020-12' : 'draft-07';
    // Where Ajv cannot run, the engine without code generation loads on the first output schema.
    // A failed load (a chunk the page could not fetch) is reported as a result that could not be checked.
    const ready = schemaEngineReady();
    if (ready)
      await ready.catch((error: unknown) => {
        throw new OutputSchemaError(
          `tool "${name}" has an outputSchema and the JSON Schema validator did not load: ${errorMessage(error)}`,
          { server: this.name, method: 'tools/call', tool: name, cause: error },
        );
      });
    checkStructuredContent(schema, result.structuredContent, dialect, this.name, name);
  }
}

/**
 * `McpServer`: the tools an application offers, and the one place requests are answered. It is
 * transport-free: `connect(transport)` serves one connection (stdio, an in-memory pair), the
 * Streamable HTTP handler serves requests one by one, and both end in `routeRequest`.
 */
import { McpError } from '../protocol/errors.js';
import type { Disposer, Transport } from '../protocol/transport.js';
import { LATEST_MODERN_REVISION } from '../protocol/revisions.js';
import type { CallToolResult, Implementation, JsonSchema, PromptArgument } from '../protocol/types.js';
import type { ArgumentsFor, StructuredFor, TypeFromSchema } from './from-schema.js';
import type { ServerCore } from './router/server-core.js';
import { stderrLogger } from './server-log.js';
import { ServerSession, type ServerSessionOptions } from './server-session.js';
import type { McpServerOptions, ServerLogger, ToolContext, ToolDefinition } from './server-types.js';
import { callTool } from './tools/tool-call.js';
import { ToolSet } from './tools/tool-set.js';
import { ResourceSet, type ResourceDefinition, type ResourceTemplateDefinition } from './resource-set.js';
import { PromptSet, type PromptArguments, type PromptDefinition } from './prompt-set.js';
import { TaskRuntime } from './tasks/task-runtime.js';
import { tasksExtension } from './tasks/tool-task.js';
import { ExtensionList } from './extensions/extension-list.js';
import { extensionFromDefinition, type ExtensionDefinition } from './extensions/extension-definition.js';
import { ChangeFeed } from './change-listeners.js';
import type { Change, ChangeList } from './state/change-bus.js';
import { resolveState } from './state/server-state.js';
import { SkillSet, type SkillRegistration } from './skills/skill-set.js';
import { skillsExtension } from './skills/skills-methods.js';
import type { SkillDefinition } from './skills/skill-entry.js';
import { appsPolicy } from './apps/app-only-tools.js';
import { appToolDefinition, type AppToolDefinition } from './apps/app-tool.js';
import { appResourceDefinition, type AppResourceDefinition } from './apps/app-resource.js';
import { AppRegistrations, appsExtension } from './apps/apps-extension.js';
import type { VisibilityOptions } from './visibility-types.js';

const DEFAULT_PAGE_SIZE = 100;
const OPTION_KEYS = new Set([
  'name',
  'version',
  'title',
  'instructions',
  'pageSize',
  'logger',
  'onToolCall',
  'stateSecret',
  'tasks',
  'extensions',
  'state',
  'description',
  'websiteUrl',
  'icons',
  'apps',
  'visibility',
]);
const TASK_OPTION_KEYS = ['ttlMs', 'pollIntervalMs', 'maxTasks', 'leaseMs'];
const LISTS: readonly ChangeList[] = ['tools', 'resources', 'prompts'];

/** An MCP server of tools, in both eras. */
export class McpServer {
  /** @internal What the router and the transport bindings read. */
  readonly core: ServerCore;
  private readonly sessions = new Set<ServerSession>();
  /** The server's one subscription to the change bus (resolves with its disposer). */
  private readonly subscription: Promise<Disposer>;
  private readonly disposers: Disposer[];
  private readonly apps = new AppRegistrations();

  /**
   * Throws `INVALID_ARGUMENT` for an unknown option key, a missing name or version, a bad `description`,
   * `websiteUrl`, `icons`, `pageSize`, `tasks`, `apps` or
   * `state` value, or a shared store without `state.stateSecret`.
   */
  constructor(options: McpServerOptions) {
    for (const key of Object.keys(options ?? {})) {
      if (!OPTION_KEYS.has(key)) throw new McpError('INVALID_ARGUMENT', `unknown McpServer option "${key}"`);
    }
    if (
      typeof options?.name !== 'string' ||
      options.name === '' ||
      typeof options.version !== 'string' ||
      options.version === ''
    ) {
      throw new McpError('INVALID_ARGUMENT', 'McpServer needs a non-empty "name" and "version"');
    }
    const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1)
      throw new McpError('INVALID_ARGUMENT', `McpServer option "pageSize" must be a positive integer`);
    const tasks = options.tasks ?? {};
    for (const key of Object.keys(tasks)) {
      if (!TASK_OPTION_KEYS.includes(key))
        throw new McpError('INVALID_ARGUMENT', `unknown McpServer option "tasks.${key}"`);
      const value = (tasks as Record<string, unknown>)[key];
      if (!Number.isInteger(value) || (value as number) < 1)
        throw new McpError('INVALID_ARGUMENT', `McpServer option "tasks.${key}" must be a positive integer`);
    }
    const state = resolveState(options.state, options.stateSecret, tasks.maxTasks);
    const logger = options.logger ?? stderrLogger;
    const info: Implementation = { name: options.name, version: options.version };
    if (options.title !== undefined) info.title = options.title;
    for (const key of ['description', 'websiteUrl'] as const) {
      const value = options[key];
      if (value === undefined) continue;
      if (typeof value !== 'string' || value === '')
        throw new McpError('INVALID_ARGUMENT', `McpServer option "${key}" must be a non-empty string`);
      info[key] = value;
    }
    if (options.icons !== undefined) {
      if (!Array.isArray(options.icons) || options.icons.some((icon) => typeof icon?.src !== 'string'))
        throw new McpError('INVALID_ARGUMENT', 'McpServer option "icons" must be a list of { src, … }');
      info.icons = options.icons;
    }
    const apps = appsPolicy(options.apps);
    const tools = new ToolSet();
    const extensions = new ExtensionList();
    extensions.add(tasksExtension(tools));
    const skills = new SkillSet(logger);
    extensions.add(skillsExtension(skills));
    extensions.add(appsExtension(this.apps));
    for (const [id, settings] of Object.entries(options.extensions ?? {}))
      extensions.add(extensionFromDefinition({ id, settings }));
    this.core = {
      info,
      instructions: options.instructions,
      pageSize,
      tools,
      resources: new ResourceSet(),
      prompts: new PromptSet(),
      changes: new ChangeFeed(),
      logger,
      onToolCall: options.onToolCall,
      inputState: state.inputState,
      extensions,
      tasks: new TaskRuntime(state.tasks, state.bus, state, logger, tasks),
      state,
      skills,
      apps,
      visibility: checkVisibility(options.visibility),
    };
    // What changes here goes round the bus, and comes back (with every other node's) as the feed.
    this.disposers = LISTS.map((list) => this.listOf(list)(() => this.publish({ type: 'list_changed', list })));
    this.subscription = state.bus
      .subscribe({ change: (change) => this.heard(change), resync: () => this.resync() })
      .catch((error: unknown) => {
        this.failed('the change bus refused a subscription', error);
        return () => undefined;
      });
  }

  /** This process's id among the nodes sharing the server's state. */
  get nodeId(): string {
    return this.core.state.nodeId;
  }

  /** The server's `name` and `version` (and `title`, `description`, `websiteUrl`, `icons`), as sent in `serverInfo`. */
  get info(): Implementation {
    return this.core.info;
  }

  /** The logger the server writes its own records to (stderr by default). */
  get logger(): ServerLogger {
    return this.core.logger;
  }

  /**
   * Offers a tool. Both schemas are compiled now, each by the dialect its `$schema` names
   * (draft-07, 2019-09, 2020-12; none is 2020-12): a bad schema or another dialect throws
   * `INVALID_ARGUMENT` here, not at the first call. Every legacy session and every
   * `subscriptions/listen` stream that asked for it is sent `notifications/tools/list_changed`.
   * Returns the disposer that withdraws it (with a `list_changed` again).
   *
   * Types: write `inputSchema` (and `outputSchema`) `as const` and the handler's arguments are
   * typed by the schema (`FromSchema`: `{ id: string; limit?: number }`), as is the
   * `structuredContent` it returns; a schema whose literal types are lost (a `JsonSchema` value)
   * gives `Record<string, unknown>` arguments and `unknown` structured content. Type arguments
   * (`registerTool<{ id: string }, { count: number }>`) state both instead.
   *
   * @example
   * server.registerTool({
   *   name: 'get_note',
   *   inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } as const,
   *   handler: async ({ id }) => ({ content: [{ type: 'text', text: await notes.text(id) }] }),
   * });
   */
  registerTool<
    Args = TypeFromSchema,
    Structured = TypeFromSchema,
    const InputSchema extends JsonSchema = JsonSchema,
    const OutputSchema extends JsonSchema | undefined = undefined,
  >(
    definition: ToolDefinition<ArgumentsFor<Args, InputSchema>, StructuredFor<Structured, OutputSchema>> & {
      inputSchema: InputSchema;
      outputSchema?: OutputSchema;
    },
  ): Disposer {
    return this.core.tools.add(definition as unknown as ToolDefinition);
  }

  /**
   * Offers a tool with an MCP App view (SEP-1865): `registerTool` plus `ui: { resourceUri,
   * visibility? }`, written to `_meta.ui` and to the deprecated flat `_meta["ui/resourceUri"]`
   * (hosts read either). A result with empty `content` and a `structuredContent` is sent with one
   * text block of that JSON (hosts without the view show the text). An app-only tool
   * (`visibility: ['app']`) is hidden from clients that cannot show apps unless
   * `apps.hideAppOnlyFromTextClients` is false. While any app tool or resource is offered, the
   * server advertises the ui extension. Throws `INVALID_ARGUMENT` as `registerTool` does, and for a
   * `resourceUri` that is not `ui://…` or a bad `visibility`. Returns the disposer that withdraws it.
   *
   * @example
   * server.registerAppTool({
   *   name: 'show_chart',
   *   inputSchema: { type: 'object', properties: { series: { type: 'string' } } } as const,
   *   ui: { resourceUri: 'ui://charts/view.html' },
   *   handler: async ({ series }) => ({ content: [], structuredContent: await points(series) }),
   * });
   */
  registerAppTool<
    Args = TypeFromSchema,
    Structured = TypeFromSchema,
    const InputSchema extends JsonSchema = JsonSchema,
    const OutputSchema extends JsonSchema | undefined = undefined,
  >(
    definition: AppToolDefinition<ArgumentsFor<Args, InputSchema>, StructuredFor<Structured, OutputSchema>> & {
      inputSchema: InputSchema;
      outputSchema?: OutputSchema;
    },
  ): Disposer {
    const tool = appToolDefinition(definition as unknown as AppToolDefinition);
    return this.apps.track(this.core.tools.add(tool));
  }

  /**
   * Offers the HTML of an MCP App view as a `ui://` resource of MIME type
   * `text/html;profile=mcp-app`; each content of a read carries `_meta.ui` with the `csp`,
   * `permissions`, `domain` and `prefersBorder` given. `listed: false` keeps it out of
   * `resources/list` (it is still read by its URI). Throws `INVALID_ARGUMENT` for a URI that is not
   * `ui://…`, one already taken, or a bad definition. Returns the disposer that withdraws it.
   */
  registerAppResource(definition: AppResourceDefinition): Disposer {
    return this.apps.track(this.core.resources.add(appResourceDefinition(definition)));
  }

  /**
   * Offers a resource. Throws `INVALID_ARGUMENT` for a URI already taken. Legacy sessions (and listen
   * streams that asked) hear `notifications/resources/list_changed`. Returns the disposer that withdraws it.
   */
  registerResource(definition: ResourceDefinition): Disposer {
    return this.core.resources.add(definition);
  }

  /**
   * Offers a resource template (`{name}` variables; a read of a URI no resource has goes to the
   * first template that matches it). Returns the disposer that withdraws it.
   */
  registerResourceTemplate(definition: ResourceTemplateDefinition): Disposer {
    return this.core.resources.addTemplate(definition);
  }

  /**
   * Offers a prompt. Throws `INVALID_ARGUMENT` for a name already taken. Legacy sessions (and listen
   * streams that asked) hear `notifications/prompts/list_changed`. Returns the disposer that withdraws it.
   * `get`'s arguments are typed by `arguments`: `[{ name: 'topic', required: true }, { name: 'tone' }]`
   * gives `{ topic: string; tone?: string }` (and `complete` takes those names).
   */
  registerPrompt<const Arguments extends readonly PromptArgument[] = readonly PromptArgument[]>(
    definition: PromptDefinition<PromptArguments<Arguments>> & { arguments?: Arguments },
  ): Disposer {
    return this.core.prompts.add(definition as unknown as PromptDefinition);
  }

  /**
   * Offers an extension (SEP-2133): advertised with its `settings` in the capabilities of its
   * eras from the next `initialize` / `server/discover` on, its `methods` answered after the
   * era's own. Throws `INVALID_ARGUMENT` for a malformed or already registered id. Returns the
   * disposer that withdraws it. Handlers read what the client declared in `context.extensions`.
   */
  registerExtension(definition: ExtensionDefinition): Disposer {
    return this.core.extensions.add(extensionFromDefinition(definition));
  }

  /**
   * Publishes a skill (the skills extension, SEP-2640): served at `skill://<prefix>/<name>/…`,
   * listed by `skills/list`, its files read through `resources/read` and its directories through
   * `resources/directory/read`; while any skill is registered the server advertises
   * `extensions["io.modelcontextprotocol/skills"] = { directoryRead: true }` and `resources` in
   * both eras. Without `files["SKILL.md"]` one is generated from `instructions` and
   * `frontmatter`. Throws `INVALID_ARGUMENT` for a bad name, prefix, description or file path, or
   * a skill URI already taken; a given `SKILL.md` stating another name or description is refused
   * when read (`ready` rejects with `INVALID_ARGUMENT`, and it is logged). Clients hear
   * `notifications/resources/list_changed` (skills have no list_changed of their own). Returns the
   * disposer that withdraws it; `ready` resolves with its entry once its digests are computed.
   */
  registerSkill(definition: SkillDefinition): SkillRegistration {
    return this.core.skills.add(definition);
  }

  /**
   * Publishes several skills (`skillsFromDirectory`'s result) as {@link registerSkill} does each;
   * a throw withdraws those already added. Returns the disposer that withdraws them all.
   */
  registerSkills(definitions: readonly SkillDefinition[]): Disposer {
    const added: Disposer[] = [];
    try {
      for (const definition of definitions) added.push(this.registerSkill(definition));
    } catch (error) {
      for (const dispose of added) dispose();
      throw error;
    }
    return () => {
      for (const dispose of added.splice(0)) dispose();
    };
  }

  /**
   * Tells clients that a list changed (`notifications/tools/list_changed`, … to legacy sessions and
   * listen streams that asked) when what they are shown changed without a registration: a
   * `visibility` decision that is no longer the same. Registrations send it themselves. Never throws.
   */
  notifyListChanged(list: 'tools' | 'resources' | 'prompts'): void {
    this.publish({ type: 'list_changed', list });
  }

  /**
   * Tells every client subscribed to `uri` that it changed (`notifications/resources/updated`):
   * legacy sessions that sent `resources/subscribe`, and 2026 `subscriptions/listen` streams that
   * name it in `resourceSubscriptions`. Never throws.
   */
  notifyResourceUpdated(uri: string): void {
    this.publish({ type: 'resource_updated', uri });
  }

  /**
   * Calls a registered tool in process, along the same path as a `tools/call` (arguments checked,
   * failures as `isError` results, output checked, `onToolCall` told), with no client: progress
   * and log messages go nowhere, and input requests reject with `INPUT_UNSUPPORTED`. Rejects with
   * `INVALID_ARGUMENT` for an unknown tool.
   */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: { signal?: AbortSignal } = {},
  ): Promise<CallToolResult> {
    const tool = this.core.tools.get(name);
    if (!tool) throw new McpError('INVALID_ARGUMENT', `unknown tool "${name}"`, { server: this.core.info.name });
    const context: ToolContext = {
      signal: options.signal ?? new AbortController().signal,
      era: 'modern',
      revision: LATEST_MODERN_REVISION,
      requestId: 'in-process',
      clientInfo: undefined,
      clientCapabilities: {},
      extensions: {},
      ui: undefined,
      progress: () => undefined,
      wantsProgress: false,
      log: () => undefined,
      elicit: () => Promise.reject(noClient('elicitation/create')),
      sample: () => Promise.reject(noClient('sampling/createMessage')),
      listRoots: () => Promise.reject(noClient('roots/list')),
      resumed: false,
      startTask: () => undefined,
      closeStream: () => undefined,
      taskId: undefined,
    };
    return callTool(tool, args, context, this.core.logger, this.core.onToolCall);
  }

  /**
   * Serves one connection over `transport` (stdio, an in-memory pair) until it closes, and
   * returns it: `session.closed` resolves when the connection is gone, `session.close()` ends it.
   */
  connect(transport: Transport, options: ServerSessionOptions = {}): ServerSession {
    const session = new ServerSession(this.core, transport, options);
    this.sessions.add(session);
    void session.closed.then(() => this.sessions.delete(session));
    return session;
  }

  /** Closes every connected session (calls in flight are aborted) and cancels every running task. Idempotent. */
  async close(): Promise<void> {
    for (const dispose of this.disposers.splice(0)) dispose();
    await this.core.tasks.cancelAll();
    await Promise.all([...this.sessions].map((session) => session.close()));
    (await this.subscription)();
  }

  private listOf(list: ChangeList): (listener: () => void) => Disposer {
    if (list === 'tools') return (listener) => this.core.tools.onChange(listener);
    if (list === 'resources')
      return (listener) => {
        const offResources = this.core.resources.changes.add(listener);
        const offSkills = this.core.skills.changes.add(listener);
        return () => {
          offResources();
          offSkills();
        };
      };
    return (listener) => this.core.prompts.changes.add(listener);
  }

  /** Never throws: a bus that is down loses the change (subscribers resync when it is back); it is logged. */
  private publish(change: Change): void {
    this.core.state.bus
      .publish(change)
      .catch((error: unknown) => this.failed('the change bus refused a change', error));
  }

  private heard(change: Change): void {
    if (change.type === 'task') this.core.tasks.changed(change.taskId);
    else this.core.changes.emit(change);
  }

  /** The bus may have lost changes: every list counts as changed, and this node's tasks re-read. */
  private resync(): void {
    this.core.tasks.resync();
    for (const list of LISTS) this.core.changes.emit({ type: 'list_changed', list });
  }

  private failed(msg: string, error: unknown): void {
    this.core.logger({ level: 'error', msg, error: error instanceof Error ? error.message : 'a non-Error value' });
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

function noClient(method: string): McpError {
  return new McpError('INPUT_UNSUPPORTED', 'there is no client to ask (an in-process call)', { method });
}

/** `options.visibility` checked: `tool`, `prompt` and `resource` functions only; `INVALID_ARGUMENT` otherwise. */
function checkVisibility(visibility: VisibilityOptions | undefined): VisibilityOptions | undefined {
  if (visibility === undefined) return undefined;
  if (visibility === null || typeof visibility !== 'object')
    throw new McpError('INVALID_ARGUMENT', 'McpServer option "visibility" must be an object');
  for (const [key, value] of Object.entries(visibility)) {
    if (key !== 'tool' && key !== 'prompt' && key !== 'resource')
      throw new McpError('INVALID_ARGUMENT', `unknown McpServer option "visibility.${key}"`);
    if (typeof value !== 'function')
      throw new McpError('INVALID_ARGUMENT', `McpServer option "visibility.${key}" must be a function`);
  }
  return visibility;
}

/**
 * `McpManager`: every configured server connected, supervised and exposed as one catalogue of
 * namespaced tools (`mcp__<server>__<tool>`). One instance per process through
 * {@link McpManager.getInstance}; {@link McpManager.create} makes isolated ones (tests, hosts
 * that run several agents). Servers start in parallel and one failing server never blocks the
 * others.
 */
import type { McpClient } from '../client/mcp-client.js';
import type { CallOptions, ClientOptions } from '../client/options.js';
import { Emitter } from '../protocol/emitter.js';
import { McpError } from '../protocol/errors.js';
import { scrubSecrets } from '../protocol/redact.js';
import type { Disposer } from '../protocol/transport.js';
import type { CallToolResult, Prompt, Resource, Tool } from '../protocol/types.js';
import { ApprovalStep } from './approval-step.js';
import { configFingerprint } from './config/fingerprint.js';
import { ConfigLoader } from './config/load-config.js';
import { watchConfigFiles, type ConfigWatch, type WatchOptions } from './config-watcher.js';
import { debugLogger, logCall, type DebugLogger } from './debug-log.js';
import { redactError } from './error-redaction.js';
import { differingOptions, normaliseManagerOptions } from './manager-options.js';
import { checkServerDefinition } from './server-definition.js';
import { toolAllowed, type ManagedServer } from './server-spec.js';
import { ServerSlot } from './server-slot.js';
import { slotOfName, unavailableToolError } from './unavailable-tool.js';
import { resultToText } from '../llm/result-text.js';
import type { PermissionPolicy, PermissionVerdict } from './permission-rules.js';
import { PermissionGate } from './permission-gate.js';
import { restoreSlots, saveSlots, type RestoreResult } from './saved-state.js';
import type { CatalogTool, ExecuteResult, ManagerEvents, ManagerOptions, ManagerState, ManagerStatus, ReconcileResult, ServerStatusReport } from './manager-types.js';

export type * from './manager-types.js';
import { ToolRegistry, type ToolAddress, type ToolRename } from './tool-registry.js';

/**
 * A stable identity of a server's effective definition (a hash: key order, provenance and
 * secrets do not count; a saved state can hold it without revealing expanded secrets). Equal
 * fingerprints mean a reload must not touch the connection.
 */
export function fingerprint(server: ManagedServer): string {
  return configFingerprint(server);
}

const SEPARATOR = '__';
let instance: McpManager | undefined;
/** The (normalised) options the singleton was created with, to refuse different ones later. */
let instanceOptions: ManagerOptions = {};

export class McpManager {
  private readonly slots = new Map<string, ServerSlot>();
  private readonly registry = new ToolRegistry();
  private readonly events = new Emitter<ManagerEvents>();
  private readonly clientOptions: ClientOptions;
  private readonly watches = new Set<ConfigWatch>();
  /** >0 while a reconcile runs: catalogue events are folded into one at its end. */
  private batching = 0;

  private readonly load: (() => Promise<ManagedServer[]>) | undefined;
  private readonly loader: ConfigLoader | undefined;
  private initialLoad: Promise<void> | undefined;
  /** What the last config load reported: broken files and entries (each names its file). */
  private configErrors: McpError[] = [];
  private configWarnings: string[] = [];

  private readonly approval: ApprovalStep;
  private readonly maxResultChars: number | undefined;
  private readonly gate: PermissionGate;
  private readonly log: DebugLogger | undefined;
  /** Exposed tool name → the server whose catalogue last held it (to explain calls while it is down). */
  private readonly lastOwner = new Map<string, string>();

  /** `options` must already be normalised ({@link normaliseManagerOptions}). */
  private constructor(options: ManagerOptions) {
    this.log = debugLogger(options.logger);
    this.clientOptions = options.client ?? {};
    this.maxResultChars = options.maxResultChars;
    this.gate = new PermissionGate(options.permissions ?? [], options.ask, options.hideDeniedTools === true);
    this.approval = new ApprovalStep({ approve: options.approve, requireApproval: options.requireApproval, approvals: options.approvals });
    if (options.config) {
      const loader = new ConfigLoader(options.config);
      this.loader = loader;
      this.load = async () => {
        const loaded = await loader.load();
        this.configErrors = loaded.errors;
        this.configWarnings = loaded.warnings;
        this.gate.setFileBlocks(loaded.permissions);
        return loaded.servers;
      };
      this.initialLoad = undefined;
    } else {
      this.load = options.load;
      this.initialLoad = Promise.resolve();
    }
    for (const server of options.servers ?? []) this.addServer(server);
  }

  /**
   * The process's manager: created by the first call, with its options. A later call without
   * options returns it; a later call with options returns it when they equal the first call's
   * (plain data by content, functions and stores by identity; `{ cwd }` equals `{ config: { cwd } }`)
   * and throws `INVALID_STATE` naming the keys that differ otherwise: options are never ignored
   * silently. Use {@link McpManager.create} for another manager, or {@link resetInstance} first.
   * Throws `INVALID_ARGUMENT` for an unknown option key (see {@link create}).
   */
  static getInstance(options?: ManagerOptions): McpManager {
    const normal = options === undefined ? undefined : normaliseManagerOptions(options);
    if (!instance) {
      instance = new McpManager(normal ?? {});
      instanceOptions = normal ?? {};
      return instance;
    }
    if (normal !== undefined) {
      const differing = differingOptions(instanceOptions, normal);
      if (differing.length > 0) {
        throw new McpError(
          'INVALID_STATE',
          `McpManager.getInstance: the process's manager already exists with other options (differing: ${differing.join(', ')}); call getInstance() without options to get it, McpManager.create(options) for a separate one, or resetInstance() first`,
        );
      }
    }
    return instance;
  }

  /**
   * An isolated manager, not the process's singleton. Throws `INVALID_ARGUMENT` naming the key
   * when `options` (or its `config` or `client`) has a key it does not know, and when `cwd` and
   * `config.cwd` disagree or `load` comes with `config`/`cwd`.
   */
  static create(options: ManagerOptions = {}): McpManager {
    return new McpManager(normaliseManagerOptions(options));
  }

  /** Forgets the singleton after disconnecting it (tests; a host that reloads from scratch). */
  static async resetInstance(): Promise<void> {
    const current = instance;
    instance = undefined;
    instanceOptions = {};
    await current?.disconnectAll();
  }

  /** Registers a listener; returns a disposer. */
  on<E extends keyof ManagerEvents>(event: E, listener: ManagerEvents[E]): Disposer {
    return this.events.on(event, listener);
  }

  /**
   * Adds (or replaces the definition of) a server; a replaced one is disconnected first. Rejects
   * as `McpManager.create` does for a definition of `servers` (unknown key: `INVALID_ARGUMENT`;
   * bad field: `CONFIG_INVALID`; both naming the server), before anything changes.
   */
  async setServer(server: ManagedServer): Promise<void> {
    checkServerDefinition(server, 'McpManager.setServer');
    await this.replaceServer(server);
  }

  /** setServer without the check (reconcile's definitions come from the config layer or `load`). */
  private async replaceServer(server: ManagedServer): Promise<void> {
    const old = this.slots.get(server.name);
    if (old) {
      await old.disconnect();
      this.dropTools(server.name);
    }
    this.addServer(server);
  }

  /** Disconnects and forgets a server. Unknown names are ignored. */
  async removeServer(name: string): Promise<void> {
    const slot = this.slots.get(name);
    if (!slot) return;
    this.slots.delete(name);
    await slot.disconnect();
    this.dropTools(name);
  }

  /** Names of every configured server, in configuration order. */
  listServers(): string[] {
    return [...this.slots.keys()];
  }

  /** The definition of a configured server, or undefined. */
  getServer(name: string): ManagedServer | undefined {
    return this.slots.get(name)?.spec;
  }

  /** Connects one server. Rejects with `INVALID_ARGUMENT` for an unknown name, or the connect error. */
  async connect(name: string): Promise<McpClient> {
    await this.ensureLoaded();
    return this.slot(name).connect();
  }

  /**
   * Reads the configuration (the `config` files or `load`) if that has not happened yet, without
   * connecting anything: `listServers()` and `getStatus()` then show every configured server.
   */
  async init(): Promise<void> {
    await this.ensureLoaded();
  }

  /** The config files this manager reads (empty without `config`), for watching. */
  configFiles(): string[] {
    return this.loader?.files() ?? [];
  }

  /** Reads the config files once, on first need. */
  private ensureLoaded(): Promise<void> {
    this.initialLoad ??= (async () => {
      for (const server of await this.load!()) this.addServer(server);
    })();
    return this.initialLoad;
  }

  /**
   * Connects every enabled server with `autoConnect` (default true), in parallel. Never rejects:
   * resolves with the servers that connected and those that failed (with their errors).
   */
  async connectAll(): Promise<{ connected: string[]; failed: Array<{ server: string; error: McpError }> }> {
    await this.ensureLoaded();
    const chosen = [...this.slots.values()].filter((slot) => slot.spec.enabled !== false && slot.spec.autoConnect !== false);
    const outcomes = await Promise.allSettled(chosen.map((slot) => slot.connect()));
    const connected: string[] = [];
    const failed: Array<{ server: string; error: McpError }> = [];
    outcomes.forEach((outcome, i) => {
      const server = chosen[i]!.spec.name;
      if (outcome.status === 'fulfilled') connected.push(server);
      else failed.push({ server, error: outcome.reason instanceof McpError ? outcome.reason : new McpError('TRANSPORT', String(outcome.reason), { server }) });
    });
    return { connected, failed };
  }

  /** Disconnects one server (its tools leave the catalogue). Unknown names reject with `INVALID_ARGUMENT`. */
  async disconnect(name: string): Promise<void> {
    await this.slot(name).disconnect();
    this.dropTools(name);
  }

  /** Disconnects every server and stops every config watch. Never rejects. */
  async disconnectAll(): Promise<void> {
    for (const watch of this.watches) watch.close();
    this.watches.clear();
    await Promise.allSettled([...this.slots.keys()].map((name) => this.disconnect(name)));
  }

  /** Disconnects and connects again (a new process for stdio). */
  async reconnect(name: string): Promise<McpClient> {
    await this.disconnect(name);
    return this.connect(name);
  }

  /**
   * The live connections: the client of every server that is connected now, in configuration
   * order (`client.name` is the server's name). Use {@link listServers} for names.
   */
  listConnections(): McpClient[] {
    return [...this.slots.values()].flatMap((slot) => (slot.status === 'connected' && slot.client ? [slot.client] : []));
  }

  /** The connected client of `name`, or undefined (unknown or not connected). */
  getConnection(name: string): McpClient | undefined {
    const slot = this.slots.get(name);
    return slot?.status === 'connected' ? slot.client : undefined;
  }

  /** True when `name` is connected, which means its tools are in the catalogue. */
  isConnected(name: string): boolean {
    return this.slots.get(name)?.status === 'connected';
  }

  /** Every tool of every connected server, namespaced, after the servers' include/exclude rules. */
  getAllTools(): CatalogTool[] {
    return this.gate.visible(this.registry.list());
  }

  /** The permission verdict for a tool name (exposed or canonical), without calling anything. */
  checkPermission(name: string): PermissionVerdict {
    return this.gate.rules.decide(this.subjectOf(name));
  }

  /**
   * Which rule from which file decides `name` (exposed, or canonical `mcp__server__tool` even
   * for a tool not connected yet), and every other rule that matches it.
   */
  explain(name: string): string {
    return this.gate.rules.explain(this.subjectOf(name));
  }

  /** The merged permission rules (config files, then the host's own). */
  permissionPolicy(): PermissionPolicy {
    return this.gate.rules;
  }

  /** The catalogue entry behind an exposed or canonical name, or undefined. */
  private entryOf(name: string): CatalogTool | undefined {
    const address = this.registry.resolveToolName(name);
    return address ? this.registry.list().find((tool) => tool.server === address.server && tool.tool === address.tool) : undefined;
  }

  private subjectOf(name: string): { server: string; tool: string; name?: string } {
    const entry = this.entryOf(name);
    if (entry) return { server: entry.server, tool: entry.tool, name: entry.name };
    const match = /^mcp__(.+?)__(.+)$/.exec(name);
    if (!match) throw new McpError('INVALID_ARGUMENT', `not a tool name: ${name} (expected mcp__<server>__<tool>)`);
    return { server: match[1]!, tool: match[2]! };
  }

  /**
   * Makes `tools` the catalogue entries of `server` (what a connect or a list change does; also
   * for hosts that feed tools of their own). Names of other servers' tools change only if a
   * clash appears or disappears. Emits `catalogChanged`.
   */
  registerServerTools(server: string, tools: readonly Tool[]): void {
    this.registry.register(server, tools);
    if (this.batching === 0) this.events.emit('catalogChanged');
  }

  /** Removes `server`'s tools from the catalogue; other servers' tools stay. */
  unregisterServerTools(server: string): void {
    this.dropTools(server);
  }

  /** The server and tool behind an exposed (or canonical `mcp__server__tool`) name, or undefined. */
  resolveToolName(name: string): ToolAddress | undefined {
    return this.registry.resolveToolName(name);
  }

  /** Every tool whose exposed name differs from `mcp__<server>__<tool>`, and why. */
  toolRenames(): ToolRename[] {
    return this.registry.renames();
  }

  /** Every resource of every connected server (servers without resources contribute none). */
  async getAllResources(): Promise<Array<Resource & { server: string }>> {
    return this.gather(async (client, server) => (client.capabilities.resources ? (await client.listResources()).map((r) => ({ ...r, server })) : []));
  }

  /** Every prompt of every connected server. */
  async getAllPrompts(): Promise<Array<Prompt & { server: string }>> {
    return this.gather(async (client, server) => (client.capabilities.prompts ? (await client.listPrompts()).map((p) => ({ ...p, server })) : []));
  }

  /**
   * Runs a catalogue tool for an agent: {@link callTool}, plus the result's text for the model
   * (cut at `maxResultChars`, default 100 000, with a clear marker; `result` keeps everything).
   * A tool's own failure (`isError`) resolves with `isError: true`; a call that could not be made
   * rejects as `callTool` does. A result the text cannot hold whole (structuredContent nested more
   * than 1000 levels deep) resolves too, its text saying what was left out and naming tool and server.
   */
  async execute(name: string, args?: Record<string, unknown>, options: CallOptions = {}): Promise<ExecuteResult> {
    const entry = this.entryOf(name);
    const result = await this.callTool(name, args, options);
    const source = `tool "${entry!.tool}" (server "${entry!.server}")`;
    const text = resultToText(result, this.maxResultChars !== undefined ? { maxChars: this.maxResultChars, source } : { source });
    return {
      name,
      server: entry!.server,
      tool: entry!.tool,
      result,
      content: result.content,
      structuredContent: result.structuredContent,
      isError: result.isError === true,
      text: text.text,
      truncated: text.truncated,
    };
  }

  /**
   * Calls a namespaced tool. Rejects before anything is sent with `INVALID_STATE` when the tool's
   * server is configured but not connected (in error, restarting, circuit open, not approved,
   * disconnected: the message says which, with its last error), and with `INVALID_ARGUMENT`
   * ("tool not found") for a name no server accounts for; otherwise as `McpClient.callTool`.
   * Whatever it rejects with holds none of the server's secrets (values from variables,
   * credential headers, secret-named env values): an echo of one in the server's message, error
   * data or stderr reads `***`; code, rpcCode and the cause chain are kept.
   */
  async callTool(name: string, args?: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    const entry = this.entryOf(name);
    if (!entry) throw this.notCallable(name);
    const slot = this.slots.get(entry.server);
    const secrets = slot?.secrets ?? [];
    try {
      await this.gate.authorize(entry, args, options.signal);
      const client = slot?.status === 'connected' ? slot.client : undefined;
      if (!slot || !client) throw slot ? unavailableToolError(name, slot) : this.notCallable(name);
      const timeout = slot.spec.toolTimeoutMs;
      const call = client.callTool(entry.tool, args, timeout !== undefined && options.timeoutMs === undefined ? { ...options, timeoutMs: timeout } : options);
      return await (this.log ? logCall(this.log, call, { name, server: entry.server, tool: entry.tool, args, secrets }) : call);
    } catch (error) {
      // A server may echo its credential back (`bad token Bearer sk-…`): never hand that on.
      throw redactError(error, secrets);
    }
  }

  /** Why `name` cannot be called: its server's state, or "tool not found". */
  private notCallable(name: string): McpError {
    const slot = slotOfName(name, this.slots, this.lastOwner.get(name));
    if (slot && slot.status !== 'connected') return unavailableToolError(name, slot);
    return new McpError('INVALID_ARGUMENT', `tool not found: ${name}`, { method: 'tools/call' });
  }

  /**
   * Makes `servers` the configuration (hot reload): a server whose effective definition changed
   * is replaced (disconnected, and connected again if it was live or should auto-connect); an
   * unchanged one keeps its connection untouched (same process); removed ones are disconnected
   * and their tools leave the catalogue; added ones connect (when enabled and auto-connecting).
   * Emits one `catalogChanged` at the end. Never rejects: per-server failures are in the result
   * (and in `getStatus()`).
   */
  async reconcile(servers: ManagedServer[]): Promise<ReconcileResult> {
    const next = new Map(servers.map((server) => [server.name, server]));
    const result: ReconcileResult = { added: [], removed: [], changed: [], unchanged: [], failed: [] };
    this.batching++;
    try {
      for (const name of [...this.slots.keys()]) {
        if (!next.has(name)) {
          result.removed.push(name);
          await this.removeServer(name);
        }
      }
      const starts: Array<Promise<void>> = [];
      for (const server of servers) {
        const slot = this.slots.get(server.name);
        if (slot && fingerprint(slot.spec) === fingerprint(server)) {
          result.unchanged.push(server.name);
          slot.spec.provenance = server.provenance; // where it is defined may move without a restart
          continue;
        }
        const wasLive = slot !== undefined && (slot.status === 'connected' || slot.status === 'connecting');
        (slot ? result.changed : result.added).push(server.name);
        await this.replaceServer(server);
        if (server.enabled !== false && (wasLive || server.autoConnect !== false)) {
          starts.push(
            this.connect(server.name).then(
              () => undefined,
              (error: unknown) => void result.failed.push({ server: server.name, error: error instanceof McpError ? error : new McpError('TRANSPORT', String(error), { server: server.name }) }),
            ),
          );
        }
      }
      await Promise.all(starts);
    } finally {
      this.batching--;
    }
    this.events.emit('catalogChanged');
    return result;
  }

  /**
   * Reloads (see {@link reloadConfig}) whenever one of `files` changes, debounced; survives
   * editors that replace files. Each reload's outcome is reported through the `reload` event:
   * `result` is what was applied; `error` is set when a config file or entry is broken (a
   * malformed `.mcp.json`: that file's last good contents stay in force) or the reload failed.
   * Returns a disposer that stops watching (also done by {@link disconnectAll}'s caller: call it).
   */
  watchConfig(files: readonly string[], options: WatchOptions = {}): Disposer {
    let running: Promise<unknown> = Promise.resolve();
    const watch = watchConfigFiles(
      files,
      (changed) => {
        // Reloads run one after another: a save during a reload gets its own pass afterwards.
        running = running.then(async () => {
          try {
            const result = await this.reloadConfig();
            const error = configProblem(this.configErrors);
            this.events.emit('reload', error ? { files: changed, result, error } : { files: changed, result });
          } catch (error) {
            this.events.emit('reload', { files: changed, error: error instanceof McpError ? error : new McpError('CONFIG_INVALID', String(error)) });
          }
        });
      },
      options,
    );
    this.watches.add(watch);
    return () => {
      watch.close();
      this.watches.delete(watch);
    };
  }

  /**
   * Reads the configuration again (the `load` option) and {@link reconcile}s to it. Rejects with
   * `INVALID_STATE` when the manager has no `load`, or with the loader's error (nothing changes).
   */
  async reloadConfig(): Promise<ReconcileResult> {
    if (!this.load) throw new McpError('INVALID_STATE', 'this manager has no config loader to reload from (ManagerOptions.load or .config)');
    const servers = await this.load();
    this.initialLoad ??= Promise.resolve();
    return this.reconcile(servers);
  }

  /** A serialisable record of which servers are connected (and their eras), for {@link restoreState}. */
  saveState(): ManagerState {
    return saveSlots(this.slots.values());
  }

  /**
   * Reconnects the servers a {@link saveState} record says were connected, pinned to the revision
   * they spoke (no era probe) when their definition is unchanged. Unknown servers are skipped.
   */
  restoreState(state: ManagerState): Promise<RestoreResult> {
    return restoreSlots(state, (name) => this.slots.get(name));
  }

  /** Status of every configured server, with provenance. */
  getStatus(): ManagerStatus {
    const servers = [...this.slots.values()].map((slot): ServerStatusReport => {
      const client = slot.status === 'connected' ? slot.client : undefined;
      return {
        name: slot.spec.name,
        status: slot.status,
        transport: slot.spec.transport,
        enabled: slot.spec.enabled !== false,
        era: client?.era,
        protocolVersion: client?.protocolVersion,
        toolCount: this.registry.list().filter((tool) => tool.server === slot.spec.name).length,
        lastError: slot.lastError ? scrubSecrets(slot.lastError.message, slot.secrets) : undefined,
        restarts: slot.restarts,
        circuitOpen: slot.circuitOpen,
        invalidMessages: slot.invalidMessages,
        provenance: slot.spec.provenance,
      };
    });
    return {
      configuredServers: servers.length,
      connectedServers: servers.filter((s) => s.status === 'connected').length,
      servers,
      configErrors: this.configErrors.map((e) => e.message),
      configWarnings: [...this.configWarnings, ...this.gate.rules.unreachable({ servers: [...this.slots.keys()] }).map((u) => u.reason)],
    };
  }

  // ---- internals ----

  private addServer(server: ManagedServer): void {
    if (server.name.includes(SEPARATOR)) throw new McpError('CONFIG_INVALID', `server name must not contain "${SEPARATOR}" (it separates namespaced tool names)`, { server: server.name });
    this.slots.set(
      server.name,
      new ServerSlot(server, {
        clientOptions: this.clientOptions,
        approve: (spec) => this.approval.approved(spec),
        changed: (change) => {
          if (change.status !== 'connected') this.dropTools(change.server);
          this.events.emit('status', change);
        },
        listTools: (spec, client) => this.catalogueOf(spec, client),
        publishTools: (name, tools) => this.registerServerTools(name, tools),
        toolsChanged: (name) => this.refreshTools(name),
        diagnostic: (name, diagnostic) => this.events.emit('diagnostic', { server: name, diagnostic }),
        log: this.log,
      }),
    );
  }

  private slot(name: string): ServerSlot {
    const slot = this.slots.get(name);
    if (!slot) throw new McpError('INVALID_ARGUMENT', `unknown server "${name}" (configured: ${[...this.slots.keys()].join(', ') || 'none'})`);
    return slot;
  }

  /** The tools of `client` the catalogue holds for `spec` (its include/exclude rules applied). */
  private async catalogueOf(spec: ManagedServer, client: McpClient): Promise<Tool[]> {
    const tools = client.capabilities.tools ? await client.listTools({ refresh: true }) : [];
    return tools.filter((tool) => toolAllowed(spec, tool.name));
  }

  private async refreshTools(name: string): Promise<void> {
    const slot = this.slots.get(name);
    const client = slot?.client;
    if (!slot || !client || slot.status !== 'connected') return;
    let tools: Tool[];
    try {
      tools = await this.catalogueOf(slot.spec, client);
    } catch {
      return; // the slot's status reports a broken connection; nothing to catalogue
    }
    if (slot.client !== client || slot.status !== 'connected') return;
    this.registerServerTools(name, tools);
  }

  private dropTools(name: string): void {
    for (const tool of this.registry.list()) if (tool.server === name) this.lastOwner.set(tool.name, name);
    if (this.registry.unregister(name) && this.batching === 0) this.events.emit('catalogChanged');
  }

  private async gather<T>(read: (client: McpClient, server: string) => Promise<T[]>): Promise<T[]> {
    const connected = [...this.slots.values()].filter((slot) => slot.status === 'connected' && slot.client);
    const lists = await Promise.allSettled(connected.map((slot) => read(slot.client!, slot.spec.name)));
    return lists.flatMap((list) => (list.status === 'fulfilled' ? list.value : []));
  }
}

/** One error for the problems of a config load (each names its file), or undefined when there were none. */
function configProblem(errors: readonly McpError[]): McpError | undefined {
  if (errors.length <= 1) return errors[0];
  return new McpError('CONFIG_INVALID', `${errors.length} config problems: ${errors.map((e) => e.message).join('; ')}`, { cause: errors[0] });
}

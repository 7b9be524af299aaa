/**
 * `McpManager`: every configured server connected, supervised and exposed as one catalogue of
 * namespaced tools (`mcp__<server>__<tool>`). One instance per process through
 * {@link McpManager.getInstance}; {@link McpManager.create} makes isolated ones (tests, hosts
 * that run several agents). Servers start in parallel and one failing server never blocks the
 * others.
 */
import type { Skill } from '../protocol/extensions/skills-types.js';
import type { SkillFile } from '../client/skills/skills-api.js';
import type { McpClient } from '../client/mcp-client.js';
import type { CallOptions, ClientOptions } from '../client/options.js';
import { Emitter } from '../util/emitter.js';
import { McpError } from '../protocol/errors.js';
import type { Disposer } from '../protocol/transport.js';
import type { CallToolResult, Prompt, Resource, Tool } from '../protocol/types.js';
import { ApprovalStep } from './permissions/approval-step.js';
import { ConfigSource } from './config/config-source.js';
import { Catalogue } from './catalogue/catalogue.js';
import { modelVisibleTools } from './catalogue/server-tools.js';
import { configFingerprint } from './config/fingerprint.js';
import type { ConfigWatch, WatchOptions } from './config/config-watcher.js';
import { debugLogger, type DebugLogger } from './debug-log.js';
import {
  differingOptions,
  managedClientOptions,
  normaliseManagerOptions,
  type NormalOptions,
} from './manager-options.js';
import type {
  CatalogTool,
  ExecuteResult,
  ManagerEvents,
  ManagerOptions,
  ManagerState,
  ManagerStatus,
  ReconcileResult,
} from './manager-types.js';
import { PermissionGate } from './permissions/permission-gate.js';
import type { PermissionPolicy, PermissionVerdict } from './permissions/permission-rules.js';
import { reconcileServers, reloadOnChange } from './servers/reconcile.js';
import { restoreSlots, saveSlots, type RestoreResult } from './servers/saved-state.js';
import { checkServerDefinition } from './servers/check-definition.js';
import type { ManagedServer, ServerDefinition } from './servers/managed-server.js';
import { ServerSlots, type ConnectAllResult } from './servers/server-slots.js';
import { statusReport } from './servers/status-report.js';
import type { ToolAddress, ToolRename } from './catalogue/tool-registry.js';
import { callCatalogueTool, executeCatalogueTool, type CallContext } from './catalogue/tool-calls.js';

export type {
  CatalogTool,
  ExecuteResult,
  ManagerEvents,
  ManagerOptions,
  ManagerState,
  ManagerStatus,
  NeedsAuthEvent,
  PermissionRequest,
  ReconcileResult,
  ServerStatusReport,
} from './manager-types.js';

/**
 * A stable identity of a server's effective definition (a hash: key order, provenance and
 * secrets do not count; a saved state can hold it without revealing expanded secrets). Equal
 * fingerprints mean a reload must not touch the connection.
 */
export function fingerprint(server: ManagedServer): string {
  return configFingerprint(server);
}

/**
 * The process's manager ({@link McpManager.getInstance}). Module-level on purpose: the parts of
 * one host process — its agent loop, its `/mcp` commands, its workflow steps — share one set of
 * server processes and one catalogue instead of each starting its own. Tests and hosts that run
 * isolated agents use {@link McpManager.create}.
 */
let instance: McpManager | undefined;
/** The (normalised) options the singleton was created with, to refuse different ones later. */
let instanceOptions: NormalOptions = {};

export class McpManager {
  private readonly slots: ServerSlots;
  private readonly events = new Emitter<ManagerEvents>();
  private readonly catalogue = new Catalogue(() => this.events.emit('catalogChanged'));
  private readonly clientOptions: ClientOptions;
  private readonly watches = new Set<ConfigWatch>();
  /** Set by the first {@link close}: what every later call returns. */
  private closing: Promise<void> | undefined;

  private readonly source: ConfigSource;
  private readonly approval: ApprovalStep;
  private readonly maxResultChars: number | undefined;
  private readonly gate: PermissionGate;
  private readonly log: DebugLogger | undefined;
  /** What tool calls need of this manager. */
  private readonly calls: CallContext;

  /** `options` must already be normalised ({@link normaliseManagerOptions}). */
  private constructor(options: NormalOptions) {
    this.log = debugLogger(options.logger);
    this.clientOptions = managedClientOptions(options);
    this.maxResultChars = options.maxResultChars;
    this.gate = new PermissionGate(options.permissions ?? [], options.ask, options.hideDeniedTools === true);
    this.approval = new ApprovalStep({
      approve: options.approve,
      requireApproval: options.requireApproval,
      approvals: options.approvals,
    });
    this.source = new ConfigSource(options, (blocks) => this.gate.setFileBlocks(blocks));
    this.slots = new ServerSlots({
      clientOptions: this.clientOptions,
      catalogue: this.catalogue,
      events: this.events,
      approval: this.approval,
      log: this.log,
      loginOptions: { onAuthorizationUrl: options.onAuthorizationUrl, tokenStore: options.tokenStore },
      leftOut: () => this.source.leftOut(),
    });
    this.calls = {
      catalogue: this.catalogue,
      slots: this.slots,
      gate: this.gate,
      log: this.log,
      leftOut: () => this.source.leftOut(),
    };
    for (const server of options.servers ?? []) this.slots.add(server);
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

  /** Forgets the singleton after closing it ({@link close}; tests, a host that reloads from scratch). */
  static async resetInstance(): Promise<void> {
    await instance?.close();
    instance = undefined;
    instanceOptions = {};
  }

  /** Registers a listener; returns a disposer. */
  on<E extends keyof ManagerEvents>(event: E, listener: ManagerEvents[E]): Disposer {
    return this.events.on(event, listener);
  }

  /**
   * Adds (or replaces the definition of) a server; a replaced one is disconnected first. Rejects
   * as `McpManager.create` does for a definition of `servers` (unknown key: `INVALID_ARGUMENT`;
   * bad field: `CONFIG_INVALID`; both naming the server), before anything changes, and with
   * `INVALID_STATE` once the manager is closed.
   */
  async setServer(server: ServerDefinition): Promise<void> {
    const checked = checkServerDefinition(server, 'McpManager.setServer');
    this.refuseIfClosed('setServer');
    await this.replaceServer(checked);
  }

  /** setServer without the check (reconcile's definitions come from the config layer or `load`). */
  private async replaceServer(server: ManagedServer): Promise<void> {
    const old = this.slots.get(server.name);
    if (old) {
      await old.disconnect();
      this.catalogue.drop(server.name);
    }
    this.slots.add(server);
  }

  /** Disconnects and forgets a server. Unknown names are ignored. */
  async removeServer(name: string): Promise<void> {
    const slot = this.slots.get(name);
    if (!slot) return;
    this.slots.delete(name);
    await slot.disconnect();
    this.catalogue.drop(name);
  }

  /** Names of every configured server, in configuration order. */
  listServers(): string[] {
    return [...this.slots.keys()];
  }

  /** The definition of a configured server, or undefined. */
  getServer(name: string): ManagedServer | undefined {
    return this.slots.get(name)?.spec;
  }

  /**
   * Connects one server. Rejects with `INVALID_ARGUMENT` for an unknown name (naming the
   * configured servers and the nearest one), `INVALID_STATE` once the manager is closed, or the
   * connect error.
   */
  async connect(name: string): Promise<McpClient> {
    this.refuseIfClosed('connect');
    await this.ensureLoaded();
    this.refuseIfClosed('connect');
    return this.slots.require(name).connect();
  }

  /**
   * Logs in to one server and connects it: what `/mcp auth NAME` runs for a server in
   * `needs-auth` (or any URL server whose login should be renewed). Whatever runs is closed, then
   * the connect may show an OAuth login through {@link ManagerOptions.onAuthorizationUrl} (and
   * waits for the user, outside the connect timeout; `signal` abandons it) or runs the server's
   * `headersHelper` again. Other servers are untouched. Rejects with `INVALID_ARGUMENT` for an
   * unknown name, or the connect error (`AUTH_REQUIRED` leaves it in `needs-auth`; without
   * `onAuthorizationUrl` only a stored login can answer, and the error says where to log in).
   */
  async login(name: string, options: { signal?: AbortSignal } = {}): Promise<McpClient> {
    this.refuseIfClosed('login');
    await this.ensureLoaded();
    this.refuseIfClosed('login');
    return this.slots.login(name, options.signal);
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
    return this.source.files();
  }

  /** Reads the config files once, on first need. */
  private ensureLoaded(): Promise<void> {
    return this.source.ensureLoaded((server) => this.slots.add(server));
  }

  /**
   * Connects every enabled server with `autoConnect` (default true), in parallel. Resolves with
   * the servers that connected and those that failed (with their errors); rejects only with
   * `INVALID_STATE` once the manager is closed.
   */
  async connectAll(): Promise<ConnectAllResult> {
    this.refuseIfClosed('connectAll');
    await this.ensureLoaded();
    this.refuseIfClosed('connectAll');
    return this.slots.connectEach();
  }

  /** Disconnects one server (its tools leave the catalogue). Unknown names reject with `INVALID_ARGUMENT`. */
  async disconnect(name: string): Promise<void> {
    await this.slots.require(name).disconnect();
    this.catalogue.drop(name);
  }

  /**
   * Disconnects every server and stops every config watch; the manager stays usable (`connect`,
   * `connectAll` start servers again). Never rejects. See {@link close} to be done with it.
   */
  async disconnectAll(): Promise<void> {
    for (const watch of this.watches) watch.close();
    this.watches.clear();
    await Promise.allSettled([...this.slots.keys()].map((name) => this.disconnect(name)));
  }

  /**
   * Closes the manager for good, gracefully: config watches stop, pending restarts are cancelled,
   * a connect under way is waited for and then closed, and every server is closed (a stdio
   * server's process ends: stdin closed, then SIGTERM, then SIGKILL). Idempotent: every call
   * returns the first call's promise; never rejects. Afterwards `connect`, `connectAll`, `login`,
   * `setServer` and `restoreState` reject with `INVALID_STATE`. Closing the process's manager
   * ({@link getInstance}) also forgets it, so a later `getInstance` makes a new one.
   * `await using manager = McpManager.create(…)` calls it at scope end.
   */
  close(): Promise<void> {
    if (instance === this) {
      instance = undefined;
      instanceOptions = {};
    }
    this.closing ??= this.disconnectAll();
    return this.closing;
  }

  /** `await using manager = McpManager.create(…)`: {@link close} at scope end. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Throws `INVALID_STATE` naming `method` once {@link close} was called. */
  private refuseIfClosed(method: string): void {
    if (this.closing)
      throw new McpError(
        'INVALID_STATE',
        `McpManager.${method}: this manager is closed (close() was called); McpManager.create() or getInstance() makes a new one`,
      );
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
    return this.slots.clients();
  }

  /** The connected client of `name`, or undefined (unknown or not connected). */
  getConnection(name: string): McpClient | undefined {
    return this.slots.get(name)?.connectedClient();
  }

  /** True when `name` is connected, which means its tools are in the catalogue. */
  isConnected(name: string): boolean {
    return this.slots.get(name)?.snapshot().status === 'connected';
  }

  /**
   * Every tool of every connected server, namespaced, after the servers' include/exclude rules;
   * never an app-only tool (`_meta.ui.visibility` without `model`: only the server's own MCP App
   * may call it, through `getConnection(server).callTool`).
   */
  getAllTools(): CatalogTool[] {
    return this.gate.visible(this.catalogue.list());
  }

  /** The permission verdict for a tool name (exposed or canonical), without calling anything. */
  checkPermission(name: string): PermissionVerdict {
    return this.gate.rules.decide(this.catalogue.subjectOf(name));
  }

  /**
   * Which rule from which file decides `name` (exposed, or canonical `mcp__server__tool` even
   * for a tool not connected yet), and every other rule that matches it.
   */
  explain(name: string): string {
    return this.gate.rules.explain(this.catalogue.subjectOf(name));
  }

  /** The merged permission rules (config files, then the host's own). */
  permissionPolicy(): PermissionPolicy {
    return this.gate.rules;
  }

  /**
   * Makes `tools` the catalogue entries of `server` (what a connect or a list change does; also
   * for hosts that feed tools of their own). Names of other servers' tools change only if a
   * clash appears or disappears. App-only tools (`_meta.ui.visibility` without `model`) are left
   * out, as a connect leaves them out. Emits `catalogChanged`.
   */
  registerServerTools(server: string, tools: readonly Tool[]): void {
    this.catalogue.publish(server, modelVisibleTools(tools));
  }

  /** Removes `server`'s tools from the catalogue; other servers' tools stay. */
  unregisterServerTools(server: string): void {
    this.catalogue.drop(server);
  }

  /** The server and tool behind an exposed (or canonical `mcp__server__tool`) name, or undefined. */
  resolveToolName(name: string): ToolAddress | undefined {
    return this.catalogue.resolve(name);
  }

  /** Every tool whose exposed name differs from `mcp__<server>__<tool>`, and why. */
  toolRenames(): ToolRename[] {
    return this.catalogue.renames();
  }

  /** Every resource of every connected server (servers without resources contribute none). */
  async getAllResources(): Promise<Array<Resource & { server: string }>> {
    return this.slots.gather(async (client, server) =>
      client.capabilities.resources ? (await client.listResources()).map((r) => ({ ...r, server })) : [],
    );
  }

  /** Every prompt of every connected server. */
  async getAllPrompts(): Promise<Array<Prompt & { server: string }>> {
    return this.slots.gather(async (client, server) =>
      client.capabilities.prompts ? (await client.listPrompts()).map((p) => ({ ...p, server })) : [],
    );
  }

  /**
   * Every skill of every connected server that publishes skills (SEP-2640), each with its
   * server's name; entries a server listed against the rules are left out. Reads no skill file.
   */
  async getAllSkills(): Promise<Array<Skill & { server: string }>> {
    return this.slots.gather(async (client, server) =>
      client.skills.supported ? (await client.skills.list()).skills.map((s) => ({ ...s, server })) : [],
    );
  }

  /**
   * One file of a skill of `server`, verified against its entry (`client.skills.read`): rejects
   * with `INVALID_STATE` when `server` is not connected, `SKILL_REJECTED` when the file does not
   * match or is not listed. A skill of one server never causes a read on another.
   */
  async readSkill(server: string, uri: string, options: CallOptions = {}): Promise<SkillFile> {
    const client = this.getConnection(server);
    if (!client) throw new McpError('INVALID_STATE', `server "${server}" is not connected`, { server });
    return client.skills.read(uri, options);
  }

  /**
   * Runs a catalogue tool for an agent: {@link callTool}, plus the result's text for the model
   * (cut at `maxResultChars`, default 100 000, with a clear marker; `result` keeps everything).
   * A tool's own failure (`isError`) resolves with `isError: true`; a call that could not be made
   * rejects as `callTool` does. A result the text cannot hold whole (structuredContent nested more
   * than 1000 levels deep) resolves too, its text saying what was left out and naming tool and server.
   */
  async execute(name: string, args?: Record<string, unknown>, options: CallOptions = {}): Promise<ExecuteResult> {
    return executeCatalogueTool(this.calls, name, args, options, this.maxResultChars);
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
    return callCatalogueTool(this.calls, name, args, options);
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
    const target = {
      slots: this.slots,
      removeServer: (name: string) => this.removeServer(name),
      replaceServer: (server: ManagedServer) => this.replaceServer(server),
      connect: (name: string) => this.connect(name),
    };
    return this.catalogue.batch(() => reconcileServers(target, servers));
  }

  /**
   * Reloads (see {@link reloadConfig}) whenever one of `files` changes, debounced; survives
   * editors that replace files. Each reload's outcome is reported through the `reload` event:
   * `result` is what was applied; `error` is set when a config file or entry is broken (a
   * malformed `.mcp.json`: that file's last good contents stay in force) or the reload failed.
   * Returns a disposer that stops watching (also done by {@link disconnectAll} and {@link close}).
   * Throws `INVALID_STATE` once the manager is closed.
   */
  watchConfig(files: readonly string[], options: WatchOptions = {}): Disposer {
    this.refuseIfClosed('watchConfig');
    const watch = reloadOnChange(files, options, {
      reload: () => this.reloadConfig(),
      configErrors: () => this.source.errors,
      report: (outcome) => this.events.emit('reload', outcome),
    });
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
    if (!this.source.reloadable)
      throw new McpError(
        'INVALID_STATE',
        'this manager has no config loader to reload from (ManagerOptions.load or .config)',
      );
    return this.reconcile(await this.source.reload());
  }

  /** A serialisable record of which servers are connected (and their eras), for {@link restoreState}. */
  saveState(): ManagerState {
    return saveSlots(this.slots.values());
  }

  /**
   * Reconnects the servers a {@link saveState} record says were connected, with the era they spoke
   * as a hint (no era probe; a server that changed era is probed) when their definition is
   * unchanged. Unknown servers are skipped.
   */
  async restoreState(state: ManagerState): Promise<RestoreResult> {
    this.refuseIfClosed('restoreState');
    return restoreSlots(state, (name) => this.slots.get(name));
  }

  /** Status of every configured server, with provenance. */
  getStatus(): ManagerStatus {
    const unreachable = this.gate.rules.unreachable({ servers: [...this.slots.keys()] }).map((u) => u.reason);
    return statusReport(this.slots.values(), this.catalogue, {
      errors: this.source.errors.map((e) => e.message),
      warnings: [...this.source.warnings, ...unreachable],
    });
  }
}

/**
 * The public types of {@link McpManager}: its options, what it reports (catalogue entries,
 * status, reconcile outcomes, saved state, execute results) and its events. Kept apart from the
 * class so the class file holds behaviour only.
 */
import type { OAuthOptions } from '../auth/auth-options.js';
import type { TokenStore } from '../auth/token-store.js';
import type { ClientOptions } from '../client/options.js';
import type { McpError } from '../protocol/errors.js';
import type { Era, ProtocolRevision } from '../protocol/revisions.js';
import type { TransportDiagnostic } from '../protocol/transport.js';
import type { CallToolResult, Tool } from '../protocol/types.js';
import type { ApprovalStore } from './permissions/approval-store.js';
import type { ConfigOptions } from './config/load-config.js';
import type { HostId } from './config/hosts/host-table.js';
import type { PermissionBlock } from './permissions/permission-block.js';
import type { PermissionAskHook, PermissionAskRequest } from './permissions/permission-rules.js';
import type { DebugLogger } from './debug-log.js';
import type { ManagedServer, Provenance, ServerDefinition } from './servers/managed-server.js';
import type { ServerStatus, StatusChange } from './servers/slot-state.js';

/** Options of a manager. */
export interface ManagerOptions {
  /**
   * The servers to manage (the config layer's output, or objects of your own, read by the rules of a
   * config file entry: `transport` may be left out (a `command` means stdio, a `url` http), an
   * unknown key is `INVALID_ARGUMENT`, a bad field `CONFIG_INVALID`, naming the server).
   */
  servers?: ServerDefinition[];
  /** Options every client gets (handlers, timeouts, clientInfo); per-server values win. */
  client?: ClientOptions;
  /**
   * This host renders MCP Apps (SEP-1865): every managed client declares the ui extension
   * (`EXTENSION_IDS.ui` with `mimeTypes: [UI_MIME_TYPE]`), so servers may offer their `ui://`
   * views. Default false: nothing is declared. Either way, app-only tools (`_meta.ui.visibility`
   * without `model`) stay out of the catalogue ({@link McpManager.getAllTools}, `execute`, the LLM
   * exports); the server's client (`getConnection(name)`) still lists and calls them for its app.
   */
  apps?: boolean;
  /**
   * Where the configuration comes from, for {@link McpManager.reloadConfig} and `/mcp reload`
   * (the config layer: read, expand, validate, merge the files). Without it, reload is refused.
   */
  load?: () => Promise<ManagedServer[]>;
  /**
   * Read the layered config files (user, project, explicit, inline); `servers` are added to them,
   * `load` cannot come with it. The files are read by the first `init()`, `connectAll()`,
   * `connect()` or `reloadConfig()`.
   */
  config?: ConfigOptions;
  /**
   * Servers other hosts have configured (Claude Desktop, Claude Code, Cursor, VS Code, Codex, …: see
   * `HOSTS`) join the lowest config layer under namespaced names (`cursor:fs`, `codex:docs`): `true`
   * for every host, or a list of host ids. Short for `config: { hosts }`; the config files are then
   * read as with `config`. Entries mcpwire cannot run as their host would are left out with a config
   * warning naming file, server and reason. Default off: nothing of other hosts is read.
   */
  importHosts?: boolean | HostId[];
  /**
   * The project directory whose config files are read together with the user's: short for
   * `config: { cwd }` (`McpManager.getInstance({ cwd: process.cwd() })`). Must not disagree with
   * `config.cwd`.
   */
  cwd?: string;
  /**
   * Decides whether an untrusted (project-defined) server may start. Decisions are remembered in
   * `approvals` when given (keyed by file, name and definition: an edited server asks again).
   * Without a hook or a stored decision, untrusted servers do not start (`not-approved`) unless
   * `requireApproval` is `false`.
   */
  approve?: (server: ManagedServer) => boolean | Promise<boolean>;
  /**
   * Refuse untrusted servers that no hook or stored decision approved (default `true`: a cloned
   * repository's `.mcp.json` can name any command, so it does not run unasked). `false` starts them
   * without asking, for hosts that trust the project directory themselves.
   */
  requireApproval?: boolean;
  /** Where approval decisions persist (e.g. `new ApprovalStore()`: `~/.mcpwire/approvals.json`). */
  approvals?: ApprovalStore;
  /** Cap of the text {@link McpManager.execute} hands an LLM (default 100 000 characters). */
  maxResultChars?: number;
  /** Permission rules of the host itself, above every config file's `permissions` block. */
  permissions?: PermissionBlock[];
  /**
   * Decides calls that an `ask` rule (or `defaultMode: 'ask'`) leaves to the user. Without it
   * such calls are denied with an error saying no ask hook is configured.
   */
  ask?: PermissionAskHook;
  /** Leave tools that the rules deny out of {@link McpManager.getAllTools} (default false). */
  hideDeniedTools?: boolean;
  /**
   * Receives debug lines: connection attempts and their outcome, tool calls (name, arguments with
   * secrets redacted, outcome). Without it the lines go to stderr when `NODE_DEBUG=mcpwire` is
   * set (Node's `util.debuglog`), and nowhere otherwise.
   */
  logger?: DebugLogger;
  /**
   * Shows an OAuth login to the user (open a browser, print the URL) when one was asked for
   * ({@link McpManager.login}, `/mcp auth NAME`). Connects never log in by themselves: a server
   * without a usable stored login goes to `needs-auth` and the others carry on.
   */
  onAuthorizationUrl?: OAuthOptions['onAuthorizationUrl'];
  /** Where OAuth logins are kept (default: the file store under `~/.mcpwire/oauth`). */
  tokenStore?: TokenStore;
}

/**
 * The `needsAuth` event: a server went to `needs-auth`. Never holds a token or a header value.
 */
export interface NeedsAuthEvent {
  server: string;
  /** What brings it back in a chat host: `/mcp auth NAME` (same as `McpManager.login(NAME)`). */
  command: string;
  /** Why: the `AUTH_REQUIRED` error's message, the server's secrets scrubbed. */
  reason: string;
}

/** What the `ask` hook is asked about (the permission layer's request). */
export type PermissionRequest = PermissionAskRequest;

/** What {@link McpManager.execute} returns: the whole result, and its text for an LLM. */
export interface ExecuteResult {
  /** The exposed name that was called. */
  name: string;
  server: string;
  tool: string;
  /** The server's result, untouched and complete (content blocks, `structuredContent`, `isError`). */
  result: CallToolResult;
  content: CallToolResult['content'];
  structuredContent: unknown;
  isError: boolean;
  /**
   * The result as text (see `resultToText`), cut at `maxResultChars` with a marker line; the server's secrets show as
   * `***` (`result` stays as sent).
   */
  text: string;
  truncated: boolean;
}

/** One tool of the catalogue. */
export interface CatalogTool {
  /**
   * `mcp__<server>__<tool>`, made safe for LLM providers (`^[A-Za-z0-9_-]{1,64}$`): other
   * characters become `_`, long names end in a stable hash, clashes are resolved the same way
   * whatever the order; {@link McpManager.resolveToolName} maps it back.
   */
  name: string;
  server: string;
  /** The tool's own name on its server. */
  tool: string;
  definition: Tool;
}

/** Per-server line of {@link McpManager.getStatus}. */
export interface ServerStatusReport {
  name: string;
  status: ServerStatus;
  transport: ManagedServer['transport'];
  enabled: boolean;
  era: Era | undefined;
  protocolVersion: ProtocolRevision | undefined;
  toolCount: number;
  lastError: string | undefined;
  restarts: number;
  circuitOpen: boolean;
  /**
   * Messages the server sent that were not JSON or not JSON-RPC (skipped), over the manager's life; see the
   * `diagnostic` event.
   */
  invalidMessages: number;
  provenance: Provenance | undefined;
}

/** What {@link McpManager.getStatus} returns. */
export interface ManagerStatus {
  configuredServers: number;
  connectedServers: number;
  servers: ServerStatusReport[];
  /** Broken config files and entries of the last load (each names its file); they were skipped. */
  configErrors: string[];
  /** Unknown keys and other things worth a look. */
  configWarnings: string[];
}

/** Events of a manager; `on()` returns a disposer. */
export interface ManagerEvents {
  status: (change: StatusChange) => void;
  /** The tool catalogue changed (a server connected, disconnected, or announced list_changed). */
  catalogChanged: () => void;
  /**
   * A watched config file changed and was reloaded: `result` is what was applied; `error` says a
   * file or entry is broken (`CONFIG_INVALID` naming it; its last good contents stay in force),
   * or, without `result`, that the reload failed.
   */
  reload: (outcome: { files: string[]; result?: ReconcileResult; error?: McpError }) => void;
  /**
   * A connected server's client noticed something non-fatal: a line that is not JSON (`kind:
   * 'invalid-json'`), a message that is not JSON-RPC, an oversize message, a late response, …
   * Counted per server in `getStatus().servers[i].invalidMessages`.
   */
  diagnostic: (event: { server: string; diagnostic: TransportDiagnostic }) => void;
  /**
   * A server needs a login (a connect or a call failed with `AUTH_REQUIRED`; also reported as a
   * `status` change to `needs-auth`): it is not restarted until someone runs `command`.
   */
  needsAuth: (event: NeedsAuthEvent) => void;
}

/** What {@link McpManager.reconcile} did. */
export interface ReconcileResult {
  added: string[];
  removed: string[];
  changed: string[];
  unchanged: string[];
  failed: Array<{ server: string; error: McpError }>;
}

/** The record of {@link McpManager.saveState}: plain JSON. */
export interface ManagerState {
  version: 1;
  savedAt: string;
  servers: Array<{ name: string; era: Era; protocolVersion: ProtocolRevision; fingerprint: string }>;
}

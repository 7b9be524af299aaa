/**
 * `mcpwire` on Node (the package's `node` condition; Deno and Bun take it too, and
 * `require('mcpwire')` on Node >= 20.19): chosen for an agent host. Everything of the
 * runtime-neutral entry (`neutral.ts`: the client, errors, revisions, the in-memory pair, tracing,
 * the manager's pure parts, the LLM exporters; one list in `client-surface.ts`), plus what only
 * Node has: the stdio transport, the JSONL trace file, the manager (`McpManager`) and its config
 * layer, approvals, `/mcp` commands and workflow steps. Loading it registers the Node parts the
 * neutral code asks for (`installNodeParts`: stdio, lazily). Named exports only;
 * `test/public-exports.test.ts` snapshots this list: a change to it is a decision.
 *
 * Elsewhere on purpose:
 * - `mcpwire/types`: the wire's vocabulary (MCP types of every revision, JSON-RPC messages, the
 *   method tables), for annotating what the API returns.
 * - `mcpwire/http`: the HTTP transports (they load undici; a URL connect loads them on demand).
 * - `mcpwire/proxy`: the recording proxies behind `mcpwire proxy`.
 * - Not public: the JSON-RPC connection and message builders, the NDJSON framer, the trace
 *   record builder, the stdio environment builder (the client's own parts; reach them through
 *   `McpClient`).
 */
import { installNodeParts } from './client/node-parts.js';

// What every runtime gets: one explicit list, re-exported whole by both entries.
export * from './client-surface.js';

// Transports that need Node: a server's process, the JSONL trace file.
export { StdioTransport } from './transport/stdio/stdio.js';
export type { StdioTransportOptions } from './transport/stdio/stdio.js';
export { jsonlFileSink } from './inspect/trace/sinks.js';
export type { JsonlFileSink } from './inspect/trace/sinks.js';

// Many servers: the manager, its config layer, approvals, commands, workflow steps (permission rules
// and the tool registry are in the surface).
export { McpManager } from './manager/mcp-manager.js';
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
} from './manager/manager-types.js';
export { HeadersHelperError } from './manager/servers/headers-helper-error.js';
export type { RestoreResult } from './manager/servers/saved-state.js';
export type { ServerStatus, StatusChange } from './manager/servers/slot-state.js';
export type { DebugLogger } from './manager/debug-log.js';
export { ConfigLoader, loadConfig } from './manager/config/load-config.js';
export type { ConfigOptions, ConfigProvenance, LoadedConfig, LoadedServer } from './manager/config/load-config.js';
export { watchConfigFiles } from './manager/config/config-watcher.js';
export type { ConfigWatch, WatchOptions } from './manager/config/config-watcher.js';
export { ApprovalStore } from './manager/permissions/approval-store.js';
export { importFrom, IMPORT_HOSTS } from './manager/config/hosts/host-import.js';
export type { ImportHost, ImportOptions, ImportResult } from './manager/config/hosts/host-import.js';
export { discoverHosts } from './manager/config/hosts/discover.js';
export type { DiscoveredServer, DiscoverOptions, Discovery, HostFileStatus } from './manager/config/hosts/discover.js';
export { HOSTS, hostFiles } from './manager/config/hosts/host-table.js';
export type {
  HostFile,
  HostFormat,
  HostId,
  HostInfo,
  HostLocationOptions,
  HostScope,
} from './manager/config/hosts/host-table.js';
export { connectServer, connectTarget } from './manager/servers/connect-target.js';
export { handleCommand } from './manager/commands.js';
export type { CommandResult } from './manager/commands.js';
export { McpStepRunner, resetMcpSteps, runMcpStep } from './manager/workflow-step.js';
export type {
  McpStep,
  McpStepResult,
  McpStepRunnerOptions,
  RunMcpStepOptions,
  StepServer,
} from './manager/workflow-step.js';

// Registered, not imported, by the neutral code: stdio loads on the first stdio connect.
installNodeParts();

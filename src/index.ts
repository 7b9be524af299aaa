/**
 * mcpwire's public surface, chosen for an agent host: connect to servers and call them
 * (`McpClient`), run many of them from config files (`McpManager` and the config layer, approvals,
 * permissions, `/mcp` commands, workflow steps), hand their tools to an LLM API (`llm/`), and
 * wrap or fake a transport (stdio, an in-memory pair, tracing). Named exports only;
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

// The Node entry sends HTTP through undici's pool (loaded on the first exchange). Until
// `src/client/node-parts.ts` (branch neutral-root) holds this line, the http-fetch branch keeps it here.
import { setNodeHttpEngine } from './transport/http/default-engine.js';
setNodeHttpEngine(() => import('./transport/http/undici-engine.js'));

// Connecting and calling one server.
export { McpClient } from './client/mcp-client.js';
export type { ClientEvents, ConnectTarget } from './client/mcp-client.js';
export type { HttpServerSpec } from './client/connect-http.js';
export { HttpRouteCache } from './client/http-routes.js';
export type { HttpRoute } from './client/http-routes.js';
export type { CallOptions, ClientOptions, EraChoice, ListOptions } from './client/options.js';
export type { ElicitationMode, ServerInputContext, ServerInputHandlers } from './client/server-input.js';
export type { TraceOptions } from './client/trace-hook.js';

// Errors: every failure is an McpError with a string code.
export {
  ConfigError,
  HttpError,
  McpError,
  SessionExpiredError,
  SizeLimitError,
  isMcpError,
} from './protocol/errors.js';
export type { McpErrorCode, McpErrorDetails, ResendPolicy } from './protocol/errors.js';
export type { AuthChallenge } from './util/auth-challenge.js';
export { PermissionError } from './manager/permissions/permission-rules.js';
export { OutputSchemaError } from './client/output-schema.js';
export type { OutputSchemaProblem } from './client/output-schema.js';

// Revisions, defaults and the version.
export {
  eraOf,
  hasFeature,
  isSupportedRevision,
  LATEST_LEGACY_REVISION,
  LATEST_MODERN_REVISION,
  LEGACY_REVISIONS,
  MODERN_REVISIONS,
  SUPPORTED_REVISIONS,
} from './protocol/revisions.js';
export type { Era, Feature, ProtocolRevision } from './protocol/revisions.js';
export { DEFAULT_MAX_TOTAL_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './protocol/connection-options.js';
export { RpcErrorCode } from './protocol/jsonrpc.js';
export { VERSION } from './util/version.js';

// Transports: a server's process, an in-memory pair for tests, tracing any transport.
export type { CloseInfo, Disposer, SendOptions, Transport, TransportDiagnostic } from './protocol/transport.js';
export type { AbortLike, SendSignal } from './protocol/send-signal.js';
export { StdioTransport } from './transport/stdio/stdio.js';
export type { StdioServerSpec, StdioTransportOptions } from './transport/stdio/stdio.js';
export { createLinkedPair } from './transport/memory.js';
export { traceTransport } from './observe/tracing-transport.js';
export type { TraceTransportOptions } from './observe/tracing-transport.js';
export { jsonlFileSink, prettyTraceLine, streamSink } from './inspect/trace/sinks.js';
export type { JsonlFileSink, PrettyOptions } from './inspect/trace/sinks.js';
export type { TraceSink } from './observe/trace-sink.js';
export type { TraceDirection, TraceHttp, TraceKind, TraceRecord } from './observe/trace-record.js';
export { MCP_CHANNELS } from './observe/channels.js';
export type {
  McpConnectionFacts,
  McpHandleNotificationEvent,
  McpHandleRequestEvent,
  McpMessageEvent,
  McpSendNotificationEvent,
  McpSendRequestEvent,
  McpSessionEvent,
  McpTransportKind,
} from './observe/channel-events.js';

// Many servers: the manager, its config layer, approvals, permissions, commands, workflow steps.
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
export type { RestoreResult } from './manager/saved-state.js';
export type { ServerStatus, StatusChange } from './manager/servers/server-slot.js';
export type { ManagedServer, Provenance, RestartPolicy, ServerDefinition } from './manager/servers/managed-server.js';
export type { DebugLogger } from './manager/debug-log.js';
export { ConfigLoader, loadConfig } from './manager/config/load-config.js';
export type {
  ConfigOptions,
  ConfigProvenance,
  LoadedConfig,
  LoadedServer,
  PermissionBlock,
} from './manager/config/load-config.js';
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
export { redactServer } from './manager/config/redact.js';
export { connectServer, connectTarget } from './manager/servers/connect-target.js';
export { authorize, PermissionPolicy } from './manager/permissions/permission-rules.js';
export type {
  KnownTools,
  PermissionAskHook,
  PermissionAskRequest,
  PermissionDecision,
  PermissionRule,
  PermissionSubject,
  PermissionVerdict,
  UnreachableRule,
} from './manager/permissions/permission-rules.js';
export { canonicalToolName, ToolRegistry } from './manager/catalogue/tool-registry.js';
export type { RegisteredTool, ToolAddress, ToolRename, ToolRenameReason } from './manager/catalogue/tool-registry.js';
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

// Tools for LLM APIs: provider-clean schemas, tool lists per API, result text for a model.
export { cleanSchema } from './llm/schema-profiles.js';
export type { SchemaChange, SchemaProfile } from './llm/schema-profiles.js';
export { toAnthropicTools, toGeminiFunctionDeclarations, toOpenAITools, toolDescription } from './llm/tool-export.js';
export type {
  AnthropicTool,
  ExportableTool,
  GeminiFunctionDeclaration,
  OpenAIFunctionTool,
  ToolExportOptions,
  ToolSchemaChanges,
} from './llm/tool-export.js';
export { contentBlockToText, DEFAULT_MAX_RESULT_CHARS, resultToText } from './llm/result-text.js';
export type { ResultText, ResultTextOptions } from './llm/result-text.js';

/**
 * mcpwire's public surface. Named exports only; `test/public-exports.test.ts` snapshots this list.
 */
export { McpClient } from './client/mcp-client.js';
export type { ClientEvents, ConnectTarget } from './client/mcp-client.js';
export type { HttpServerSpec } from './client/connect-http.js';
export type { CallOptions, ClientOptions, EraChoice, ListOptions } from './client/options.js';
export type { ElicitationMode, ServerInputContext, ServerInputHandlers } from './client/server-input.js';

export { McpManager, fingerprint } from './manager/mcp-manager.js';
export type { CatalogTool, ManagerEvents, ManagerOptions, ManagerState, ManagerStatus, ReconcileResult, ServerStatusReport } from './manager/mcp-manager.js';
export type { ManagedServer, Provenance, RestartPolicy } from './manager/server-spec.js';
export { ConfigLoader, loadConfig } from './manager/config/load-config.js';
export type { ConfigOptions, ConfigProvenance, LoadedConfig, LoadedServer, PermissionBlock } from './manager/config/load-config.js';
export { ApprovalStore } from './manager/config/approvals.js';
export { importFrom, IMPORT_HOSTS } from './manager/config/host-import.js';
export type { ImportHost, ImportOptions, ImportResult } from './manager/config/host-import.js';
export { redactServer } from './manager/config/redact.js';
export { handleCommand } from './manager/commands.js';
export { watchConfigFiles } from './manager/config-watcher.js';
export type { ConfigWatch, WatchOptions } from './manager/config-watcher.js';
export type { CommandResult } from './manager/commands.js';
export { McpStepRunner, renderTemplate, resetMcpSteps, runMcpStep } from './manager/workflow-step.js';
export type { McpStep, McpStepResult, McpStepRunnerOptions, RunMcpStepOptions, StepServer } from './manager/workflow-step.js';
export type { ServerStatus, StatusChange } from './manager/server-slot.js';
export type { ExecuteResult, PermissionRequest } from './manager/mcp-manager.js';
export type { DebugLogger } from './manager/debug-log.js';
export { authorize, PermissionPolicy } from './manager/permission-rules.js';
export type { KnownTools, PermissionAskHook, PermissionAskRequest, PermissionDecision, PermissionRule, PermissionSubject, PermissionVerdict, UnreachableRule } from './manager/permission-rules.js';
export { ToolRegistry, canonicalToolName } from './manager/tool-registry.js';
export type { RegisteredTool, ToolAddress, ToolRename, ToolRenameReason } from './manager/tool-registry.js';
export { connectServer, connectTarget } from './manager/server-target.js';
export { cleanSchema } from './llm/schema-profiles.js';
export type { SchemaChange, SchemaProfile } from './llm/schema-profiles.js';
export { toAnthropicTools, toGeminiFunctionDeclarations, toOpenAITools, toolDescription } from './llm/tool-export.js';
export type { AnthropicTool, ExportableTool, GeminiFunctionDeclaration, OpenAIFunctionTool, ToolExportOptions, ToolSchemaChanges } from './llm/tool-export.js';
export { contentBlockToText, DEFAULT_MAX_RESULT_CHARS, resultToText } from './llm/result-text.js';
export type { ResultText, ResultTextOptions } from './llm/result-text.js';

export { JsonRpcConnection, DEFAULT_MAX_TOTAL_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './protocol/connection.js';
export type { ConnectionOptions, InboundRequestContext, InboundRequestHandler, NotificationHandler, RequestOptions } from './protocol/connection.js';
export { ConfigError, HttpError, McpError, SizeLimitError, isMcpError } from './protocol/errors.js';
export type { McpErrorCode, McpErrorDetails, ResendPolicy } from './protocol/errors.js';
export type { AuthChallenge } from './protocol/auth-challenge.js';
export { PermissionError } from './manager/permission-error.js';
export { OutputSchemaError } from './client/output-schema.js';
export type { OutputSchemaProblem } from './client/output-schema.js';
export { classifyMessage, classifyPayload, makeErrorResponse, makeNotification, makeRequest, makeResponse, RpcErrorCode } from './protocol/jsonrpc.js';
export type {
  Classified,
  JsonRpcErrorObject,
  JsonRpcErrorResponse,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcParams,
  JsonRpcRequest,
  JsonRpcResponse,
} from './protocol/jsonrpc.js';
export type { ClientNotifications, ClientRequests, ServerNotifications, ServerRequests } from './protocol/methods.js';
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
export type { CloseInfo, Disposer, SendOptions, Transport, TransportDiagnostic } from './protocol/transport.js';
export type * from './protocol/types.js';
export { VERSION } from './protocol/version.js';

export { StdioTransport } from './transport/stdio.js';
export { buildServerEnv } from './transport/stdio-env.js';
export type { StdioServerSpec } from './transport/stdio.js';
export { NdjsonDecoder, encodeMessage } from './transport/ndjson-framer.js';
export { createLinkedPair } from './transport/memory.js';
export { traceTransport } from './transport/trace/tracing-transport.js';
export type { TraceTransportOptions } from './transport/trace/tracing-transport.js';
export { TraceBuilder, traceHttpFacts } from './transport/trace/trace-builder.js';
export type { TraceBuilderOptions } from './transport/trace/trace-builder.js';
export { guardSink, jsonlFileSink, prettyTraceLine, streamSink } from './transport/trace/sinks.js';
export type { JsonlFileSink, PrettyOptions, TraceSink } from './transport/trace/sinks.js';
export type { TraceDirection, TraceHttp, TraceKind, TraceRecord } from './transport/trace/trace-record.js';
// The recording proxies are in `mcpwire/proxy` (they load undici).
// The HTTP transports (and undici) load only when a URL is used; import them from `mcpwire/http`.
export type { LegacySseOptions, StreamableHttpOptions } from './transport/http/index.js';

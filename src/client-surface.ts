/**
 * What `mcpwire` exports on every runtime (browsers, Workers, Deno, Bun, Node): the client, its
 * errors and revisions, the in-memory pair, tracing, the diagnostics channels, the manager's pure
 * parts (permission rules, the tool registry, redaction) and the LLM tool exporters. Nothing in
 * this list imports a Node builtin, undici or proper-lockfile, statically or by a literal
 * `import()` (the boundary test bundles it for `browser` and `neutral`). Both root entries
 * re-export it whole: `neutral.ts` (the package's `default` condition) and `index.ts` (its
 * `node` condition, which adds stdio, the trace file sink, the manager and the config layer).
 * Named exports only; `test/public-exports.test.ts` snapshots this list: a change is a decision.
 */

// Connecting and calling one server.
export { McpClient } from './client/mcp-client.js';
export type { ClientEvents, ConnectTarget } from './client/mcp-client.js';
export type { HttpServerSpec } from './client/connect-http.js';
export { HttpRouteCache } from './client/http-routes.js';
export type { HttpRoute } from './client/http-routes.js';
export type { CallOptions, ClientOptions, EraChoice, ListOptions } from './client/options.js';
export type { ElicitationMode, ServerInputContext, ServerInputHandlers } from './client/server-input.js';
export type { TraceOptions } from './client/trace-hook.js';
// Extensions (SEP-2133): the ids mcpwire implements, and reading an `extensions` capability map.
export { EXTENSION_IDS, extensionSettings, extensionsOf, isExtensionId } from './protocol/extensions/ids.js';
export type { ExtensionMap, ExtensionSettings } from './protocol/extensions/ids.js';
export type { ExtensionDeclaration } from './client/extensions.js';
// Skills (SEP-2640): `client.skills`, its refusals, and the wire shapes.
export { SkillVerificationError } from './client/skills/skill-verification-error.js';
export type { SkillRejection } from './client/skills/skill-verification-error.js';
export type { SkillFile, SkillListing, SkillReadOptions, SkillsApi } from './client/skills/skills-api.js';
export type {
  DirectoryResource,
  Skill,
  SkillFrontmatter,
  SkillResourceEntry,
  SkillsCapability,
} from './protocol/extensions/skills-types.js';
export { SKILL_LIMITS } from './protocol/extensions/skills-types.js';
// The shape of a stdio target (`connect({ command })` needs Node, Deno or Bun to run it).
export type { StdioServerSpec } from './transport/stdio-server-spec.js';

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

// Transports: an in-memory pair for tests, tracing any transport, the channels.
export type { CloseInfo, Disposer, SendOptions, Transport, TransportDiagnostic } from './protocol/transport.js';
export type { AbortLike, SendSignal } from './protocol/send-signal.js';
export { createLinkedPair } from './transport/memory.js';
export { traceTransport } from './observe/tracing-transport.js';
export type { TraceTransportOptions } from './observe/tracing-transport.js';
export { prettyTraceLine, streamSink } from './inspect/trace/stream-sinks.js';
export type { PrettyOptions } from './inspect/trace/stream-sinks.js';
export type { TraceSink } from './observe/trace-sink.js';
export type { TraceDirection, TraceHttp, TraceKind, TraceLane, TraceRecord } from './observe/trace-record.js';
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

// The manager's pure parts: permission rules, the tool registry, redacting a definition.
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
export type { PermissionBlock } from './manager/permissions/permission-block.js';
export { canonicalToolName, ToolRegistry } from './manager/catalogue/tool-registry.js';
export type { RegisteredTool, ToolAddress, ToolRename, ToolRenameReason } from './manager/catalogue/tool-registry.js';
export { redactServer } from './manager/config/redact.js';
export type { ManagedServer, Provenance, RestartPolicy, ServerDefinition } from './manager/servers/managed-server.js';

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

// MCP Server Cards and Catalogs (SEP-2127, draft): read before connecting, advisory only.
export { compareServerCard, fetchMcpCatalog, fetchServerCard } from './client/server-card.js';
export type { CardFetchOptions, FetchedMcpCatalog, FetchedServerCard } from './client/server-card.js';
export type {
  McpCatalog,
  McpCatalogEntry,
  ServerCard,
  ServerCardRemote,
  ServerCardRepository,
} from './protocol/extensions/server-card.js';

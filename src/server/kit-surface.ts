/**
 * What `mcpwire/server` exports on every runtime: the kit, its errors, its in-memory state and
 * the HTTP auth parts, nothing that needs Node. Both entries re-export it: `neutral.ts` (the
 * package's `default` condition) and `index.ts` (its `node` condition, which adds stdio and
 * `createHttpHandler`).
 */
export { McpServer } from './mcp-server.js';
export { ServerSession } from './server-session.js';
export type { ServerSessionOptions } from './server-session.js';
export { ToolError } from './tools/tool-error.js';
export type { ToolErrorDetails } from './tools/tool-error.js';
export { ResourceNotFoundError } from './resource-not-found.js';
export { KIT_ERROR_CODES } from './tools/tool-call.js';
export type { ToolErrorBody } from './tools/tool-call.js';
export { stderrLogger } from './server-log.js';
export type { ExtensionDefinition, ExtensionMethod } from './extensions/extension-definition.js';
export { EXTENSION_IDS } from '../protocol/extensions/ids.js';
export type { ExtensionMap, ExtensionSettings } from '../protocol/extensions/ids.js';
export type {
  CompleteHandler,
  McpServerOptions,
  RequestContext,
  ServerLogger,
  ServerLogRecord,
  ToolCallObserver,
  ToolCallRecord,
  ToolContext,
  ToolDefinition,
  ToolHandler,
  ToolResult,
} from './server-types.js';
export type { SchemaProblem } from './schema-validator.js';
export type { FromSchema, StructuredContentOf, ToolArguments, TypeFromSchema } from './from-schema.js';
export type { ResourceDefinition, ResourceTemplateDefinition } from './resource-set.js';
export type { PromptArguments, PromptDefinition, PromptResult } from './prompt-set.js';
export { createFetchHandler } from './http/fetch-handler.js';
export type { FetchHandlerOptions, McpFetchHandler } from './http/fetch-handler.js';
export type { HttpHandlerCloseOptions, HttpHandlerOptions, McpHandlerControls } from './http/http-handler-options.js';
export { LOCAL_HOSTS } from './http/request-guards.js';
export { jwtBearer } from './http/auth/jwt-bearer.js';
export type { JwtBearerOptions, JwtBearerVerifier } from './http/auth/jwt-bearer.js';
export { MemoryReplayCache } from './http/auth/replay-cache.js';
export type { MemoryReplayCacheOptions, ReplayCache } from './http/auth/replay-cache.js';
export type { DpopOptions } from './http/auth/dpop-check.js';
export type { DpopNonceOptions } from './http/auth/dpop-nonces.js';
export { BearerTokenError } from './http/auth/bearer-error.js';
export type { BearerErrorCode } from './http/auth/bearer-error.js';
export type { HttpAuthOptions, TokenVerifier, TokenVerifyContext } from './http/auth/bearer-gate.js';
export type { ResourceMetadataOptions } from './http/auth/resource-metadata.js';
export type { AuthInfo } from './auth-info.js';
export { MemoryChangeBus } from './state/memory-change-bus.js';
export { MemoryTaskStore } from './state/memory-task-store.js';
export type { MemoryTaskStoreOptions } from './state/memory-task-store.js';
export { MemorySessionStore } from './state/memory-session-store.js';
export type { MemorySessionStoreOptions } from './state/memory-session-store.js';
export { MemoryEventLog } from './state/memory-event-log.js';
export type { MemoryEventLogOptions } from './state/memory-event-log.js';
export type { EventLog, LoggedEvent, NewEvent, StreamLease, StreamTail } from './state/event-log.js';
export type { Change, ChangeBus, ChangeList, ChangeSubscriber } from './state/change-bus.js';
export type {
  NewTask,
  StoredTask,
  TaskError,
  TaskInputRequest,
  TaskOutcome,
  TaskStatus,
  TaskStore,
} from './state/task-store.js';
export type { SessionFacts, SessionStore, StoredSession } from './state/session-store.js';
export type { ServerStateOptions } from './state/server-state.js';
export type { SkillDefinition } from './skills/skill-entry.js';
export type { SkillRegistration } from './skills/skill-set.js';
// The MCP Server Card the HTTP handlers serve (SEP-2127, draft).
export type { ServerCardOptions } from './http/server-card.js';
// MCP Apps (SEP-1865): tools with views, their ui:// resources, and who sees app-only tools.
export { UI_MIME_TYPE } from '../protocol/extensions/apps-types.js';
export type {
  UiClientCapability,
  UiCsp,
  UiPermissions,
  UiResourceMeta,
  UiToolMeta,
  UiToolVisibility,
} from '../protocol/extensions/apps-types.js';
export type { AppToolDefinition, AppToolUi } from './apps/app-tool.js';
export type { AppResourceDefinition } from './apps/app-resource.js';
export type { AppsOptions } from './apps/app-only-tools.js';
export type { VisibilityOptions, VisibilityRequest } from './visibility.js';

/**
 * MCP data types across all revisions (2024-11-05 … 2026-07-28). Fields that exist only in some
 * revisions are optional; the comments say from which revision on. Unknown extra fields from a
 * peer are kept (results are passed through, not rebuilt).
 */

/** Free-form metadata. Keys may carry a reverse-DNS prefix; `io.modelcontextprotocol/*` is reserved. */
export type Meta = Record<string, unknown>;

/** A client or server implementation (`clientInfo`, `serverInfo`). */
export interface Implementation {
  name: string;
  version: string;
  /** 2025-06-18+ */
  title?: string;
  /** 2025-11-25+ */
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

/** An icon (2025-11-25+). Only https and data: sources should be rendered. */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** Hints on content, resources and templates (audience, priority, lastModified). */
export interface Annotations {
  audience?: Role[];
  priority?: number;
  lastModified?: string;
}

export type Role = 'user' | 'assistant';

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: Meta;
}

export interface ImageContent {
  type: 'image';
  /** base64 */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}

/** 2025-03-26+ */
export interface AudioContent {
  type: 'audio';
  /** base64 */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}

/** 2025-06-18+: a link to a resource the client may read. */
export interface ResourceLink extends Resource {
  type: 'resource_link';
}

export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: Meta;
}

/** Any content block a tool result, prompt message or sampling message carries. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Meta;
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  /** base64 */
  blob: string;
  _meta?: Meta;
}

export type ResourceContents = TextResourceContents | BlobResourceContents;

/** Behaviour hints on a tool. Untrusted: a server may lie. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A JSON Schema object (any dialect the server uses). */
export type JsonSchema = Record<string, unknown>;

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  /** 2025-06-18+ */
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  /** 2025-11-25 tasks: whether the tool may run as a task. */
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required' };
  _meta?: Meta;
}

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
}

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
}

export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

/** Capabilities a client declares (per connection in the legacy era, per request in the modern era). */
export interface ClientCapabilities {
  experimental?: Record<string, unknown>;
  roots?: { listChanged?: boolean };
  sampling?: { context?: Record<string, unknown>; tools?: Record<string, unknown> };
  elicitation?: { form?: Record<string, unknown>; url?: Record<string, unknown> };
  tasks?: Record<string, unknown>;
  /** 2026-07-28 */
  extensions?: Record<string, unknown>;
}

/** Capabilities a server advertises (`initialize` result or `server/discover` result). */
export interface ServerCapabilities {
  experimental?: Record<string, unknown>;
  logging?: Record<string, unknown>;
  completions?: Record<string, unknown>;
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
  tasks?: Record<string, unknown>;
  extensions?: Record<string, unknown>;
}

export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Fields every result may carry. `resultType` and the cache hints are 2026-07-28 only. */
export interface ResultBase {
  _meta?: Meta;
  /** 2026-07-28: `complete` (absent means complete), `input_required`, or an extension value. */
  resultType?: string;
  /** 2026-07-28 cacheable results: freshness in ms (absent or negative ⇒ 0). */
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
  [key: string]: unknown;
}

export interface InitializeParams {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  [key: string]: unknown;
}

export interface InitializeResult extends ResultBase {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}

/** 2026-07-28 `server/discover` result. */
export interface DiscoverResult extends ResultBase {
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  serverInfo?: Implementation;
  instructions?: string;
}

export interface PaginatedParams {
  cursor?: string;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface ListToolsResult extends ResultBase {
  tools: Tool[];
  nextCursor?: string;
}

export interface ListResourcesResult extends ResultBase {
  resources: Resource[];
  nextCursor?: string;
}

export interface ListResourceTemplatesResult extends ResultBase {
  resourceTemplates: ResourceTemplate[];
  nextCursor?: string;
}

export interface ListPromptsResult extends ResultBase {
  prompts: Prompt[];
  nextCursor?: string;
}

/** Server input (2026-07-28 MRTR): one request inside an `input_required` result. */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list' | (string & {});
  params?: Record<string, unknown>;
}

/** 2026-07-28: the server needs input before it can complete the request. */
export interface InputRequiredResult extends ResultBase {
  resultType: 'input_required';
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
}

/** Params fields of the three methods that may return `input_required` (2026-07-28). */
export interface RetryFields {
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

export interface CallToolParams extends RetryFields {
  name: string;
  arguments?: Record<string, unknown>;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface CallToolResult extends ResultBase {
  content: ContentBlock[];
  /** 2025-06-18+: an object in the legacy era, any JSON value in 2026-07-28. */
  structuredContent?: unknown;
  isError?: boolean;
}

export interface GetPromptParams extends RetryFields {
  name: string;
  arguments?: Record<string, string>;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface GetPromptResult extends ResultBase {
  description?: string;
  messages: PromptMessage[];
}

export interface ReadResourceParams extends RetryFields {
  uri: string;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface ReadResourceResult extends ResultBase {
  contents: ResourceContents[];
}

export type CompletionReference = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

export interface CompleteParams {
  ref: CompletionReference;
  argument: { name: string; value: string };
  /** 2025-06-18+ */
  context?: { arguments?: Record<string, string> };
  _meta?: Meta;
  [key: string]: unknown;
}

export interface CompleteResult extends ResultBase {
  completion: { values: string[]; total?: number; hasMore?: boolean };
}

export interface SubscribeParams {
  uri: string;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface SetLevelParams {
  level: LoggingLevel;
  _meta?: Meta;
  [key: string]: unknown;
}

/** 2026-07-28: which change notifications a `subscriptions/listen` stream carries. */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

export interface ListenParams {
  notifications: SubscriptionFilter;
  _meta?: Meta;
  [key: string]: unknown;
}

export type EmptyResult = ResultBase;

/** Params of a request that carries nothing but `_meta`. */
export interface MetaOnlyParams {
  _meta?: Meta;
  [key: string]: unknown;
}

// ---- server input (legacy server→client requests; modern input requests) ----

export interface SamplingMessage {
  role: Role;
  content: ContentBlock | ContentBlock[] | Record<string, unknown>;
  _meta?: Meta;
}

export interface CreateMessageParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  stopSequences?: string[];
  metadata?: Record<string, unknown>;
  modelPreferences?: Record<string, unknown>;
  tools?: unknown[];
  toolChoice?: unknown;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface CreateMessageResult {
  role: Role;
  content: ContentBlock | ContentBlock[] | Record<string, unknown>;
  model: string;
  stopReason?: string;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface ElicitFormParams {
  mode?: 'form';
  message: string;
  requestedSchema: JsonSchema;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface ElicitUrlParams {
  mode: 'url';
  message: string;
  url: string;
  /** 2025-11-25 only. */
  elicitationId?: string;
  _meta?: Meta;
  [key: string]: unknown;
}

export type ElicitParams = ElicitFormParams | ElicitUrlParams;

export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface Root {
  uri: string;
  name?: string;
  _meta?: Meta;
}

export interface ListRootsResult {
  roots: Root[];
  _meta?: Meta;
  [key: string]: unknown;
}

// ---- notifications ----

export interface ProgressParams {
  progressToken: string | number;
  progress: number;
  total?: number;
  /** 2025-03-26+ */
  message?: string;
  [key: string]: unknown;
}

export interface CancelledParams {
  requestId?: string | number;
  reason?: string;
  [key: string]: unknown;
}

export interface LoggingMessageParams {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
  [key: string]: unknown;
}

export interface ResourceUpdatedParams {
  uri: string;
  [key: string]: unknown;
}

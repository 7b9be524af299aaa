/**
 * The typed method tables: method name → params and result, per direction. `request<M>()` and
 * `notify<M>()` are typed from these; a method outside the tables goes through the untyped
 * `requestRaw` / `notifyRaw` escape hatches (`onRequest` and `onNotification` take any method).
 */
import type {
  CallToolParams,
  CallToolResult,
  CancelledParams,
  CompleteParams,
  CompleteResult,
  CreateMessageParams,
  CreateMessageResult,
  DiscoverResult,
  ElicitParams,
  ElicitResult,
  EmptyResult,
  GetPromptParams,
  GetPromptResult,
  InitializeParams,
  InitializeResult,
  InputRequiredResult,
  ListenParams,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListRootsResult,
  ListToolsResult,
  LoggingMessageParams,
  MetaOnlyParams,
  PaginatedParams,
  ProgressParams,
  ReadResourceParams,
  ReadResourceResult,
  ResourceUpdatedParams,
  SetLevelParams,
  SubscribeParams,
  SubscriptionFilter,
} from './types.js';

/** Requests the client sends to a server. */
export interface ClientRequests {
  initialize: { params: InitializeParams; result: InitializeResult };
  ping: { params: MetaOnlyParams | undefined; result: EmptyResult };
  'server/discover': { params: MetaOnlyParams | undefined; result: DiscoverResult };
  'tools/list': { params: PaginatedParams | undefined; result: ListToolsResult };
  'tools/call': { params: CallToolParams; result: CallToolResult | InputRequiredResult };
  'resources/list': { params: PaginatedParams | undefined; result: ListResourcesResult };
  'resources/templates/list': { params: PaginatedParams | undefined; result: ListResourceTemplatesResult };
  'resources/read': { params: ReadResourceParams; result: ReadResourceResult | InputRequiredResult };
  'resources/subscribe': { params: SubscribeParams; result: EmptyResult };
  'resources/unsubscribe': { params: SubscribeParams; result: EmptyResult };
  'prompts/list': { params: PaginatedParams | undefined; result: ListPromptsResult };
  'prompts/get': { params: GetPromptParams; result: GetPromptResult | InputRequiredResult };
  'completion/complete': { params: CompleteParams; result: CompleteResult };
  'logging/setLevel': { params: SetLevelParams; result: EmptyResult };
  'subscriptions/listen': { params: ListenParams; result: EmptyResult };
}

/** Requests a legacy-era server sends to the client (modern servers send none). */
export interface ServerRequests {
  ping: { params: MetaOnlyParams | undefined; result: EmptyResult };
  'sampling/createMessage': { params: CreateMessageParams; result: CreateMessageResult };
  'elicitation/create': { params: ElicitParams; result: ElicitResult };
  'roots/list': { params: MetaOnlyParams | undefined; result: ListRootsResult };
}

/** Notifications the client sends. */
export interface ClientNotifications {
  'notifications/initialized': MetaOnlyParams | undefined;
  'notifications/cancelled': CancelledParams;
  'notifications/progress': ProgressParams;
  'notifications/roots/list_changed': MetaOnlyParams | undefined;
}

/** Notifications a server sends. */
export interface ServerNotifications {
  'notifications/cancelled': CancelledParams;
  'notifications/progress': ProgressParams;
  'notifications/message': LoggingMessageParams;
  'notifications/resources/updated': ResourceUpdatedParams;
  'notifications/resources/list_changed': MetaOnlyParams | undefined;
  'notifications/tools/list_changed': MetaOnlyParams | undefined;
  'notifications/prompts/list_changed': MetaOnlyParams | undefined;
  'notifications/elicitation/complete': { elicitationId: string; [key: string]: unknown };
  'notifications/subscriptions/acknowledged': { notifications: SubscriptionFilter; [key: string]: unknown };
}

/**
 * What one side of a connection sends (`requests`, `notifications`) and receives
 * (`inboundRequests`, `inboundNotifications`). A request table maps a method to its params and
 * result; a notification table maps a method to its params.
 */
export interface Role {
  requests: object;
  notifications: object;
  inboundRequests: object;
  inboundNotifications: object;
}

/** The client's side: it sends {@link ClientRequests} and receives {@link ServerRequests}. */
export interface ClientRole {
  requests: ClientRequests;
  notifications: ClientNotifications;
  inboundRequests: ServerRequests;
  inboundNotifications: ServerNotifications;
}

/** A server session's side: it sends {@link ServerRequests} and receives {@link ClientRequests}. */
export interface ServerRole {
  requests: ServerRequests;
  notifications: ServerNotifications;
  inboundRequests: ClientRequests;
  inboundNotifications: ClientNotifications;
}

/** The params of method `M` of request table `T`. */
export type RequestParams<T, M extends keyof T> = (T[M] & { params: unknown })['params'];
/** The result of method `M` of request table `T`. */
export type RequestResult<T, M extends keyof T> = (T[M] & { result: unknown })['result'];

export type ClientRequestMethod = keyof ClientRequests;
export type ServerRequestMethod = keyof ServerRequests;
export type ParamsOf<M extends ClientRequestMethod> = ClientRequests[M]['params'];
export type ResultOf<M extends ClientRequestMethod> = ClientRequests[M]['result'];

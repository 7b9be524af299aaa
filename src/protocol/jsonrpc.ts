/**
 * JSON-RPC 2.0 message shapes and the one parser that classifies a decoded value.
 *
 * Every inbound value goes through {@link classifyMessage} (or {@link classifyPayload} for a
 * value that may be a batch) exactly once; nothing else in mcpwire inspects raw messages.
 */

/** A request id: a string or an integer, never null (MCP forbids null ids). */
export type JsonRpcId = string | number;

/** Params of a request or notification: MCP uses objects; JSON-RPC also allows arrays. */
export type JsonRpcParams = Record<string, unknown> | unknown[];

/** A request: expects exactly one response with the same id. */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: JsonRpcParams;
}

/** A notification: has no id and is never answered. */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonRpcParams;
}

/** A successful response. */
export interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: Record<string, unknown>;
}

/** The error object inside an error response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** An error response. `id` is null only when the peer could not read the request's id. */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

/** Any single JSON-RPC 2.0 message. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse | JsonRpcErrorResponse;

/** Standard JSON-RPC error codes, plus the MCP-specific ones every revision defines. */
export const RpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Legacy revisions: resource not found. 2026-07-28 uses InvalidParams instead. */
  ResourceNotFound: -32002,
  /** 2025-11-25: a URL-mode elicitation must complete before the request can succeed. */
  UrlElicitationRequired: -32042,
  /** 2026-07-28: an HTTP header disagrees with the body. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability the request did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the requested protocol version is not supported; `data.supported` lists the alternatives. */
  UnsupportedProtocolVersion: -32022,
} as const;

/** The result of classifying one decoded value. Exactly one `kind` applies. */
export type Classified =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'error'; message: JsonRpcErrorResponse }
  | { kind: 'invalid'; reason: string; id?: JsonRpcId; value: unknown };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

function invalid(reason: string, value: unknown, id?: JsonRpcId): Classified {
  return id === undefined ? { kind: 'invalid', reason, value } : { kind: 'invalid', reason, id, value };
}

/**
 * Classifies one decoded JSON value as a request, notification, response or error response.
 * Never throws: a value that is none of these comes back as `invalid` with a reason that names
 * the offending field (and the id, when one could be read).
 */
export function classifyMessage(value: unknown): Classified {
  if (!isPlainObject(value)) {
    return invalid(Array.isArray(value) ? 'a batch is not a single message' : 'message is not a JSON object', value);
  }
  const rawId = value.id;
  const id = isId(rawId) ? rawId : undefined;
  if (value.jsonrpc !== '2.0') return invalid('field "jsonrpc" must be "2.0"', value, id);

  if ('method' in value) {
    if (typeof value.method !== 'string') return invalid('field "method" must be a string', value, id);
    if ('result' in value || 'error' in value) {
      return invalid('a message with "method" must not carry "result" or "error"', value, id);
    }
    const params = value.params;
    if (params !== undefined && typeof params !== 'object') {
      return invalid('field "params" must be an object or an array', value, id);
    }
    if (params === null) return invalid('field "params" must be an object or an array', value, id);
    if (!('id' in value)) return { kind: 'notification', message: value as unknown as JsonRpcNotification };
    if (id === undefined) return invalid('field "id" must be a string or an integer', value);
    return { kind: 'request', message: value as unknown as JsonRpcRequest };
  }

  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasResult && hasError) return invalid('a response must not carry both "result" and "error"', value, id);
  if (hasResult) {
    if (id === undefined) return invalid('field "id" must be a string or an integer', value);
    if (!isPlainObject(value.result)) return invalid('field "result" must be an object', value, id);
    return { kind: 'response', message: value as unknown as JsonRpcResponse };
  }
  if (hasError) {
    if (rawId !== undefined && rawId !== null && id === undefined) {
      return invalid('field "id" must be a string, an integer or null', value);
    }
    const error = value.error;
    if (!isPlainObject(error)) return invalid('field "error" must be an object', value, id);
    if (typeof error.code !== 'number' || !Number.isInteger(error.code)) {
      return invalid('field "error.code" must be an integer', value, id);
    }
    if (typeof error.message !== 'string') return invalid('field "error.message" must be a string', value, id);
    if (rawId === undefined) {
      // Tolerated: some peers omit the id instead of sending null when they could not read it.
      return { kind: 'error', message: { ...(value as unknown as JsonRpcErrorResponse), id: null } };
    }
    return { kind: 'error', message: value as unknown as JsonRpcErrorResponse };
  }
  return invalid('message has none of "method", "result" or "error"', value, id);
}

/**
 * Classifies a decoded payload that may be a JSON-RPC batch (an array; MCP 2025-03-26 requires
 * receivers to accept them). Returns one entry per message; an empty batch is one `invalid`.
 */
export function classifyPayload(value: unknown): Classified[] {
  if (!Array.isArray(value)) return [classifyMessage(value)];
  if (value.length === 0) return [invalid('an empty batch is not a valid message', value)];
  return value.map(classifyMessage);
}

/** Builds a request message. `params` is omitted when undefined. */
export function makeRequest(id: JsonRpcId, method: string, params?: JsonRpcParams): JsonRpcRequest {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}

/** Builds a notification message: it never carries an id. */
export function makeNotification(method: string, params?: JsonRpcParams): JsonRpcNotification {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}

/** Builds a success response. */
export function makeResponse(id: JsonRpcId, result: Record<string, unknown>): JsonRpcResponse {
  return { jsonrpc: '2.0', id, result };
}

/** Builds an error response; `data` is omitted when undefined. */
export function makeErrorResponse(
  id: JsonRpcId | null,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcErrorResponse {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: '2.0', id, error };
}

/**
 * The error of a shared store (session store, event log, task store, change bus) that could not
 * be reached on a request's path: `STATE_UNAVAILABLE`, a message that names no internals (the
 * store's own error stays in `cause`, for the operator's log), and the JSON-RPC answer a transport
 * without HTTP statuses gives it. Streamable HTTP answers it 503 with `Retry-After`.
 */
import { McpError } from '../../protocol/errors.js';
import { makeErrorResponse, RpcErrorCode, type JsonRpcId, type JsonRpcMessage } from '../../protocol/jsonrpc.js';

/** What the client is told: the state is out of reach for now, and the request may be retried. */
export const STATE_UNAVAILABLE_MESSAGE = 'the state store is unavailable; try again';

/** The `STATE_UNAVAILABLE` error for a store failure `cause` (kept, never sent). */
export function stateUnavailable(cause: unknown): McpError {
  return new McpError('STATE_UNAVAILABLE', STATE_UNAVAILABLE_MESSAGE, { cause });
}

/** True for a `STATE_UNAVAILABLE` error. */
export function isStateUnavailable(error: unknown): error is McpError {
  return error instanceof McpError && error.code === 'STATE_UNAVAILABLE';
}

/** The JSON-RPC answer to request `id` when the state is unavailable (-32603, {@link STATE_UNAVAILABLE_MESSAGE}). */
export function stateUnavailableAnswer(id: JsonRpcId): JsonRpcMessage {
  return makeErrorResponse(id, RpcErrorCode.InternalError, STATE_UNAVAILABLE_MESSAGE);
}

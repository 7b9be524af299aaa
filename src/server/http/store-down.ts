/**
 * A state store that is down (the session store, the event log, the task store): every HTTP path
 * answers it 503 with `Retry-After` and one message that names no internals; the cause goes to
 * the server's logger.
 */
import { errorMessage, McpError } from '../../protocol/errors.js';
import { RpcErrorCode, type JsonRpcId } from '../../protocol/jsonrpc.js';
import type { ResponseSink } from '../../transport/http-server/http-exchange.js';
import type { ServerLogger } from '../server-types.js';
import { refuse } from './http-answers.js';

/** The JSON-RPC error message of a store that is down. */
export const STATE_UNAVAILABLE_MESSAGE = 'Service Unavailable: the state store is unavailable; try again';

/** The headers of that answer: the client may try again in a second. */
export const RETRY_SOON: Readonly<Record<string, string>> = Object.freeze({ 'retry-after': '1' });

/** `promise`, its rejection (the store's own error) turned into `STATE_UNAVAILABLE` with it as the cause. */
export function fromStore<T>(promise: Promise<T>): Promise<T> {
  return promise.catch((error: unknown) => {
    throw new McpError('STATE_UNAVAILABLE', 'the state store is unavailable', { cause: error });
  });
}

/** True for a `STATE_UNAVAILABLE` error (a store call, or the router's task store). */
export function isStoreDown(error: unknown): error is McpError {
  return error instanceof McpError && error.code === 'STATE_UNAVAILABLE';
}

/** Logs what the store said (for the operator; the client is told nothing of it). */
export function logStoreDown(logger: ServerLogger, error: McpError): void {
  const cause = (error as { cause?: unknown }).cause;
  logger({
    level: 'error',
    msg: 'the state store is unavailable',
    error: errorMessage(cause === undefined ? error : cause),
  });
}

/** 503 with `Retry-After` and the JSON-RPC error (id null unless known). */
export function refuseStoreDown(sink: ResponseSink, id: JsonRpcId | null = null): void {
  refuse(sink, { status: 503, message: STATE_UNAVAILABLE_MESSAGE }, RETRY_SOON, RpcErrorCode.InternalError, id);
}

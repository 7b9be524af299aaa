/**
 * `RequestFault`: the one thing a method handler throws to answer its request with a JSON-RPC
 * error. The table runner (`route-request.ts`) writes it as the error response, its `code`,
 * `message` and `data` untouched; it never leaves the kit otherwise. Everything else a handler
 * throws is the runner's to judge (an internal error, logged and answered -32603; a store that is
 * down, `STATE_UNAVAILABLE`, handed to the transport).
 */
import { makeErrorResponse, RpcErrorCode, type JsonRpcId, type JsonRpcMessage } from '../../protocol/jsonrpc.js';

/** A request the kit refuses, with the JSON-RPC error it is answered with. */
export class RequestFault extends Error {
  override readonly name = 'RequestFault';

  /** `message` and `data` go to the client as they are: they must hold nothing internal. */
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  /** -32602: the params are missing, malformed or name something this server does not have. */
  static invalidParams(message: string, data?: unknown): RequestFault {
    return new RequestFault(RpcErrorCode.InvalidParams, message, data);
  }

  /** -32601: no handler for `method` here (unknown, of the other era, or its capability not offered). */
  static methodNotFound(method: string): RequestFault {
    return new RequestFault(RpcErrorCode.MethodNotFound, `Method not found: ${method}`);
  }
}

/** The JSON-RPC error response that answers request `id` with `fault`. */
export function faultAnswer(id: JsonRpcId, fault: RequestFault): JsonRpcMessage {
  return makeErrorResponse(id, fault.code, fault.message, fault.data);
}

/**
 * Requests the peer sends us (legacy server→client requests): one handler per method, one
 * AbortController per request in progress, and the answer sent back — or not, when the peer
 * cancelled the request first. Kept apart from the outbound pending map on purpose.
 */
import { errorMessage, McpError } from './errors.js';
import {
  makeErrorResponse,
  makeResponse,
  RpcErrorCode,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from './jsonrpc.js';
import type { Disposer } from './transport.js';

/** Context given to a handler of an inbound request. */
export interface InboundRequestContext {
  /** The request's id. */
  id: JsonRpcId;
  /** Aborted when the peer cancels the request or the connection closes. */
  signal: AbortSignal;
}

/** Handles one inbound request; resolves to the result object or rejects (→ JSON-RPC error). */
export type InboundRequestHandler = (
  params: Record<string, unknown> | undefined,
  context: InboundRequestContext,
) => Promise<Record<string, unknown>> | Record<string, unknown>;

/** The inbound side of a connection. `reply` sends an answer (and must never throw). */
export class InboundRequests {
  private readonly handlers = new Map<string, InboundRequestHandler>();
  private readonly running = new Map<JsonRpcId, AbortController>();

  constructor(private readonly reply: (message: JsonRpcMessage) => void) {}

  /** One handler per method; a second registration replaces the first. Returns a disposer. */
  register(method: string, handler: InboundRequestHandler): Disposer {
    this.handlers.set(method, handler);
    return () => {
      if (this.handlers.get(method) === handler) this.handlers.delete(method);
    };
  }

  /** Runs the handler of `request` and answers it; unknown methods get -32601. */
  handle(request: JsonRpcRequest): void {
    const handler = this.handlers.get(request.method);
    if (!handler) {
      this.reply(makeErrorResponse(request.id, RpcErrorCode.MethodNotFound, `Method not found: ${request.method}`));
      return;
    }
    const controller = new AbortController();
    this.running.set(request.id, controller);
    const params = Array.isArray(request.params) ? undefined : request.params;
    // Never rejects: both outcomes become an answer, and `reply` never throws.
    void Promise.resolve()
      .then(() => handler(params, { id: request.id, signal: controller.signal }))
      .then(
        (result) => makeResponse(request.id, result ?? {}),
        (error: unknown) => makeErrorResponse(request.id, rpcCodeOf(error), errorMessage(error), rpcDataOf(error)),
      )
      .then((response) => {
        if (this.running.get(request.id) !== controller) return;
        this.running.delete(request.id);
        // A request the peer cancelled gets no answer (the spec: the receiver should not respond).
        if (!controller.signal.aborted) this.reply(response);
      });
  }

  /** The peer cancelled request `id`: its handler's signal aborts. Unknown ids are ignored. */
  cancel(id: JsonRpcId, reason: McpError): void {
    this.running.get(id)?.abort(reason);
  }

  /** The connection is going down: every handler's signal aborts; nothing more will be answered. */
  abortAll(reason: McpError): void {
    for (const controller of this.running.values()) controller.abort(reason);
    this.running.clear();
  }
}

function rpcCodeOf(error: unknown): number {
  if (error instanceof McpError) {
    if (error.rpcCode !== undefined) return error.rpcCode;
    if (error.code === 'INVALID_ARGUMENT') return RpcErrorCode.InvalidParams;
    if (error.code === 'INPUT_UNSUPPORTED') return RpcErrorCode.MethodNotFound;
  }
  return RpcErrorCode.InternalError;
}

function rpcDataOf(error: unknown): unknown {
  return error instanceof McpError ? error.data : undefined;
}

/**
 * Requests the server sends the client (legacy server→client input: sampling, elicitation,
 * roots): ids of their own, one pending record each, settled by the client's response, the
 * request's abort (with `notifications/cancelled`) or the connection's end.
 */
import { McpError } from '../protocol/errors.js';
import { makeNotification, makeRequest, type JsonRpcId, type JsonRpcMessage } from '../protocol/jsonrpc.js';

interface Pending {
  method: string;
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: unknown) => void;
  cleanup: () => void;
}

export class OutboundRequests {
  private readonly pending = new Map<JsonRpcId, Pending>();
  private next = 1;

  /**
   * Sends `method` through `send` and resolves with the client's result. Rejects with
   * `SERVER_ERROR` (the client's JSON-RPC error: `rpcCode`, `data`), `CANCELLED` when `signal`
   * aborts (the client is told), or `CONNECTION_CLOSED` from {@link rejectAll}.
   */
  request(
    method: string,
    params: Record<string, unknown>,
    signal: AbortSignal,
    send: (message: JsonRpcMessage) => void,
  ): Promise<Record<string, unknown>> {
    if (signal.aborted)
      return Promise.reject(
        new McpError('CANCELLED', 'was cancelled before it was sent', { method, cause: signal.reason }),
      );
    const id = `s${this.next++}`;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        if (!this.pending.delete(id)) return;
        send(
          makeNotification('notifications/cancelled', { requestId: id, reason: 'the request it served was cancelled' }),
        );
        reject(new McpError('CANCELLED', 'was cancelled', { method, cause: signal.reason }));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, { method, resolve, reject, cleanup: () => signal.removeEventListener('abort', onAbort) });
      send(makeRequest(id, method, params));
    });
  }

  /** Settles the request `id` answers; false when it is not ours (late, unknown). */
  settle(
    id: JsonRpcId | null,
    outcome: { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } },
  ): boolean {
    const record = id === null ? undefined : this.pending.get(id);
    if (!record) return false;
    this.pending.delete(id!);
    record.cleanup();
    if ('result' in outcome) record.resolve(outcome.result);
    else
      record.reject(
        new McpError('SERVER_ERROR', `failed on the client: ${outcome.error.message} (${outcome.error.code})`, {
          method: record.method,
          rpcCode: outcome.error.code,
          rpcMessage: outcome.error.message,
          data: outcome.error.data,
        }),
      );
    return true;
  }

  rejectAll(reason: McpError): void {
    for (const record of this.pending.values()) {
      record.cleanup();
      record.reject(reason);
    }
    this.pending.clear();
  }
}

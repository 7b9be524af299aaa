/**
 * JSON-RPC over `postMessage` between the host page and one proxy frame. A message counts only
 * when its `event.source` is the proxy frame's window and its `event.origin` the sandbox origin:
 * the view (same-origin with the proxy) can post to `window.top` directly, and such a message,
 * like any other page's, is dropped unread. Everything sent goes to the proxy frame's window with
 * the sandbox origin as target, so it reaches nobody else.
 */
import { McpError } from '../protocol/errors.js';
import {
  classifyMessage,
  makeErrorResponse,
  makeNotification,
  makeRequest,
  makeResponse,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
} from '../protocol/jsonrpc.js';
import type { AppFrame, HostWindow, MessageEventShape } from './dom-shapes.js';

/** What the channel hands its owner. */
export interface ChannelHandlers {
  onRequest(request: JsonRpcRequest): void;
  onNotification(notification: JsonRpcNotification): void;
  /** Every message posted to the proxy (`out`) and every one heard from it (`in`), as it is. */
  onFrame?(dir: 'out' | 'in', message: unknown): void;
}

interface Pending {
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export class ViewChannel {
  readonly #window: HostWindow;
  readonly #frame: AppFrame;
  readonly #origin: string;
  readonly #handlers: ChannelHandlers;
  readonly #pending = new Map<JsonRpcId, Pending>();
  readonly #listener = (event: MessageEventShape) => this.#receive(event);
  #nextId = 1;
  #closed = false;

  /** Starts listening on `window` at once (before the frame loads, so no first message is missed). */
  constructor(window: HostWindow, frame: AppFrame, sandboxOrigin: string, handlers: ChannelHandlers) {
    this.#window = window;
    this.#frame = frame;
    this.#origin = sandboxOrigin;
    this.#handlers = handlers;
    window.addEventListener('message', this.#listener);
  }

  /** Posts one message to the proxy (dropped once closed or before the frame has a window). */
  post(message: unknown): void {
    const target = this.#closed ? undefined : this.#frame.contentWindow;
    if (!target) return;
    target.postMessage(message, this.#origin);
    this.#handlers.onFrame?.('out', message);
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.post(makeNotification(method, params ?? {}));
  }

  respond(id: JsonRpcId, result: Record<string, unknown>): void {
    this.post(makeResponse(id, result));
  }

  respondError(id: JsonRpcId, code: number, message: string): void {
    this.post(makeErrorResponse(id, code, message));
  }

  /**
   * Sends a request and resolves with its result; rejects with `SERVER_ERROR` on an error answer,
   * `TIMEOUT` after `timeoutMs`, `CONNECTION_CLOSED` when the channel closes first.
   */
  request(method: string, params: Record<string, unknown>, timeoutMs: number): Promise<Record<string, unknown>> {
    if (this.#closed) return Promise.reject(new McpError('CONNECTION_CLOSED', `the view is gone (${method})`));
    const id = `host-${this.#nextId++}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new McpError('TIMEOUT', `the view did not answer ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
      this.post(makeRequest(id, method, params));
    });
  }

  /** Stops listening; pending requests fail with `CONNECTION_CLOSED`. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#window.removeEventListener('message', this.#listener);
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(new McpError('CONNECTION_CLOSED', `the view closed before answering ${String(id)}`));
    }
    this.#pending.clear();
  }

  #receive(event: MessageEventShape): void {
    if (this.#closed) return;
    if (event.source !== this.#frame.contentWindow || event.origin !== this.#origin) return;
    this.#handlers.onFrame?.('in', event.data);
    const classified = classifyMessage(event.data);
    switch (classified.kind) {
      case 'request':
        this.#handlers.onRequest(classified.message);
        return;
      case 'notification':
        this.#handlers.onNotification(classified.message);
        return;
      case 'response':
      case 'error': {
        const id = classified.message.id;
        const pending = id === null ? undefined : this.#pending.get(id);
        if (!pending || id === null) return;
        this.#pending.delete(id);
        clearTimeout(pending.timer);
        if (classified.kind === 'response') pending.resolve(classified.message.result);
        else
          pending.reject(
            new McpError('SERVER_ERROR', classified.message.error.message, {
              rpcCode: classified.message.error.code,
              rpcMessage: classified.message.error.message,
            }),
          );
        return;
      }
      case 'invalid':
        if (classified.id !== undefined) this.respondError(classified.id, -32600, classified.reason);
    }
  }
}

/**
 * The answer to one POST: JSON by default, switched to an SSE stream the first time a
 * notification must go out before the answer (progress, a log message) and the client accepts
 * SSE. Without SSE, such notifications are dropped (the answer still comes). Each SSE event gets
 * an id (no replay: these streams are per request and end with their answer).
 */
import type { ServerResponse } from 'node:http';
import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';

export class ResponseChannel {
  private streaming = false;
  private nextEventId = 1;
  private ended = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly sse: boolean,
    private readonly headers: Record<string, string>,
  ) {}

  /** True once the response is finished or the client went away. */
  get closed(): boolean {
    return this.ended || this.res.destroyed || this.res.writableEnded;
  }

  /** True when the client accepts SSE, so messages can go before the answer. */
  get canStream(): boolean {
    return this.sse;
  }

  /** Sends a message tied to the request (a notification, a server request), when SSE allows it. Never throws. */
  notify(message: JsonRpcMessage): void {
    if (this.closed || !this.sse) return;
    if (!this.streaming) {
      this.streaming = true;
      this.res.writeHead(200, { ...this.headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    }
    this.event(message);
  }

  /** Sends the answer (one message or a batch array) and ends the response. */
  finish(answer: JsonRpcMessage | JsonRpcMessage[], status = 200): void {
    if (this.closed) return;
    this.ended = true;
    if (this.streaming) {
      for (const message of Array.isArray(answer) ? answer : [answer]) this.event(message);
      this.res.end();
      return;
    }
    const body = JSON.stringify(answer);
    this.res.writeHead(status, { ...this.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    this.res.end(body);
  }

  private event(message: JsonRpcMessage): void {
    this.res.write(`id: ${this.nextEventId++}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`);
  }
}

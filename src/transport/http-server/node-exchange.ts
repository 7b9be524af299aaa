/**
 * The Node edge of the server end of HTTP: `node:http`'s `IncomingMessage` and `ServerResponse`
 * as an {@link HttpRequestIn} and a {@link ResponseSink}, written straight to the response (no
 * `Request`/`Response` objects are made: a call costs what it cost before the core was neutral).
 * Node only; the neutral core never imports it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deadline, DeadlineSet } from '../../protocol/deadline-set.js';
import type { Disposer } from '../../protocol/transport.js';
import { isEventStream, type KeepAliveBeat, type SseKeepAlive } from './sse-keep-alive.js';
import type { HttpPeer, HttpRequestIn, Refusal, ResponseSink } from './http-exchange.js';

/** A Node request as the core reads it. */
export class NodeRequestIn implements HttpRequestIn {
  constructor(readonly raw: IncomingMessage) {}

  get method(): string {
    return this.raw.method ?? 'GET';
  }

  get target(): string {
    return this.raw.url ?? '/';
  }

  /** The socket: it has the four address fields (undefined once it is gone). */
  get peer(): HttpPeer | undefined {
    return this.raw.socket ?? undefined;
  }

  header(name: string): string | undefined {
    const value = this.raw.headers[name];
    return Array.isArray(value) ? value[0] : value;
  }

  /**
   * The body as text, without buffering past the cap: 413 past `maxBytes` (a declared
   * `content-length` over it is refused before reading), 408 past `timeoutMs`, 400 when the client
   * broke off. What is left of a refused body is drained so the socket can answer. A body a
   * parser mounted before already read is taken from `req.body` ({@link parsedBody}).
   */
  text(maxBytes: number, timeoutMs: number, deadlines: DeadlineSet): Promise<{ text: string } | Refusal> {
    const req = this.raw;
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes)
      return Promise.resolve({ status: 413, message: `Payload Too Large: the body is over ${maxBytes} bytes` });
    if (req.readableEnded) return Promise.resolve(parsedBody(req, maxBytes));
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const finish = (outcome: { text: string } | Refusal): void => {
        if (settled) return;
        settled = true;
        deadlines.delete(deadline);
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onError);
        req.off('aborted', onError);
        if ('status' in outcome) req.resume();
        resolve(outcome);
      };
      const onData = (chunk: Buffer): void => {
        size += chunk.length;
        if (size > maxBytes)
          return finish({ status: 413, message: `Payload Too Large: the body is over ${maxBytes} bytes` });
        chunks.push(chunk);
      };
      const onEnd = (): void => finish({ text: Buffer.concat(chunks).toString('utf8') });
      const onError = (): void => finish({ status: 400, message: 'Bad Request: the body could not be read' });
      const deadline: Deadline = {
        due: Infinity,
        expire: () =>
          finish({ status: 408, message: `Request Timeout: the body did not arrive within ${timeoutMs} ms` }),
      };
      deadlines.add(deadline, timeoutMs);
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', onError);
      req.on('aborted', onError);
    });
  }
}

/**
 * The body a parser mounted before the handler already read (Express's `express.json()`, a
 * framework that sets `req.body`): a string or bytes as they are, anything else as its JSON. Without
 * one there is nothing left to read: a 500 that says where to mount the handler.
 */
function parsedBody(req: IncomingMessage, maxBytes: number): { text: string } | Refusal {
  const given = (req as { body?: unknown }).body;
  if (given === undefined)
    return {
      status: 500,
      message:
        'Internal Server Error: the request body was already read before the MCP handler (mount it before any body parser)',
    };
  const text =
    typeof given === 'string'
      ? given
      : given instanceof Uint8Array
        ? Buffer.from(given.buffer, given.byteOffset, given.byteLength).toString('utf8')
        : JSON.stringify(given);
  if (Buffer.byteLength(text) > maxBytes)
    return { status: 413, message: `Payload Too Large: the body is over ${maxBytes} bytes` };
  return { text };
}

/** A Node response as the core writes it. */
export class NodeSink implements ResponseSink {
  /** The keep-alive of the SSE stream this response opened, while it runs. */
  private beat: KeepAliveBeat | undefined;

  /** `keepAlive`: where an SSE stream this response opens is kept alive; none: never. */
  constructor(
    readonly raw: ServerResponse,
    private readonly keepAlive?: SseKeepAlive,
  ) {}

  get done(): boolean {
    return this.raw.destroyed || this.raw.writableEnded;
  }

  get started(): boolean {
    return this.raw.headersSent;
  }

  send(status: number, headers: Readonly<Record<string, string>>, body?: string): void {
    const res = this.raw;
    if (res.destroyed || res.writableEnded) return;
    if (body === undefined) {
      res.writeHead(status, headers).end();
      return;
    }
    // The headers are this response's own (the interface's contract): no copy to make.
    (headers as Record<string, string | number>)['content-length'] = Buffer.byteLength(body);
    res.writeHead(status, headers);
    res.end(body);
  }

  open(status: number, headers: Readonly<Record<string, string>>): void {
    const res = this.raw;
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(status, headers);
    if (this.keepAlive && isEventStream(headers)) {
      const beat = (this.beat = this.keepAlive.watch(this));
      if (beat) res.once('close', () => beat.ended());
    }
    // The headers go now (a stream may write nothing for a while); corked with what follows this tick.
    res.write('');
  }

  write(chunk: string): void {
    const res = this.raw;
    if (res.destroyed || res.writableEnded) return;
    res.write(chunk);
    this.beat?.wrote();
  }

  end(): void {
    this.beat?.ended();
    if (!this.raw.writableEnded) this.raw.end();
  }

  abort(): void {
    this.beat?.ended();
    this.raw.destroy();
  }

  setHeader(name: string, value: string): void {
    if (!this.raw.headersSent) this.raw.setHeader(name, value);
  }

  onClose(listener: () => void): Disposer {
    const res = this.raw;
    const onClose = (): void => {
      if (!res.writableFinished) listener();
    };
    res.on('close', onClose);
    return () => res.off('close', onClose);
  }
}

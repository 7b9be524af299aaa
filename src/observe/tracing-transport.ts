/**
 * Tracing as a decorator: a transport that forwards everything to the one it wraps and reports
 * each frame that crosses it, both ways, as a `TraceRecord` (see `trace-record.ts`). The wrapped transport does not
 * know it is watched; a connection over the decorator cannot tell it from the real one. Without
 * tracing nothing is wrapped, so an untraced connection pays nothing.
 *
 * What becomes a record:
 * - every message sent (`out`) and every value received (`in`; a batch is one record);
 * - over HTTP (when given the HTTP transport's `exchanges` observer), the frames as it reports them on the
 *   wire, each with its HTTP facts: requests at once with their request headers; notifications
 *   and responses once the server's status came back, with that status; received messages with
 *   the response's status and headers; GET, DELETE and answers without a message (a 202, an error
 *   status) as `http` events;
 * - junk the transport skipped (`invalid-json`, `oversize` diagnostics) as `invalid` records with
 *   the sample; other diagnostics as `diagnostic` events;
 * - a failed send (`send-failed`), the close (`close`, with the error), and for a process the
 *   `spawn` (pid, command, arguments; never the environment) and `exit` (code, signal) events.
 */
import { classifyMessage } from '../protocol/jsonrpc.js';
import type { CloseInfo, Disposer, SendOptions, Transport, TransportDiagnostic } from '../protocol/transport.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import { Inbox } from '../transport/inbox.js';
import type { HttpExchangeInfo } from '../transport/http/exchange-reporter.js';
import { guardSink, type TraceSink } from './trace-sink.js';
import { TraceBuilder } from './trace-builder.js';
import type { TraceHttp, TraceRecord } from './trace-record.js';
import { errorMessage, type McpError } from '../protocol/errors.js';

/** Options of {@link traceTransport}. */
export interface TraceTransportOptions {
  /** The server's display name in every record (ignored when `builder` is given: the builder's is used). */
  server: string;
  /** Receives the records. Guarded: a throw is reported once on stderr and never reaches the traffic. */
  sink: TraceSink;
  /** Values replaced by `***` wherever they occur (tokens, configured env values); at least 4 characters. */
  secrets?: Iterable<string>;
  /**
   * A builder shared by the transports of one connection attempt (probe routes, a restarted
   * process), so that `t` keeps counting and the revision carries over. Default: a new one.
   */
  builder?: TraceBuilder;
  /** The process the caller just started for `inner`: recorded as a `spawn` event (never its environment). */
  spawned?: { command: string; args?: readonly string[] };
  /**
   * The process behind `inner` (a stdio transport): its pid for the `spawn` record and its exit for the `exit` record.
   */
  process?: TracedProcess;
  /**
   * Registers an observer of the HTTP facts of the wrapped transport (an HTTP transport's
   * `onExchange`; the client's trace hook wires it). Given, frames are recorded as the transport
   * reports them on the wire, with their HTTP facts; absent, as they cross `send` and `onMessage`.
   */
  exchanges?: (listener: (info: HttpExchangeInfo) => void) => Disposer;
}

/** The process behind a traced transport, as the caller knows it (the decorator never asks the transport). */
export interface TracedProcess {
  readonly pid: number;
  /** How the process ended, once it has (read at the close, for the `exit` record). */
  readonly exitStatus: { code: number | null; signal: string | null } | undefined;
}

/** How many HTTP exchanges awaiting their answer are remembered (the oldest are forgotten first). */
const MAX_OPEN_EXCHANGES = 1_000;
/** No value reported by the transport is waiting to be delivered. */
const NOTHING = Symbol('nothing');

/** An HTTP exchange the decorator saw leave and has not yet seen answered. */
interface OpenExchange {
  request: TraceHttp;
  /** The JSON-RPC message posted, if any. */
  message?: JsonRpcMessage;
  /** A notification or response whose record waits for the status line. */
  held: boolean;
}

/**
 * Wraps `inner` so that every frame is reported to `options.sink`. The result forwards `send`,
 * `onMessage`, `onDiagnostic`, `close`, `destroy` and `closed`, and never looks at what `inner`
 * is: what the tracing needs of its kind (a process, HTTP facts) comes in `options`. Records
 * never carry a secret (see {@link TraceBuilder}). Wrap a transport before anyone else listens
 * to it: values delivered earlier are not seen.
 */
export function traceTransport(inner: Transport, options: TraceTransportOptions): Transport {
  return new TracingTransport(inner, options);
}

class TracingTransport implements Transport {
  readonly closed: Promise<CloseInfo>;
  private readonly inner: Transport;
  private readonly process: TracedProcess | undefined;
  private readonly builder: TraceBuilder;
  private readonly emit: TraceSink;
  private readonly inbox = new Inbox<unknown>();
  /** True when given the inner transport's HTTP facts: frames then come from its reports. */
  private readonly http: boolean;
  private readonly exchanges = new Map<number, OpenExchange>();
  /** The last exchange each posted message went out in, to settle it when its send does. */
  private readonly exchangeOf = new Map<JsonRpcMessage, number>();
  /** Messages the transport reported leaving (their records are written from the report). */
  private readonly reportedOut = new WeakSet<object>();
  /** The value the transport reported receiving and is about to deliver (recorded already). */
  private reportedIn: unknown = NOTHING;
  private closing: Promise<void> | undefined;
  private ended = false;
  private exitRecorded = false;

  constructor(inner: Transport, options: TraceTransportOptions) {
    this.inner = inner;
    this.builder =
      options.builder ??
      new TraceBuilder({ server: options.server, ...(options.secrets ? { secrets: options.secrets } : {}) });
    this.emit = guardSink(options.sink);
    this.closed = inner.closed;
    this.process = options.process;
    if (options.spawned) {
      const { command, args = [] } = options.spawned;
      this.emit(this.builder.event('spawn', { pid: this.process?.pid, command, args: [...args] }, 'out'));
    }
    this.http = options.exchanges !== undefined;
    // Registered first: the HTTP+SSE transport replays its connecting GET to the first listener.
    options.exchanges?.((info) => this.exchanged(info));
    inner.onDiagnostic((diagnostic) => this.diagnosed(diagnostic));
    inner.onMessage((value) => this.received(value));
    void inner.closed.then((info) => this.closedWith(info));
  }

  /**
   * Forwards to the inner transport. Without HTTP facts the record is written once the message
   * was taken (at once for a synchronous send, on fulfilment otherwise); a rejected send becomes
   * a `send-failed` event instead (not after the transport closed).
   */
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void> | void {
    if (this.http) this.exchangeOf.delete(message);
    const sent = this.inner.send(message, options);
    if (sent === undefined) {
      this.taken(message);
      return sent;
    }
    sent.then(
      () => this.taken(message),
      (error: unknown) => this.failed(message, error),
    );
    return sent;
  }

  /** The first listener also receives what arrived before it (like every transport). */
  onMessage(listener: (value: unknown) => void): Disposer {
    return this.inbox.listen(listener);
  }

  onDiagnostic(listener: (diagnostic: TransportDiagnostic) => void): Disposer {
    return this.inner.onDiagnostic(listener);
  }

  /** Closes the inner transport; idempotent. Resolves when it does, after the `exit` event of a process. */
  close(): Promise<void> {
    this.closing ??= this.inner.close().then(() => this.noteExit());
    return this.closing;
  }

  /** Destroys the inner transport (the `close` record follows when its `closed` resolves). */
  destroy(reason?: McpError): void {
    this.inner.destroy(reason);
  }

  // ---- frames ----

  private received(value: unknown): void {
    if (this.reportedIn !== NOTHING && Object.is(value, this.reportedIn)) {
      this.reportedIn = NOTHING;
    } else {
      this.emit(this.builder.frame('in', value));
    }
    this.inbox.deliver(value);
  }

  /** The message was taken by a transport that reports no HTTP facts (or, over HTTP, its send settled). */
  private taken(message: JsonRpcMessage): void {
    if (!this.http) {
      this.emit(this.builder.frame('out', message));
      return;
    }
    const open = this.settle(message);
    if (open?.held) this.emit(this.builder.frame('out', message, undefined, open.request));
    else if (!this.reportedOut.has(message)) this.emit(this.builder.frame('out', message));
  }

  private failed(message: JsonRpcMessage, error: unknown): void {
    if (this.http) this.settle(message);
    if (this.ended || this.closing) return;
    const classified = classifyMessage(message);
    const detail: Record<string, unknown> = { error: errorMessage(error) };
    if (classified.kind === 'request' || classified.kind === 'notification') detail.method = classified.message.method;
    if ('id' in message) detail.id = message.id;
    const code = (error as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') detail.code = code;
    this.emit(this.builder.event('send-failed', detail, 'out'));
  }

  /** Forgets the exchange a settled send went out in; returns it if it was still open. */
  private settle(message: JsonRpcMessage): OpenExchange | undefined {
    const exchange = this.exchangeOf.get(message);
    if (exchange === undefined) return undefined;
    this.exchangeOf.delete(message);
    const open = this.exchanges.get(exchange);
    this.exchanges.delete(exchange);
    return open;
  }

  // ---- HTTP facts ----

  private exchanged(info: HttpExchangeInfo): void {
    if (info.direction === 'out') return this.left(info);
    const open = this.exchanges.get(info.exchange);
    if (open) {
      // The first answer of an exchange settles it: later messages of a stream carry their own facts.
      this.exchanges.delete(info.exchange);
      if (open.message) this.exchangeOf.delete(open.message);
    }
    const response: TraceHttp = {
      method: info.method,
      url: info.url,
      headers: info.headers,
      ...(info.status !== undefined ? { status: info.status } : {}),
    };
    if (open?.held && open.message) {
      this.emit(
        this.builder.frame('out', open.message, undefined, {
          ...open.request,
          ...(info.status !== undefined ? { status: info.status } : {}),
        }),
      );
      if (info.message === undefined) return;
    }
    const request = open?.message ? classifyMessage(open.message) : undefined;
    if (info.message !== undefined) {
      // The exchange's request is what an error with id null in its body answers.
      const answering = request?.kind === 'request' ? request.message.id : undefined;
      this.emit(this.builder.frame('in', info.message, undefined, response, answering));
      this.reportedIn = info.message;
      return;
    }
    // A status line without a message: a GET or DELETE answered, or a POST answered by status alone.
    const detail: Record<string, unknown> = { status: info.status };
    let answer: Partial<TraceRecord> = {};
    if (request?.kind === 'request') {
      detail.request = request.message.method;
      detail.id = request.message.id;
      answer = this.builder.answeredByStatus(request.message.id, info.status);
    }
    // GET and DELETE have only this record: it carries what they sent too (Last-Event-ID, the session).
    const headers = open && !open.message ? { ...open.request.headers, ...info.headers } : info.headers;
    this.emit({ ...this.builder.event('http', detail, 'in', { ...response, headers }), ...answer });
  }

  private left(info: HttpExchangeInfo): void {
    const request: TraceHttp = { method: info.method, url: info.url, headers: info.headers };
    const message = info.message as JsonRpcMessage | undefined;
    let held = false;
    if (message !== undefined && typeof message === 'object' && message !== null) {
      this.reportedOut.add(message);
      this.exchangeOf.set(message, info.exchange);
      // A request is recorded as it leaves (its latency counts from here); a notification or
      // response when its status comes back, so the record can say whether the server took it.
      held = !('method' in message && 'id' in message);
      if (!held) this.emit(this.builder.frame('out', message, undefined, request));
    }
    if (this.exchanges.size >= MAX_OPEN_EXCHANGES) this.forgetOldest();
    this.exchanges.set(info.exchange, message === undefined ? { request, held } : { request, message, held });
  }

  private forgetOldest(): void {
    const [exchange, open] = this.exchanges.entries().next().value as [number, OpenExchange];
    this.exchanges.delete(exchange);
    if (open.message) this.exchangeOf.delete(open.message);
  }

  // ---- diagnostics and lifecycle ----

  private diagnosed(diagnostic: TransportDiagnostic): void {
    if (diagnostic.kind === 'invalid-json' || diagnostic.kind === 'oversize') {
      this.emit(this.builder.invalid('in', diagnostic.sample ?? diagnostic.message));
      return;
    }
    this.emit(
      this.builder.event('diagnostic', {
        kind: diagnostic.kind,
        message: diagnostic.message,
        ...(diagnostic.sample !== undefined ? { sample: diagnostic.sample } : {}),
      }),
    );
  }

  private closedWith(info: CloseInfo): void {
    this.ended = true;
    this.noteExit();
    const detail: Record<string, unknown> = {};
    if (info.error) {
      detail.error = info.error.message;
      detail.code = info.error.code;
    }
    this.emit(this.builder.event('close', detail));
  }

  /** A process transport's exit, once known (at `closed`, or when close() completes). */
  private noteExit(): void {
    if (this.exitRecorded) return;
    const status = this.process?.exitStatus;
    if (status === undefined) return;
    this.exitRecorded = true;
    this.emit(this.builder.event('exit', { code: status.code, signal: status.signal }));
  }
}

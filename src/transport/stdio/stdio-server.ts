/**
 * `StdioServerTransport`: the server's side of stdio. NDJSON over the process's own stdin and
 * stdout (or any pair of streams given), nothing else on stdout: a server logs on stderr. It
 * spawns nothing (the client's `StdioTransport` does that). The end of stdin is the client's
 * "finish up" (the stdio shutdown rules): reading stops and {@link StdioServerTransport.inputEnded}
 * resolves, but stdout stays open so the answers to calls in flight can still be written; the
 * session closes the transport once they are done. It closes at once when stdout breaks, and on
 * `close()` / `destroy()`.
 */
import type { Readable, Writable } from 'node:stream';
import { McpError } from '../../protocol/errors.js';
import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { CloseInfo, Disposer, Transport, TransportDiagnostic } from '../../protocol/transport.js';
import { Inbox } from '../inbox.js';
import { DEFAULT_MAX_MESSAGE_BYTES, encodeMessage, NdjsonDecoder } from '../ndjson-framer.js';

/** Options of {@link StdioServerTransport}. */
export interface StdioServerTransportOptions {
  /** Where messages are read (default `process.stdin`). */
  stdin?: Readable;
  /** Where messages are written (default `process.stdout`). */
  stdout?: Writable;
  /**
   * Largest accepted inbound line in bytes (default 16 MiB); longer lines are dropped with an `oversize` diagnostic.
   */
  maxMessageBytes?: number;
}

const OPTION_KEYS = new Set(['stdin', 'stdout', 'maxMessageBytes']);

/** A message pipe over a pair of byte streams, from the server's side. */
export class StdioServerTransport implements Transport {
  readonly kind = 'stdio-server' as const;
  readonly closed: Promise<CloseInfo>;
  /**
   * Resolves once stdin has ended (every line before the end delivered) or the transport closed:
   * no more messages will come, while sending still works until `close()`.
   */
  readonly inputEnded: Promise<void>;
  private resolveInputEnded!: () => void;
  private readonly stdin: Readable;
  private readonly stdout: Writable;
  private readonly inbox = new Inbox<unknown>();
  private readonly diagnostics = new Set<(d: TransportDiagnostic) => void>();
  private readonly decoder: NdjsonDecoder;
  private readonly unhook: Array<() => void> = [];
  /** Writers waiting for 'drain' (stdout's buffer is full). */
  private drainWaiters: Array<() => void> = [];
  private resolveClosed!: (info: CloseInfo) => void;
  private readonly stopReading: () => void;
  private done = false;

  /** Starts reading at once. Throws `INVALID_ARGUMENT` for an unknown option key. */
  constructor(options: StdioServerTransportOptions = {}) {
    for (const key of Object.keys(options)) {
      if (!OPTION_KEYS.has(key)) throw new McpError('INVALID_ARGUMENT', `unknown StdioServerTransport option "${key}"`);
    }
    this.stdin = options.stdin ?? process.stdin;
    this.stdout = options.stdout ?? process.stdout;
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.inputEnded = new Promise((resolve) => (this.resolveInputEnded = resolve));
    this.decoder = new NdjsonDecoder(
      { message: (value) => this.inbox.deliver(value), diagnostic: (d) => this.emitDiagnostic(d) },
      { maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES },
    );
    const onData = (chunk: Buffer | string): void => this.decoder.push(chunk);
    const onEnd = (): void => {
      this.decoder.end();
      this.stopReading();
      this.resolveInputEnded();
    };
    const onReadError = (error: Error): void =>
      this.shut(new McpError('TRANSPORT', `stdin failed: ${error.message}`, { cause: error }));
    const onWriteError = (error: Error): void =>
      this.shut(new McpError('TRANSPORT', `stdout failed: ${error.message}`, { cause: error }));
    const onDrain = (): void => this.releaseWriters();
    this.stdin.on('data', onData);
    this.stdin.on('end', onEnd);
    this.stdin.on('error', onReadError);
    this.stdout.on('error', onWriteError);
    this.stdout.on('drain', onDrain);
    this.unhook.push(() => {
      this.stdout.off('error', onWriteError);
      this.stdout.off('drain', onDrain);
    });
    this.stopReading = () => {
      this.stdin.off('data', onData);
      this.stdin.off('end', onEnd);
      this.stdin.off('error', onReadError);
      // Reading stopped: a paused stdin no longer keeps the process alive.
      this.stdin.pause();
    };
  }

  /**
   * Writes one line. Returns nothing when the stream took it; a promise that resolves on 'drain'
   * when its buffer is full; a rejected promise (`CONNECTION_CLOSED`) once closed.
   */
  send(message: JsonRpcMessage): Promise<void> | void {
    if (this.done) return Promise.reject(new McpError('CONNECTION_CLOSED', 'cannot send: stdio is closed'));
    let line: string;
    try {
      line = encodeMessage(message);
    } catch (error) {
      return Promise.reject(
        new McpError('TRANSPORT', 'cannot send: the message is not serialisable as JSON', { cause: error }),
      );
    }
    if (this.stdout.write(line)) return;
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  onMessage(listener: (value: unknown) => void): Disposer {
    return this.inbox.listen(listener);
  }

  onDiagnostic(listener: (diagnostic: TransportDiagnostic) => void): Disposer {
    this.diagnostics.add(listener);
    return () => {
      this.diagnostics.delete(listener);
    };
  }

  /**
   * Stops reading and lets what was written reach stdout. Idempotent. It does not end the
   * streams it was given (process.stdout must stay open for the process's last words).
   */
  close(): Promise<void> {
    this.shut();
    return this.closed.then(() => undefined);
  }

  /**
   * Stops reading now; `closed` resolves with `reason`. The same as {@link close} here, since the
   * transport owns no stream to tear down (what was written still reaches stdout). Synchronous.
   */
  destroy(reason?: McpError): void {
    this.shut(reason);
  }

  private shut(error?: McpError): void {
    if (this.done) return;
    this.done = true;
    this.stopReading();
    for (const undo of this.unhook) undo();
    this.releaseWriters();
    this.resolveInputEnded();
    this.resolveClosed(error ? { error } : {});
  }

  private releaseWriters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private emitDiagnostic(diagnostic: TransportDiagnostic): void {
    for (const listener of this.diagnostics) {
      try {
        listener(diagnostic);
      } catch {
        // Diagnostics are advisory.
      }
    }
  }
}

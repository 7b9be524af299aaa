/**
 * A test-only `Transport` decorator that records every message crossing it, both ways, so a test
 * can prove what the client put on the wire (and that all of it is valid for the revision).
 */
import type { JsonRpcMessage } from '../../src/protocol/jsonrpc.js';
import type { CloseInfo, Disposer, SendOptions, Transport, TransportDiagnostic } from '../../src/protocol/transport.js';
import type { McpError } from '../../src/protocol/errors.js';
import type { HttpExchangeInfo } from '../../src/transport/http/exchange-reporter.js';
import { assertValidMessage, type MessageDirection } from './spec-schemas.js';

/** One recorded wire value: a message, or a batch array as it arrived. */
export interface RecordedMessage {
  /** `sent` = handed to the inner transport's `send`; `received` = yielded by the inner transport. */
  direction: 'sent' | 'received';
  /** `Date.now()` when the decorator saw it. */
  at: number;
  /** Order across both directions, from 0. */
  seq: number;
  message: unknown;
}

/**
 * Wraps `inner` and records traffic. Sends are recorded when `send` is called (whether or not the
 * inner transport then accepts them). Inbound values are recorded once each, however many
 * listeners are registered, and buffered while no listener is registered — the same contract as
 * the inner transport. Closing the decorator closes the inner transport.
 */
export class RecordingTransport implements Transport {
  /** Every recorded value, in order. */
  readonly log: RecordedMessage[] = [];
  private readonly listeners = new Set<(value: unknown) => void>();
  private readonly backlog: unknown[] = [];
  private subscribed = false;
  private nextSeq = 0;

  constructor(readonly inner: Transport) {}

  /** The values sent through this transport, in order. */
  get sent(): RecordedMessage[] {
    return this.log.filter((r) => r.direction === 'sent');
  }

  /** The values received from the inner transport, in order. */
  get received(): RecordedMessage[] {
    return this.log.filter((r) => r.direction === 'received');
  }

  get closed(): Promise<CloseInfo> {
    return this.inner.closed;
  }

  send(message: JsonRpcMessage, options?: SendOptions): Promise<void> | void {
    this.record('sent', message);
    return this.inner.send(message, options);
  }

  onMessage(listener: (value: unknown) => void): Disposer {
    this.listeners.add(listener);
    if (!this.subscribed) {
      // Subscribe lazily so the inner transport keeps buffering until someone listens.
      this.subscribed = true;
      this.inner.onMessage((value) => this.deliver(value));
    }
    for (const value of this.backlog.splice(0)) this.dispatch(value);
    return () => {
      this.listeners.delete(listener);
    };
  }

  onDiagnostic(listener: (diagnostic: TransportDiagnostic) => void): Disposer {
    return this.inner.onDiagnostic(listener);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  destroy(reason?: McpError): void {
    this.inner.destroy(reason);
  }

  /** Forgets everything recorded so far (`seq` keeps counting; undelivered values stay buffered). */
  clear(): void {
    this.log.length = 0;
  }

  /**
   * Throws a readable Error on the first sent value that is not valid for `revision` as a
   * client → server message. A sent result is checked against the result of the received request
   * with the same id, when there is one.
   */
  assertAllSentValid(revision: string): void {
    this.assertAll('sent', 'client', revision);
  }

  /** Like {@link assertAllSentValid}, for what the peer sent (checked as server → client messages). */
  assertAllReceivedValid(revision: string): void {
    this.assertAll('received', 'server', revision);
  }

  private assertAll(which: RecordedMessage['direction'], direction: MessageDirection, revision: string): void {
    // Results answer requests that travelled the other way; find their methods by id.
    const requestMethods = new Map<string | number, string>();
    for (const record of this.log) {
      if (record.direction === which) continue;
      for (const m of flatten(record.message)) {
        if (typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number'))
          requestMethods.set(m.id, m.method);
      }
    }
    for (const record of this.log) {
      if (record.direction !== which) continue;
      try {
        assertValidMessage(revision, record.message, direction, { requestMethods });
      } catch (error) {
        throw new Error(`recorded ${which} message #${record.seq}: ${(error as Error).message}`, { cause: error });
      }
    }
  }

  /** Records `message` as seen elsewhere (see {@link recordHttpExchanges}). */
  note(direction: RecordedMessage['direction'], message: unknown): void {
    this.record(direction, message);
  }

  private record(direction: RecordedMessage['direction'], message: unknown): void {
    this.log.push({ direction, at: Date.now(), seq: this.nextSeq++, message });
  }

  private deliver(value: unknown): void {
    this.record('received', value);
    if (this.listeners.size === 0) this.backlog.push(value);
    else this.dispatch(value);
  }

  private dispatch(value: unknown): void {
    for (const listener of [...this.listeners]) listener(value);
  }
}

function flatten(value: unknown): Array<Record<string, unknown>> {
  const items = Array.isArray(value) ? value : [value];
  return items.filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && !Array.isArray(m));
}

/**
 * A recording of what an HTTP transport reports on the wire (its `onExchange` observer), with
 * the log of a {@link RecordingTransport} but without wrapping the transport: the client is
 * handed the transport itself, so it can tell it its session. Use the result for its log only.
 */
export function recordHttpExchanges(
  http: Transport & { onExchange(listener: (info: HttpExchangeInfo) => void): Disposer },
): RecordingTransport {
  const recording = new RecordingTransport(http);
  http.onExchange((info) => {
    if (info.message !== undefined) recording.note(info.direction === 'out' ? 'sent' : 'received', info.message);
  });
  return recording;
}

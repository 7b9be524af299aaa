/**
 * An in-memory linked transport pair, for tests and for running a client and a server in one
 * process. A message arrives on the other end a microtask later, as a JSON round-trip copy — what
 * a wire would deliver (`undefined` members dropped, no shared references). Closing or destroying
 * either end closes both.
 */
import { McpError } from '../protocol/errors.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import type { CloseInfo, Disposer, Transport, TransportDiagnostic } from '../protocol/transport.js';
import { Inbox } from './inbox.js';

class LinkedEnd implements Transport {
  peer!: LinkedEnd;
  readonly closed: Promise<CloseInfo>;
  private readonly inbox = new Inbox<unknown>();
  private done = false;
  private resolveClosed!: (info: CloseInfo) => void;

  constructor() {
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.done)
      return Promise.reject(new McpError('CONNECTION_CLOSED', 'cannot send: the linked transport is closed'));
    let copy: unknown;
    try {
      const text = JSON.stringify(message);
      if (text === undefined) throw new TypeError(`${typeof message} is not JSON`);
      copy = JSON.parse(text);
    } catch (error) {
      return Promise.reject(
        new McpError('TRANSPORT', 'cannot send: the message is not serialisable as JSON', { cause: error }),
      );
    }
    // Sent before a close, so it is on the wire: delivered even if either end closes meanwhile.
    const peer = this.peer;
    queueMicrotask(() => peer.inbox.deliver(copy));
    return Promise.resolve();
  }

  onMessage(listener: (value: unknown) => void): Disposer {
    return this.inbox.listen(listener);
  }

  onDiagnostic(_listener: (diagnostic: TransportDiagnostic) => void): Disposer {
    // Nothing is ever malformed in memory.
    return () => undefined;
  }

  close(): Promise<void> {
    this.shut({});
    this.peer.shut({});
    return Promise.resolve();
  }

  /** Closes both ends now; this end's `closed` carries `reason`, the peer's none (it was not its fault). */
  destroy(reason?: McpError): void {
    this.shut(reason ? { error: reason } : {});
    this.peer.shut({});
  }

  private shut(info: CloseInfo): void {
    if (this.done) return;
    this.done = true;
    this.resolveClosed(info);
  }
}

/**
 * Two transports wired to each other: what one sends, the other receives, asynchronously and as
 * a copy, in order. `close()` on either end closes both (idempotent); `closed` then resolves on
 * both with no error, and `send` on either rejects with `CONNECTION_CLOSED`. Messages sent before
 * the close are still delivered.
 */
export function createLinkedPair(): [Transport, Transport] {
  const a = new LinkedEnd();
  const b = new LinkedEnd();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

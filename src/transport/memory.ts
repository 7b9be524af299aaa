/**
 * An in-memory linked transport pair, for tests and for running a client and a server in one
 * process. Messages arrive on the other end asynchronously (a microtask later) as deep copies,
 * as if they had crossed a wire. Closing either end closes both.
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
    if (this.done) return Promise.reject(new McpError('CONNECTION_CLOSED', 'cannot send: the linked transport is closed'));
    const copy = structuredClone(message);
    queueMicrotask(() => this.peer.deliver(copy));
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
    this.shut();
    this.peer.shut();
    return Promise.resolve();
  }

  private deliver(value: unknown): void {
    if (!this.done) this.inbox.deliver(value);
  }

  private shut(): void {
    if (this.done) return;
    this.done = true;
    this.resolveClosed({});
  }
}

/** Two transports wired to each other: what one sends, the other receives. */
export function createLinkedPair(): [Transport, Transport] {
  const a = new LinkedEnd();
  const b = new LinkedEnd();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

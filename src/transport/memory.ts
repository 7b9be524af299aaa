/**
 * An in-memory linked transport pair, for tests and for running a client and a server in one
 * process. Messages arrive on the other end asynchronously (a microtask later) as deep copies,
 * as if they had crossed a wire. Closing either end closes both.
 */
import { McpError } from '../protocol/errors.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import type { CloseInfo, Disposer, Transport, TransportDiagnostic } from '../protocol/transport.js';

class LinkedEnd implements Transport {
  peer!: LinkedEnd;
  readonly closed: Promise<CloseInfo>;
  private readonly listeners = new Set<(value: unknown) => void>();
  private backlog: unknown[] | undefined = [];
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
    this.listeners.add(listener);
    const backlog = this.backlog;
    if (backlog) {
      this.backlog = undefined;
      for (const value of backlog) listener(value);
    }
    return () => {
      this.listeners.delete(listener);
    };
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
    if (this.done) return;
    if (this.backlog) {
      this.backlog.push(value);
      return;
    }
    for (const listener of this.listeners) listener(value);
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

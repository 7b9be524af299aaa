/** Temporary test-only linked pair until src/transport/memory.ts lands. */
import type { JsonRpcMessage } from '../../src/protocol/jsonrpc.js';
import type { CloseInfo, Disposer, Transport, TransportDiagnostic } from '../../src/protocol/transport.js';

class End implements Transport {
  other!: End;
  private listeners = new Set<(v: unknown) => void>();
  private backlog: unknown[] = [];
  private done = false;
  private resolveClosed!: (i: CloseInfo) => void;
  readonly closed = new Promise<CloseInfo>((r) => (this.resolveClosed = r));
  send(message: JsonRpcMessage): Promise<void> {
    if (this.done) return Promise.reject(new Error('closed'));
    const copy = JSON.parse(JSON.stringify(message));
    queueMicrotask(() => this.other.deliver(copy));
    return Promise.resolve();
  }
  deliver(v: unknown) {
    if (this.done) return;
    if (this.listeners.size === 0) this.backlog.push(v);
    for (const l of this.listeners) l(v);
  }
  onMessage(l: (v: unknown) => void): Disposer {
    this.listeners.add(l);
    const b = this.backlog.splice(0);
    for (const v of b) l(v);
    return () => this.listeners.delete(l);
  }
  onDiagnostic(_l: (d: TransportDiagnostic) => void): Disposer {
    return () => {};
  }
  async close(): Promise<void> {
    this.shut();
    this.other.shut();
  }
  shut() {
    if (this.done) return;
    this.done = true;
    this.resolveClosed({});
  }
}

export function createLinkedPair(): [Transport, Transport] {
  const a = new End();
  const b = new End();
  a.other = b;
  b.other = a;
  return [a, b];
}

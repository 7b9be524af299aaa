/**
 * The far end of an in-memory transport pair, scripted by the test: it records what arrives
 * and answers requests through a per-method responder. For unit tests of the connection and
 * the client without a process.
 */
import type { JsonRpcMessage } from '../../src/protocol/jsonrpc.js';
import type { Transport } from '../../src/protocol/transport.js';
import { createLinkedPair } from '../../src/transport/memory.js';

export type Responder = (
  message: { id?: string | number; method: string; params?: Record<string, unknown> },
  peer: ScriptedPeer,
) => unknown;

/** What the responder returns: a result object, `{ error }`, `NO_REPLY`, or a raw value via `RAW`. */
export const NO_REPLY = Symbol('no reply');
export class Raw {
  constructor(readonly value: unknown) {}
}

export class ScriptedPeer {
  readonly received: Array<Record<string, unknown>> = [];
  /** Everything the peer sent to the client. */
  readonly sent: unknown[] = [];
  /** Both directions in wire order, in the transcript format (`c2s` = client to server). */
  readonly wire: Array<{ dir: 'c2s' | 's2c'; msg: unknown }> = [];
  private readonly responders = new Map<string, Responder>();
  private roundTrips = 0;
  private waiters: Array<{
    match: (m: Record<string, unknown>) => boolean;
    resolve: (m: Record<string, unknown>) => void;
  }> = [];

  constructor(readonly transport: Transport) {
    transport.onMessage((value) => this.onMessage(value as Record<string, unknown>));
  }

  /** Sets how `method` is answered (replaces a previous responder). */
  on(method: string, responder: Responder): this {
    this.responders.set(method, responder);
    return this;
  }

  /** Sends any message (or raw value) to the client. */
  send(message: unknown): Promise<void> {
    this.sent.push(message);
    this.wire.push({ dir: 's2c', msg: message });
    return Promise.resolve(this.transport.send(message as JsonRpcMessage));
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** Resolves with the first message (already received or future) matching `match`; bounded by `timeoutMs`. */
  waitFor(match: (m: Record<string, unknown>) => boolean, timeoutMs = 5_000): Promise<Record<string, unknown>> {
    const found = this.received.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(
          new Error(
            `peer: no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.received.map((m) => m.method ?? m.id))}`,
          ),
        );
      }, timeoutMs);
      const done = (m: Record<string, unknown>) => {
        clearTimeout(timer);
        resolve(m);
      };
      this.waiters.push({ match, resolve: done });
    });
  }

  /**
   * Sends the client a `ping` request and resolves with its answer (a result, or -32601 from a
   * bare connection). The client handles messages in order, so once this resolves it has
   * processed everything the peer sent before, and anything it sent in reply has arrived: a test
   * asserting that something did NOT happen waits for this instead of sleeping. The answer is
   * recorded in `received` like any other message.
   */
  async roundTrip(timeoutMs?: number): Promise<Record<string, unknown>> {
    const id = `round-trip-${++this.roundTrips}`;
    const answered = this.waitFor((m) => m.id === id && m.method === undefined, timeoutMs);
    await this.send({ jsonrpc: '2.0', id, method: 'ping' });
    return answered;
  }

  methods(): string[] {
    return this.received.filter((m) => typeof m.method === 'string').map((m) => m.method as string);
  }

  private onMessage(message: Record<string, unknown>): void {
    this.received.push(message);
    this.wire.push({ dir: 'c2s', msg: message });
    for (const waiter of [...this.waiters]) {
      if (waiter.match(message)) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(message);
      }
    }
    if (typeof message.method !== 'string' || !('id' in message)) return;
    const responder = this.responders.get(message.method);
    if (!responder) {
      void this.send({
        jsonrpc: '2.0',
        id: message.id as number,
        error: { code: -32601, message: `Method not found: ${message.method}` },
      });
      return;
    }
    void Promise.resolve(responder(message as never, this)).then((answer) => {
      if (answer === NO_REPLY) return;
      if (answer instanceof Raw) return this.send(answer.value);
      const a = answer as Record<string, unknown>;
      if (a && typeof a === 'object' && 'error' in a && Object.keys(a).length === 1) {
        return this.send({ jsonrpc: '2.0', id: message.id as number, error: a.error as never });
      }
      return this.send({ jsonrpc: '2.0', id: message.id as number, result: (answer ?? {}) as Record<string, unknown> });
    });
  }
}

/** A linked pair: the client's transport and the scripted peer on the other end. */
export function scriptedPair(): { clientTransport: Transport; peer: ScriptedPeer } {
  const [clientTransport, serverTransport] = createLinkedPair();
  return { clientTransport, peer: new ScriptedPeer(serverTransport) };
}

/**
 * The PostgreSQL {@link ChangeBus}: `pg_notify` on one channel, heard on the state's `LISTEN`
 * connection. A change is delivered to this node's subscribers within `publish` and sent to the
 * others; each node skips its own messages when they come back, so each is heard once. NOTIFY is
 * at most once: after the LISTEN connection comes back, every subscriber is told to resync.
 */
import { randomUUID } from 'node:crypto';
import type { Disposer } from '../../protocol/transport.js';
import type { Change, ChangeBus, ChangeSubscriber } from '../state/change-bus.js';
import type { PgDatabase } from './pg-database.js';
import type { PgListener } from './pg-listener.js';

/** NOTIFY payloads must stay under 8000 bytes; a larger change goes out as "resync" instead. */
const MAX_PAYLOAD_BYTES = 7900;

/** A message on the channel: from which bus, and the change (or `resync`: one too large to send). */
interface Message {
  from: string;
  change?: Change;
  resync?: true;
}

export class PgChangeBus implements ChangeBus {
  readonly shared: boolean = true;
  private readonly subscribers = new Set<ChangeSubscriber>();
  /** Tells this bus's messages from others' (several buses may run in one process, or one node id). */
  private readonly id = randomUUID();
  private readonly notify;
  private readonly detach: Array<() => void>;
  private closed = false;

  /**
   * @param readyTimeoutMs how long `subscribe` waits for the LISTEN connection before resolving
   *   anyway (its subscriber is then told to resync once the connection is made)
   */
  constructor(
    private readonly db: PgDatabase,
    private readonly listener: PgListener,
    private readonly readyTimeoutMs: number,
  ) {
    this.notify = db.statement('SELECT pg_notify($1, $2)');
    this.detach = [
      listener.on(db.tables.busChannel, (payload) => this.heard(payload)),
      listener.onResync(() => this.each((s) => s.resync())),
    ];
  }

  async publish(change: Change): Promise<void> {
    this.each((s) => s.change(change));
    let payload = JSON.stringify({ from: this.id, change } satisfies Message);
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) payload = JSON.stringify({ from: this.id, resync: true });
    await this.db.run('change bus', this.notify, [this.db.tables.busChannel, payload]);
  }

  async subscribe(subscriber: ChangeSubscriber): Promise<Disposer> {
    // A wrapper per call: the same subscriber twice is two subscriptions, each with its own disposer.
    const entry: ChangeSubscriber = { change: (c) => subscriber.change(c), resync: () => subscriber.resync() };
    if (!this.closed) this.subscribers.add(entry);
    await this.listener.ready(this.readyTimeoutMs);
    return () => {
      this.subscribers.delete(entry);
    };
  }

  close(): Promise<void> {
    this.closed = true;
    this.subscribers.clear();
    for (const detach of this.detach.splice(0)) detach();
    return Promise.resolve();
  }

  private heard(payload: string): void {
    let message: Message;
    try {
      message = JSON.parse(payload) as Message;
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null || message.from === this.id) return;
    if (message.resync === true) this.each((s) => s.resync());
    else if (typeof message.change?.type === 'string') {
      const change = message.change;
      this.each((s) => s.change(change));
    }
  }

  private each(deliver: (subscriber: ChangeSubscriber) => void): void {
    for (const subscriber of [...this.subscribers]) {
      try {
        deliver(subscriber);
      } catch {
        // One subscriber's failure must not stop the others.
      }
    }
  }
}

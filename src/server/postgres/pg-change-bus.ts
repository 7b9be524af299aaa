/**
 * The PostgreSQL {@link ChangeBus}: `pg_notify` on one channel, heard on the state's `LISTEN`
 * connection. A change is delivered to this node's subscribers within `publish` and sent to the
 * others; each node skips its own messages when they come back, so each is heard once. A message
 * too large for a notification (8000 bytes: a `session_message` may carry a whole answer) is
 * stored in `<prefix>bus_message` for a minute and the notification names its row. Messages are
 * delivered in the order they were heard. NOTIFY is at most once: after the LISTEN connection
 * comes back (or a stored message cannot be read), every subscriber is told to resync.
 */
import { randomUUID } from 'node:crypto';
import type { Disposer } from '../../protocol/transport.js';
import type { Change, ChangeBus, ChangeSubscriber } from '../state/change-bus.js';
import type { PgDatabase } from './pg-database.js';
import type { PgListener } from './pg-listener.js';

const WHAT = 'change bus';
/** NOTIFY payloads must stay under 8000 bytes; a larger message goes through a row. */
const MAX_PAYLOAD_BYTES = 7900;
/** How long a stored message is kept for the nodes to read. */
const STORED_MS = 60_000;

/** A message on the channel: from which bus, and the change (or `ref`: the row holding it). */
interface Message {
  from: string;
  change?: Change;
  ref?: string;
}

export class PgChangeBus implements ChangeBus {
  readonly shared: boolean = true;
  private readonly subscribers = new Set<ChangeSubscriber>();
  /** Tells this bus's messages from others' (several buses may run in one process, or one node id). */
  private readonly id = randomUUID();
  private readonly sql;
  private readonly detach: Array<() => void>;
  /** What was heard, delivered in order (a stored message is read first). */
  private inbox: Promise<void> = Promise.resolve();
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
    const t = db.tables.busMessage;
    this.sql = {
      notify: db.statement('SELECT pg_notify($1, $2)'),
      store: db.statement(
        `WITH swept AS (
           DELETE FROM ${t} WHERE id IN (SELECT id FROM ${t} WHERE created_at < $5 LIMIT 100)
         ), stored AS (
           INSERT INTO ${t} (payload, created_at) VALUES ($1, $2) RETURNING id
         )
         SELECT pg_notify($3, json_build_object('from', $4::text, 'ref', id::text)::text) FROM stored`,
      ),
      read: db.statement(`SELECT payload FROM ${t} WHERE id = $1`),
    };
    this.detach = [
      listener.on(db.tables.busChannel, (payload) => this.heard(payload)),
      listener.onResync(() => this.each((s) => s.resync())),
    ];
  }

  async publish(change: Change): Promise<void> {
    this.each((s) => s.change(change));
    const payload = JSON.stringify({ from: this.id, change } satisfies Message);
    const channel = this.db.tables.busChannel;
    if (Buffer.byteLength(payload) <= MAX_PAYLOAD_BYTES) await this.db.run(WHAT, this.sql.notify, [channel, payload]);
    else {
      const now = Date.now();
      await this.db.run(WHAT, this.sql.store, [payload, now, channel, this.id, now - STORED_MS]);
    }
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
    const message = parse(payload);
    if (!message || message.from === this.id) return;
    this.inbox = this.inbox.then(() => (message.ref === undefined ? this.deliver(message) : this.fetch(message.ref)));
  }

  /** Reads a stored message and delivers it; one that cannot be read (gone, store down) is a resync. */
  private async fetch(ref: string): Promise<void> {
    try {
      const { rows } = await this.db.run<{ payload: string }>(WHAT, this.sql.read, [ref]);
      const message = rows[0] && parse(rows[0].payload);
      if (message) return this.deliver(message);
    } catch {
      // As a lost notification: subscribers re-read.
    }
    this.each((s) => s.resync());
  }

  private deliver(message: Message): void {
    const change = message.change;
    if (typeof change?.type === 'string') this.each((s) => s.change(change));
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

function parse(payload: string): Message | undefined {
  try {
    const message = JSON.parse(payload) as Message;
    return typeof message === 'object' && message !== null && typeof message.from === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

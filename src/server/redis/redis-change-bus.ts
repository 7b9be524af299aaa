/**
 * The {@link ChangeBus} on Redis pub/sub: a change is `PUBLISH`ed as JSON on one channel
 * (`<prefix>bus`) and every node's subscriber connection hears it, the publisher's included. A
 * message only wakes a node (what it names lives in the stores), and after the subscriber
 * connection comes back from a loss every subscriber is told to resync. A change this node failed
 * to publish is lost to every node: once the command connection is back, a resync message goes
 * round the bus so that every node re-reads.
 */
import type { Redis } from 'ioredis';
import type { Disposer } from '../../protocol/transport.js';
import type { Change, ChangeBus, ChangeSubscriber } from '../state/change-bus.js';
import { guarded } from './redis-connection.js';
import type { RedisSubscriber } from './redis-subscriber.js';

/** The bus's own message: a publish was lost, every subscriber resyncs. */
const RESYNC = JSON.stringify({ type: 'resync' });

export class RedisChangeBus implements ChangeBus {
  readonly shared: boolean = true;
  private readonly subscribers = new Set<ChangeSubscriber>();
  private readonly stop: Array<() => void> = [];
  private started: Promise<void> | undefined;
  /** A publish failed: a resync is owed to every node once the command connection is back. */
  private owed = false;
  private readonly repay = (): void => {
    if (!this.owed) return;
    this.redis.publish(this.channel, RESYNC).then(
      () => void (this.owed = false),
      () => undefined, // still away: the next `ready` tries again
    );
  };

  /** `where` names the store in errors; `channel` is the bus's pub/sub channel. */
  constructor(
    private readonly redis: Redis,
    private readonly subscriber: RedisSubscriber,
    private readonly channel: string,
    private readonly where: string,
  ) {
    redis.on('ready', this.repay);
  }

  /** Subscribers now (a closed listen or session leaves none behind). */
  get subscriberCount(): number {
    return this.subscribers.size;
  }

  publish(change: Change): Promise<void> {
    return guarded(this.where, 'bus.publish', async () => {
      try {
        await this.redis.publish(this.channel, JSON.stringify(change));
      } catch (error) {
        this.owed = true;
        // Failed on a connection that is still up (a timeout): no `ready` will come to repay it.
        if (this.redis.status === 'ready') this.repay();
        throw error;
      }
    });
  }

  async subscribe(subscriber: ChangeSubscriber): Promise<Disposer> {
    await (this.started ??= this.start());
    const entry: ChangeSubscriber = { change: (c) => subscriber.change(c), resync: () => subscriber.resync() };
    this.subscribers.add(entry);
    return () => void this.subscribers.delete(entry);
  }

  close(): Promise<void> {
    this.redis.off('ready', this.repay);
    this.subscribers.clear();
    for (const stop of this.stop.splice(0)) stop();
    return Promise.resolve();
  }

  /** Subscribes the channel once for every subscriber of this node. */
  private async start(): Promise<void> {
    this.stop.push(this.subscriber.onReconnect(() => this.each((s) => s.resync())));
    this.stop.push(await this.subscriber.listen(this.channel, (message) => this.heard(message)));
  }

  private heard(message: string): void {
    let change: unknown;
    try {
      change = JSON.parse(message);
    } catch {
      return;
    }
    const type = typeof change === 'object' && change !== null ? (change as { type?: unknown }).type : undefined;
    if (type === 'resync') this.each((s) => s.resync());
    // Any other type is the kit's to tell apart (a newer node may send types this one does not know).
    else if (typeof type === 'string') this.each((s) => s.change(change as Change));
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

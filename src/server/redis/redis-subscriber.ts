/**
 * One node's pub/sub connection, shared by the change bus and the event log's followers: channels
 * with local handlers, subscribed while any handler wants them. Pub/sub is at-most-once (a message
 * published while the connection is down is lost), so after the connection comes back it
 * subscribes its channels again and then tells every {@link onReconnect} listener, which re-read
 * the store: a lost message delays, never loses.
 */
import type { Redis } from 'ioredis';

export type MessageHandler = (message: string) => void;

export class RedisSubscriber {
  private readonly channels = new Map<string, Set<MessageHandler>>();
  private readonly reconnectListeners = new Set<() => void>();
  private wasReady: boolean;
  private lostSinceReady = false;
  private closed = false;

  constructor(private readonly redis: Redis) {
    this.wasReady = redis.status === 'ready';
    redis.on('message', (channel: string, message: string) => {
      for (const handler of [...(this.channels.get(channel) ?? [])]) {
        try {
          handler(message);
        } catch {
          // One handler's failure must not stop the others.
        }
      }
    });
    redis.on('close', () => void (this.lostSinceReady = this.wasReady));
    redis.on('ready', () => this.ready());
    // Connection errors are reported by the operations that fail; the subscriber reconnects.
    redis.on('error', () => undefined);
  }

  /**
   * Calls `handler` with every message on `channel` until the returned disposer is called;
   * resolves once Redis acknowledged the subscription (or failed to: the channel is subscribed
   * again when the connection is back, and readers that poll lose nothing meanwhile).
   */
  async listen(channel: string, handler: MessageHandler): Promise<() => void> {
    let handlers = this.channels.get(channel);
    const first = !handlers;
    if (!handlers) this.channels.set(channel, (handlers = new Set()));
    const entry: MessageHandler = (message) => handler(message);
    handlers.add(entry);
    if (first && !this.closed) await this.redis.subscribe(channel).catch(() => undefined);
    return () => {
      const set = this.channels.get(channel);
      if (!set?.delete(entry) || set.size > 0) return;
      this.channels.delete(channel);
      if (!this.closed && this.redis.status === 'ready') this.redis.unsubscribe(channel).catch(() => undefined);
    };
  }

  /** Calls `listener` after every reconnection (channels subscribed again) until disposed. */
  onReconnect(listener: () => void): () => void {
    const entry = (): void => listener();
    this.reconnectListeners.add(entry);
    return () => void this.reconnectListeners.delete(entry);
  }

  /** Drops every handler and listener (the connection is the owner's to release). */
  close(): void {
    this.closed = true;
    this.channels.clear();
    this.reconnectListeners.clear();
  }

  private ready(): void {
    const again = this.lostSinceReady;
    this.wasReady = true;
    this.lostSinceReady = false;
    if (!again || this.closed) return;
    const channels = [...this.channels.keys()];
    const subscribed = channels.length > 0 ? this.redis.subscribe(...channels) : Promise.resolve(0);
    void subscribed.then(
      () => this.reconnected(),
      // Lost again before the subscription took: the next `ready` repeats this.
      () => undefined,
    );
  }

  private reconnected(): void {
    for (const listener of [...this.reconnectListeners]) {
      try {
        listener();
      } catch {
        // As for messages.
      }
    }
  }
}

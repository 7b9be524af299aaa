/**
 * The one `LISTEN` connection of a PostgreSQL state: it wakes this node when another writes
 * (change-bus messages, SSE events appended). A notification is only a hint, so losing the
 * connection loses nothing stored: it reconnects (backoff from 50 ms to `maxBackoffMs`) and then
 * tells its resync handlers that hints may have been missed, and they re-read. A connection that
 * died silently (no reset: a NAT or a cable) is found by a `SELECT 1` every `checkMs` that must
 * answer within `checkMs`. The connection is checked out of the pool for as long as it listens;
 * `close()` returns it and clears every timer.
 */
import type { PgNotification, PgPool, PgPoolClient } from './pg-driver.js';

type Handler = (payload: string) => void;

export class PgListener {
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly resyncs = new Set<() => void>();
  private readonly waiters = new Set<() => void>();
  private client: PgPoolClient | undefined;
  private started = false;
  private closed = false;
  /** Whether a hint may have been missed since the start (a connection lost, or none made yet after a failure). */
  private gap = false;
  private failures = 0;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private check: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly pool: PgPool,
    private readonly channels: readonly string[],
    private readonly maxBackoffMs: number,
    private readonly checkMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Whether the connection is listening now. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** Calls `handler` with the payload of each notification on `channel` (one of the channels given). */
  on(channel: string, handler: Handler): () => void {
    let set = this.handlers.get(channel);
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  /** Calls `handler` after every reconnection (and after a first connection that followed failures). */
  onResync(handler: () => void): () => void {
    this.resyncs.add(handler);
    return () => this.resyncs.delete(handler);
  }

  /**
   * Starts listening (once) and resolves true once the connection listens, or false when it does
   * not within `timeoutMs` (it keeps trying; handlers resync once it does).
   */
  async ready(timeoutMs: number): Promise<boolean> {
    if (!this.started && !this.closed) {
      this.started = true;
      void this.connect();
    }
    if (this.client || this.closed) return this.client !== undefined;
    let wake: (() => void) | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await new Promise<void>((resolve) => {
        wake = resolve;
        this.waiters.add(resolve);
        timer = setTimeout(resolve, timeoutMs);
      });
    } finally {
      clearTimeout(timer);
      if (wake) this.waiters.delete(wake);
    }
    return this.client !== undefined;
  }

  /** Returns the connection to the pool (destroyed) and stops reconnecting. Idempotent. */
  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
    this.retry = undefined;
    clearInterval(this.check);
    this.drop(this.client, true);
    this.handlers.clear();
    this.resyncs.clear();
    for (const wake of this.waiters) wake();
  }

  private async connect(): Promise<void> {
    this.retry = undefined;
    if (this.closed) return;
    let client: PgPoolClient | undefined;
    try {
      client = await this.pool.connect();
      const mine = client;
      mine.on('error', (error) => this.lost(mine, error));
      mine.on('end', () => this.lost(mine, new Error('the LISTEN connection ended')));
      mine.on('notification', (message) => this.dispatch(message));
      // Channel names are identifiers made from validated options, not values: LISTEN takes no parameters.
      for (const channel of this.channels) await mine.query(`LISTEN "${channel}"`);
      if (this.closed) {
        this.drop(mine, true);
        return;
      }
      this.client = mine;
      this.watch(mine);
    } catch (error) {
      if (client) this.drop(client, error instanceof Error ? error : true);
      this.gap = true;
      if (this.failures === 0) this.onError(error); // once per outage, not per retry
      this.schedule();
      return;
    }
    this.failures = 0;
    for (const wake of this.waiters) wake();
    if (this.gap) {
      this.gap = false;
      for (const resync of [...this.resyncs]) {
        try {
          resync();
        } catch {
          // One handler's failure must not stop the others.
        }
      }
    }
  }

  /** Checks every `checkMs` that `client` still answers; one that does not is lost. */
  private watch(client: PgPoolClient): void {
    clearInterval(this.check);
    let busy = false;
    this.check = setInterval(() => {
      if (busy || this.client !== client) return;
      busy = true;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const silent = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the LISTEN connection did not answer within ${this.checkMs} ms`)),
          this.checkMs,
        );
      });
      Promise.race([client.query('SELECT 1'), silent])
        .then(
          () => undefined,
          (error: unknown) => this.lost(client, error instanceof Error ? error : new Error('the check failed')),
        )
        .finally(() => {
          clearTimeout(timer);
          busy = false;
        });
    }, this.checkMs);
    this.check.unref();
  }

  private lost(client: PgPoolClient, error: Error): void {
    if (this.client !== client) return;
    clearInterval(this.check);
    this.client = undefined;
    this.gap = true;
    this.drop(client, error);
    if (!this.closed) {
      this.onError(error);
      this.schedule();
    }
  }

  /** Releases `client` (destroying it); its later errors are ignored. */
  private drop(client: PgPoolClient | undefined, destroy: Error | true): void {
    if (!client) return;
    if (this.client === client) this.client = undefined;
    client.removeAllListeners('notification');
    client.removeAllListeners('end');
    client.removeAllListeners('error');
    client.on('error', () => undefined);
    try {
      client.release(destroy);
    } catch {
      // Released already (a second error on a dead connection).
    }
  }

  private schedule(): void {
    if (this.closed || this.retry) return;
    const delay = Math.min(this.maxBackoffMs, 50 * 2 ** Math.min(this.failures++, 10));
    this.retry = setTimeout(() => void this.connect(), delay);
    this.retry.unref();
  }

  private dispatch(message: PgNotification): void {
    const handlers = this.handlers.get(message.channel);
    if (!handlers) return;
    for (const handler of [...handlers]) {
      try {
        handler(message.payload ?? '');
      } catch {
        // As in connect.
      }
    }
  }
}

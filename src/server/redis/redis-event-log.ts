/**
 * The {@link EventLog} on Redis: per SSE stream a hash of its facts and a Redis stream of its
 * events (ids `<seq>-0`), per session a sorted set of its streams (layout and bounds in
 * `event-scripts.ts`); every read and write is one Lua script. A follower subscribes to the
 * stream's wake channel, reads what is kept after its id, and reads on whenever it is woken (an
 * append, the end, the subscriber connection back from a loss) or `followPollMs` passed without a
 * wake: a lost wake-up delays an event, never loses it. Every wait is bounded by that poll.
 */
import type { Redis } from 'ioredis';
import { McpError } from '../../protocol/errors.js';
import {
  eventId,
  parseEventId,
  type EventLog,
  type LoggedEvent,
  type NewEvent,
  type StreamLease,
  type StreamTail,
} from '../state/event-log.js';
import { guarded } from './redis-connection.js';
import { defineScript, type RedisScript } from './redis-scripts.js';
import type { RedisSubscriber } from './redis-subscriber.js';
import { APPEND, DROP_SESSION, END, OPEN, READ, RENEW } from './event-scripts.js';

/** The bounds of a {@link RedisEventLog}. */
export interface RedisEventLogLimits {
  /** Most events kept per stream (the newest). */
  readonly maxEvents: number;
  /** Most bytes of events kept per stream (the newest event always kept). */
  readonly maxBytes: number;
  /** Most streams kept per session (ended ones dropped first, then the oldest). */
  readonly maxStreamsPerSession: number;
  /** How long a stream is kept after its last write. */
  readonly ttlMs: number;
  /** How long a follower waits for a wake-up before it reads again anyway. */
  readonly followPollMs: number;
}

/** What one read found: whether the stream ended, the events after the position read from, its lease. */
interface Batch {
  ended: boolean;
  events: Array<{ seq: number; event: LoggedEvent }>;
  lease: StreamLease | undefined;
}

/** The requests an unended stream whose lease ran out by `now` was answering, or undefined. */
function orphaned(batch: Batch, now: number): readonly (string | number)[] | undefined {
  return !batch.ended && batch.lease !== undefined && batch.lease.leaseUntil <= now
    ? batch.lease.requestIds
    : undefined;
}

export class RedisEventLog implements EventLog {
  readonly shared: boolean = true;
  private readonly scripts: Record<'open' | 'renew' | 'append' | 'end' | 'read' | 'dropSession', RedisScript>;
  /** Every follower not yet stopped (stopped on close). */
  private readonly followers = new Set<Follower>();
  private closed = false;

  /** `prefix` starts every key and channel; `where` names the store in errors. */
  constructor(
    redis: Redis,
    private readonly subscriber: RedisSubscriber,
    private readonly prefix: string,
    private readonly limits: RedisEventLogLimits,
    private readonly where: string,
  ) {
    this.scripts = {
      open: defineScript(redis, 'events_open', 0, OPEN),
      renew: defineScript(redis, 'events_renew', 0, RENEW),
      append: defineScript(redis, 'events_append', 0, APPEND),
      end: defineScript(redis, 'events_end', 0, END),
      read: defineScript(redis, 'events_read', 0, READ),
      dropSession: defineScript(redis, 'events_drop_session', 0, DROP_SESSION),
    };
  }

  open(streamId: string, sessionId: string, owner: string, now: number, lease?: StreamLease): Promise<void> {
    return guarded(this.where, 'events.open', async () => {
      const { ttlMs, maxStreamsPerSession } = this.limits;
      const [leaseUntil, requestIds] = lease ? [lease.leaseUntil, JSON.stringify(lease.requestIds)] : ['', ''];
      await this.scripts.open.run(
        [],
        [this.prefix, streamId, sessionId, owner, now, ttlMs, maxStreamsPerSession, leaseUntil, requestIds],
      );
    });
  }

  renew(owner: string, streamIds: readonly string[], leaseUntil: number, now: number): Promise<void> {
    if (streamIds.length === 0) return Promise.resolve();
    return guarded(this.where, 'events.renew', async () => {
      await this.scripts.renew.run([], [this.prefix, owner, leaseUntil, now, ...streamIds]);
    });
  }

  append(streamId: string, event: NewEvent, now: number): Promise<void> {
    return guarded(this.where, 'events.append', async () => {
      const { ttlMs, maxEvents, maxBytes } = this.limits;
      const retry = event.retryMs === undefined ? '' : event.retryMs;
      const args = [this.prefix, streamId, event.seq, event.data, retry, now, ttlMs, maxEvents, maxBytes];
      if ((await this.scripts.append.run([], args)) !== 1)
        throw new McpError('INVALID_STATE', `no open SSE stream ${streamId} to append to`);
    });
  }

  end(streamId: string, now: number): Promise<void> {
    return guarded(this.where, 'events.end', async () => {
      await this.scripts.end.run([], [this.prefix, streamId, now, this.limits.ttlMs]);
    });
  }

  after(lastEventId: string, sessionId: string, now: number): Promise<StreamTail | undefined> {
    return guarded(this.where, 'events.after', async () => {
      const at = parseEventId(lastEventId.trim());
      const batch = at && (await this.read(at.streamId, sessionId, at.seq, now, true));
      if (!batch) return undefined;
      const events = batch.events.map((e) => e.event);
      const lost = orphaned(batch, now);
      return lost ? { events, ended: false, orphaned: [...lost] } : { events, ended: batch.ended };
    });
  }

  follow(
    lastEventId: string,
    sessionId: string,
    now: number,
    signal: AbortSignal,
  ): Promise<AsyncIterable<LoggedEvent> | undefined> {
    return guarded(this.where, 'events.follow', async () => {
      const at = parseEventId(lastEventId.trim());
      if (!at || this.closed) return undefined;
      const follower = new Follower(signal, this.followers);
      try {
        // Subscribed before the first read: an append after it wakes the follower.
        follower.hold(await this.subscriber.listen(`${this.prefix}wake:${at.streamId}`, follower.wake.poke));
        follower.hold(this.subscriber.onReconnect(follower.wake.poke));
        const first = await this.read(at.streamId, sessionId, at.seq, now, true);
        if (!first) {
          follower.stop();
          return undefined;
        }
        return this.events(at.streamId, at.seq, first, follower);
      } catch (error) {
        follower.stop();
        throw error;
      }
    });
  }

  dropSession(sessionId: string): Promise<void> {
    return guarded(this.where, 'events.dropSession', async () => {
      await this.scripts.dropSession.run([], [this.prefix, sessionId]);
    });
  }

  /** Followers finish; the connections are the state set's to release (`redisState().close()`). */
  close(): Promise<void> {
    this.closed = true;
    for (const follower of [...this.followers]) follower.stop();
    return Promise.resolve();
  }

  /** The events of stream `streamId` after `seq`, live, until it ends or is gone, or `follower` stops. */
  private async *events(streamId: string, seq: number, first: Batch, follower: Follower): AsyncGenerator<LoggedEvent> {
    try {
      let seen = seq;
      let batch: Batch | undefined = first;
      for (;;) {
        for (const { seq: next, event } of batch.events) {
          if (follower.stopped || this.closed) return;
          if (next <= seen) continue;
          seen = next;
          yield event;
        }
        // A full batch may not hold the end: read on before believing it.
        if ((batch.ended && batch.events.length < this.limits.maxEvents) || follower.stopped || this.closed) return;
        // Its owner stopped renewing its lease: nothing more will come (the reader asks `after` what was lost).
        if (orphaned(batch, Date.now())) return;
        if (batch.events.length === 0) {
          // A stream with a lease is looked at again when the lease would run out (renewed or not).
          const untilLease = batch.lease ? Math.max(0, batch.lease.leaseUntil - Date.now()) + 1 : Infinity;
          await follower.wake.wait(Math.min(this.limits.followPollMs, untilLease));
        }
        if (follower.stopped || this.closed) return;
        batch = await guarded(this.where, 'events.follow', () => this.read(streamId, '', seen, Date.now(), false));
        if (!batch) return;
      }
    } finally {
      follower.stop();
    }
  }

  /** One read of the stream after `seq` (strict: the client's id, refused as `READ` says), or undefined. */
  private async read(
    streamId: string,
    sessionId: string,
    seq: number,
    now: number,
    strict: boolean,
  ): Promise<Batch | undefined> {
    const { ttlMs, maxEvents } = this.limits;
    const args = [this.prefix, streamId, sessionId, seq, now, ttlMs, maxEvents, strict ? '1' : '0'];
    const reply = (await this.scripts.read.run([], args)) as [
      number,
      string?,
      Array<[string, string[]]>?,
      (string | null)?,
      (string | null)?,
    ];
    if (reply[0] !== 1) return undefined;
    const [, ended, entries, leaseUntil, requestIds] = reply;
    return {
      ended: ended === '1',
      events: (entries ?? []).map((entry) => logged(streamId, entry)),
      lease:
        typeof leaseUntil === 'string'
          ? { leaseUntil: Number(leaseUntil), requestIds: JSON.parse(requestIds ?? '[]') as Array<string | number> }
          : undefined,
    };
  }
}

/** A Redis stream entry (`<seq>-0`, fields `d`, `r`) as a logged event. */
function logged(streamId: string, [id, fields]: [string, string[]]): { seq: number; event: LoggedEvent } {
  const seq = Number(id.slice(0, id.indexOf('-')));
  let data = '';
  let retry: string | undefined;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'd') data = fields[i + 1]!;
    else if (fields[i] === 'r') retry = fields[i + 1];
  }
  const event: LoggedEvent =
    retry === undefined
      ? { id: eventId(streamId, seq), data }
      : { id: eventId(streamId, seq), data, retryMs: Number(retry) };
  return { seq, event };
}

/** A wake-up a follower waits for, bounded: a poke before the wait is not lost. */
class Wakeup {
  private poked = false;
  private resolve: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  readonly poke = (): void => {
    this.poked = true;
    this.resolve?.();
  };

  /** Resolves at the next poke (at once if one came since the last wait), or after `ms`. */
  wait(ms: number): Promise<void> {
    if (this.poked) {
      this.poked = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      this.resolve = () => {
        this.cancel();
        this.poked = false;
        resolve();
      };
      this.timer = setTimeout(this.resolve, ms);
    });
  }

  /** Stops the pending wait's timer. */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.resolve = undefined;
  }
}

/**
 * What one follower holds (its subscription, its reconnect listener, its wake-up): released once,
 * when its events finish, when `signal` aborts, or when the log closes, even if nobody ever
 * iterated its events.
 */
class Follower {
  readonly wake = new Wakeup();
  private readonly held: Array<() => void> = [];
  private done = false;

  constructor(
    private readonly signal: AbortSignal,
    private readonly registry: Set<Follower>,
  ) {
    registry.add(this);
    if (signal.aborted) this.stop();
    else signal.addEventListener('abort', this.stop);
  }

  get stopped(): boolean {
    return this.done;
  }

  /** Releases `release` when the follower stops. */
  hold(release: () => void): void {
    if (this.done) release();
    else this.held.push(release);
  }

  readonly stop = (): void => {
    if (this.done) return;
    this.done = true;
    this.registry.delete(this);
    this.signal.removeEventListener('abort', this.stop);
    for (const release of this.held.splice(0)) release();
    // A waiting reader wakes and finds the follower stopped.
    this.wake.poke();
    this.wake.cancel();
  };
}

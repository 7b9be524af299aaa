/**
 * The PostgreSQL {@link EventLog}: a row per stream in `<prefix>stream`, a row per kept event in
 * `<prefix>event`. An append is one statement that checks the stream is open, inserts the event,
 * trims the stream to `maxEvents` and `maxBytes` (the newest kept) and notifies followers; a read
 * takes the stream and its events in one snapshot, so a replay is whole or refused. Followers on
 * any node wake on the notification, and re-read every `followPollMs` besides (a lost notification
 * only delays). Per session at most `maxStreamsPerSession` streams (ended ones dropped first);
 * streams unused for `ttlMs` are deleted when read, and in bounded batches as streams open. A
 * stream's owner lease is a column: a follower looks again when it would run out, and finishes
 * once it has (on this process's clock).
 */
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
import type { PgDatabase } from './pg-database.js';
import type { PgListener } from './pg-listener.js';
import { num } from './rows.js';

const WHAT = 'event log';

/** Options of {@link PgEventLog} (defaults as the in-memory log's). */
export interface PgEventLogLimits {
  maxEvents: number;
  maxBytes: number;
  maxStreamsPerSession: number;
  ttlMs: number;
  /** How often a follower re-reads without a notification. */
  followPollMs: number;
  /** Most rows one sweep deletes. */
  sweepBatch: number;
}

interface ReadRow {
  last_seq: string;
  ended: boolean;
  touched: string;
  lease_until: string | null;
  request_ids: Array<string | number> | null;
  first_seq: string | null;
  seq: string | null;
  data: string | null;
  retry_ms: number | null;
}

/** What a read found: the stream's state and the events after the position asked for. */
interface Read {
  lastSeq: number;
  ended: boolean;
  touched: number;
  /** The owner's lease, when the stream was opened with one. */
  lease: { leaseUntil: number; requestIds: Array<string | number> } | undefined;
  firstSeq: number | undefined;
  events: Array<LoggedEvent & { seq: number }>;
}

export class PgEventLog implements EventLog {
  readonly shared: boolean = true;
  private readonly sql;
  private readonly followers = new Map<string, Set<() => void>>();
  private readonly detach: Array<() => void>;
  private sweptAt = Number.NEGATIVE_INFINITY;
  private closed = false;

  constructor(
    private readonly db: PgDatabase,
    private readonly listener: PgListener,
    private readonly limits: PgEventLogLimits,
  ) {
    const { stream: s, event: e } = db.tables;
    this.sql = {
      open: db.statement(
        `WITH dropped AS (
           DELETE FROM ${s} WHERE session_id = $2 AND stream_id NOT IN (
             SELECT stream_id FROM ${s} WHERE session_id = $2 ORDER BY ended, opened_at DESC LIMIT $5))
         INSERT INTO ${s} (stream_id, session_id, owner, opened_at, touched, lease_until, request_ids)
         VALUES ($1, $2, $3, $4, $4, $6, $7)`,
      ),
      renew: db.statement(
        `UPDATE ${s} SET lease_until = GREATEST(lease_until, $3)
         WHERE stream_id = ANY($2::text[]) AND owner = $1 AND NOT ended AND lease_until > $4`,
      ),
      append: db.statement(
        `WITH s AS (
           UPDATE ${s} SET last_seq = $2, touched = $5 WHERE stream_id = $1 AND NOT ended RETURNING stream_id
         ), ins AS (
           INSERT INTO ${e} (stream_id, seq, data, retry_ms, bytes) SELECT stream_id, $2, $3, $4, $6 FROM s RETURNING seq
         ), trimmed AS (
           DELETE FROM ${e} AS e USING (
             SELECT seq, sum(bytes) OVER (ORDER BY seq DESC) AS newer FROM ${e} WHERE stream_id = $1
           ) AS k
           WHERE e.stream_id = $1 AND e.seq = k.seq AND EXISTS (SELECT 1 FROM s)
             AND (k.seq <= $2::bigint - $7::bigint OR k.newer + $6::bigint > $8::bigint)
         )
         SELECT pg_notify($9, $1) FROM ins`,
      ),
      end: db.statement(
        `WITH u AS (UPDATE ${s} SET ended = true, touched = $2 WHERE stream_id = $1 AND NOT ended RETURNING stream_id)
         SELECT pg_notify($3, stream_id) FROM u`,
      ),
      read: db.statement(
        `SELECT s.last_seq, s.ended, s.touched, s.lease_until, s.request_ids,
           (SELECT min(seq) FROM ${e} WHERE stream_id = s.stream_id) AS first_seq, e.seq, e.data, e.retry_ms
         FROM ${s} AS s LEFT JOIN ${e} AS e ON e.stream_id = s.stream_id AND e.seq > $3
         WHERE s.stream_id = $1 AND s.session_id = $2
         ORDER BY e.seq LIMIT $4`,
      ),
      expire: db.statement(`DELETE FROM ${s} WHERE stream_id = $1 AND touched <= $2`),
      dropSession: db.statement(`DELETE FROM ${s} WHERE session_id = $1`),
      sweep: db.statement(
        `DELETE FROM ${s} WHERE stream_id IN (SELECT stream_id FROM ${s} WHERE touched <= $1 LIMIT $2)`,
      ),
    };
    this.detach = [
      listener.on(db.tables.eventChannel, (streamId) => this.wake(streamId)),
      listener.onResync(() => this.wakeAll()),
    ];
  }

  async open(streamId: string, sessionId: string, owner: string, now: number, lease?: StreamLease): Promise<void> {
    await this.sweep(now);
    await this.db.run(WHAT, this.sql.open, [
      streamId,
      sessionId,
      owner,
      now,
      this.limits.maxStreamsPerSession - 1,
      lease?.leaseUntil ?? null,
      lease === undefined ? null : JSON.stringify(lease.requestIds),
    ]);
  }

  async renew(owner: string, streamIds: readonly string[], leaseUntil: number, now: number): Promise<void> {
    if (streamIds.length > 0) await this.db.run(WHAT, this.sql.renew, [owner, streamIds, leaseUntil, now]);
  }

  async append(streamId: string, event: NewEvent, now: number): Promise<void> {
    const { rows } = await this.db.run(WHAT, this.sql.append, [
      streamId,
      event.seq,
      event.data,
      event.retryMs ?? null,
      now,
      event.data.length + 64,
      this.limits.maxEvents,
      this.limits.maxBytes,
      this.db.tables.eventChannel,
    ]);
    if (rows.length === 0) throw new McpError('INVALID_STATE', `no open SSE stream ${streamId} to append to`);
    this.wake(streamId);
  }

  async end(streamId: string, now: number): Promise<void> {
    await this.db.run(WHAT, this.sql.end, [streamId, now, this.db.tables.eventChannel]);
    this.wake(streamId);
  }

  async after(lastEventId: string, sessionId: string, now: number): Promise<StreamTail | undefined> {
    const at = await this.position(lastEventId, sessionId, now);
    if (!at) return undefined;
    const { read } = at;
    const events = read.events.map(plain);
    return orphaned(read, now)
      ? { events, ended: false, orphaned: [...read.lease!.requestIds] }
      : { events, ended: read.ended };
  }

  async follow(
    lastEventId: string,
    sessionId: string,
    now: number,
    signal: AbortSignal,
  ): Promise<AsyncIterable<LoggedEvent> | undefined> {
    // Listening before the first read: an append after it wakes the follower (polling covers a miss).
    await this.listener.ready(this.limits.followPollMs);
    const at = await this.position(lastEventId, sessionId, now);
    return at && this.follower(at.streamId, sessionId, at.seq, at.read, signal);
  }

  async dropSession(sessionId: string): Promise<void> {
    await this.db.run(WHAT, this.sql.dropSession, [sessionId]);
  }

  /** Followers on this node finish; the connections belong to the state. Idempotent. */
  close(): Promise<void> {
    this.closed = true;
    for (const detach of this.detach.splice(0)) detach();
    this.wakeAll();
    return Promise.resolve();
  }

  /** Where `lastEventId` resumes, with what follows it, or undefined (malformed, forged, foreign, trimmed, expired). */
  private async position(
    lastEventId: string,
    sessionId: string,
    now: number,
  ): Promise<{ streamId: string; seq: number; read: Read } | undefined> {
    const at = parseEventId(lastEventId.trim());
    if (!at) return undefined;
    const read = await this.read(at.streamId, sessionId, at.seq);
    if (!read) return undefined;
    if (now - read.touched >= this.limits.ttlMs) {
      await this.db.run(WHAT, this.sql.expire, [at.streamId, now - this.limits.ttlMs]);
      return undefined;
    }
    if (at.seq > read.lastSeq) return undefined;
    // Older than what is kept: the events between are gone, so none is replayed.
    if (read.firstSeq !== undefined && at.seq < read.firstSeq - 1) return undefined;
    return { streamId: at.streamId, seq: at.seq, read };
  }

  /**
   * The stream and its kept events after `seq` (at most `maxEvents`), in one snapshot; undefined
   * when the session has no such stream.
   */
  private async read(streamId: string, sessionId: string, seq: number): Promise<Read | undefined> {
    const { rows } = await this.db.run<ReadRow>(WHAT, this.sql.read, [streamId, sessionId, seq, this.limits.maxEvents]);
    const first = rows[0];
    if (!first) return undefined;
    const events: Read['events'] = [];
    for (const row of rows) {
      if (row.seq === null || row.data === null) continue;
      const n = num(row.seq);
      const event = { id: eventId(streamId, n), data: row.data, seq: n };
      events.push(row.retry_ms === null ? event : { ...event, retryMs: row.retry_ms });
    }
    return {
      lastSeq: num(first.last_seq),
      ended: first.ended,
      touched: num(first.touched),
      lease:
        first.lease_until === null
          ? undefined
          : { leaseUntil: num(first.lease_until), requestIds: first.request_ids ?? [] },
      firstSeq: first.first_seq === null ? undefined : num(first.first_seq),
      events,
    };
  }

  /**
   * The events of `read` (those after `seq`), then later ones as they are appended, until the
   * stream ends or is dropped, or `signal` aborts.
   */
  private async *follower(
    streamId: string,
    sessionId: string,
    seq: number,
    read: Read,
    signal: AbortSignal,
  ): AsyncGenerator<LoggedEvent> {
    let dirty = false;
    let wake: (() => void) | undefined;
    const poke = (): void => {
      dirty = true;
      wake?.();
    };
    let set = this.followers.get(streamId);
    if (!set) this.followers.set(streamId, (set = new Set()));
    set.add(poke);
    signal.addEventListener('abort', poke);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      let current: Read | undefined = read;
      let seen = seq;
      for (;;) {
        for (const event of current.events) {
          if (signal.aborted || this.closed) return;
          seen = event.seq;
          yield plain(event);
        }
        // A full page may have more behind it: read on at once.
        if (current.events.length < this.limits.maxEvents) {
          if (current.ended || signal.aborted || this.closed || orphaned(current, Date.now())) return;
          if (!dirty) {
            // A stream with a lease is looked at again when the lease would run out (renewed or not).
            const lease = current.lease;
            const wait = lease
              ? Math.min(this.limits.followPollMs, Math.max(0, lease.leaseUntil - Date.now()) + 1)
              : this.limits.followPollMs;
            await new Promise<void>((resolve) => {
              wake = resolve;
              timer = setTimeout(resolve, wait);
            });
            clearTimeout(timer);
            wake = undefined;
          }
          if (signal.aborted || this.closed) return;
        }
        dirty = false;
        current = await this.read(streamId, sessionId, seen);
        if (!current) return; // dropped: the session ended, or the stream expired
      }
    } finally {
      clearTimeout(timer);
      set.delete(poke);
      if (set.size === 0 && this.followers.get(streamId) === set) this.followers.delete(streamId);
      signal.removeEventListener('abort', poke);
    }
  }

  private wake(streamId: string): void {
    for (const poke of this.followers.get(streamId) ?? []) poke();
  }

  private wakeAll(): void {
    for (const set of this.followers.values()) for (const poke of set) poke();
  }

  /** Deletes a batch of streams unused for the TTL (their events with them), at most once per tenth of it. */
  private async sweep(now: number): Promise<void> {
    if (now - this.sweptAt < this.limits.ttlMs / 10) return;
    this.sweptAt = now;
    await this.db.run(WHAT, this.sql.sweep, [now - this.limits.ttlMs, this.limits.sweepBatch]);
  }
}

/** True when the stream has not ended and its owner's lease ran out by `now`. */
function orphaned(read: Read, now: number): boolean {
  return !read.ended && read.lease !== undefined && read.lease.leaseUntil <= now;
}

/** A kept event as a {@link LoggedEvent} (without its seq). */
function plain(event: LoggedEvent & { seq: number }): LoggedEvent {
  return event.retryMs === undefined
    ? { id: event.id, data: event.data }
    : { id: event.id, data: event.data, retryMs: event.retryMs };
}

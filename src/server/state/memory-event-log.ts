/**
 * The in-memory {@link EventLog}: per stream at most 256 events and 1 MiB of them (the newest
 * always kept), per session at most 16 streams (ended ones dropped first, then the oldest), a
 * stream unused for `ttlMs` dropped whenever the log is opened (no timer). A follower of a stream
 * with a lease waits on a timer until the lease's end (`Date.now()` is the clock), re-checking it.
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
} from './event-log.js';

/** Options of {@link MemoryEventLog}. */
export interface MemoryEventLogOptions {
  /** Most events kept per stream (default 256). */
  maxEvents?: number;
  /** Most bytes of events kept per stream (default 1 MiB). */
  maxBytes?: number;
  /** Most streams kept per session (default 16). */
  maxStreamsPerSession?: number;
  /** How long a stream is kept after its last write (default 30 minutes). */
  ttlMs?: number;
}

interface Stream {
  readonly id: string;
  readonly sessionId: string;
  readonly owner: string;
  /** Its owner's lease, when opened with one. */
  lease: { leaseUntil: number; readonly requestIds: readonly (string | number)[] } | undefined;
  readonly events: Array<LoggedEvent & { seq: number; bytes: number }>;
  bytes: number;
  lastSeq: number;
  ended: boolean;
  touched: number;
  readonly followers: Set<() => void>;
}

export class MemoryEventLog implements EventLog {
  readonly shared: boolean = false;
  private readonly streams = new Map<string, Stream>();
  private readonly bySession = new Map<string, Set<string>>();
  private readonly maxEvents: number;
  private readonly maxBytes: number;
  private readonly maxStreams: number;
  private readonly ttlMs: number;

  constructor(options: MemoryEventLogOptions = {}) {
    this.maxEvents = options.maxEvents ?? 256;
    this.maxBytes = options.maxBytes ?? 1_048_576;
    this.maxStreams = options.maxStreamsPerSession ?? 16;
    this.ttlMs = options.ttlMs ?? 30 * 60_000;
  }

  open(streamId: string, sessionId: string, owner: string, now: number, lease?: StreamLease): Promise<void> {
    this.sweep(now);
    let ids = this.bySession.get(sessionId);
    if (!ids) this.bySession.set(sessionId, (ids = new Set()));
    if (ids.size >= this.maxStreams) {
      const kept = [...ids].map((id) => this.streams.get(id)!);
      this.drop((kept.find((s) => s.ended) ?? kept[0]!).id);
    }
    ids.add(streamId);
    this.streams.set(streamId, {
      id: streamId,
      sessionId,
      owner,
      lease: lease && { leaseUntil: lease.leaseUntil, requestIds: [...lease.requestIds] },
      events: [],
      bytes: 0,
      lastSeq: 0,
      ended: false,
      touched: now,
      followers: new Set(),
    });
    return Promise.resolve();
  }

  append(streamId: string, event: NewEvent, now: number): Promise<void> {
    const stream = this.streams.get(streamId);
    if (!stream || stream.ended)
      return Promise.reject(new McpError('INVALID_STATE', `no open SSE stream ${streamId} to append to`));
    const bytes = event.data.length + 64;
    const kept = { id: eventId(streamId, event.seq), data: event.data, seq: event.seq, bytes };
    stream.events.push(event.retryMs === undefined ? kept : { ...kept, retryMs: event.retryMs });
    stream.bytes += bytes;
    stream.lastSeq = event.seq;
    stream.touched = now;
    while (stream.events.length > 1 && (stream.events.length > this.maxEvents || stream.bytes > this.maxBytes))
      stream.bytes -= stream.events.shift()!.bytes;
    for (const wake of stream.followers) wake();
    return Promise.resolve();
  }

  renew(owner: string, streamIds: readonly string[], leaseUntil: number, now: number): Promise<void> {
    for (const id of streamIds) {
      const stream = this.streams.get(id);
      if (stream?.lease && stream.owner === owner && !stream.ended && stream.lease.leaseUntil > now)
        stream.lease.leaseUntil = Math.max(stream.lease.leaseUntil, leaseUntil);
    }
    return Promise.resolve();
  }

  end(streamId: string, now: number): Promise<void> {
    const stream = this.streams.get(streamId);
    if (stream && !stream.ended) {
      stream.ended = true;
      stream.touched = now;
      for (const wake of stream.followers) wake();
    }
    return Promise.resolve();
  }

  after(lastEventId: string, sessionId: string, now: number): Promise<StreamTail | undefined> {
    const at = this.position(lastEventId, sessionId, now);
    if (!at) return Promise.resolve(undefined);
    const { stream } = at;
    const events = stream.events.filter((event) => event.seq > at.seq).map(plain);
    return Promise.resolve(
      orphaned(stream, now)
        ? { events, ended: false, orphaned: [...stream.lease!.requestIds] }
        : { events, ended: stream.ended },
    );
  }

  follow(
    lastEventId: string,
    sessionId: string,
    now: number,
    signal: AbortSignal,
  ): Promise<AsyncIterable<LoggedEvent> | undefined> {
    const at = this.position(lastEventId, sessionId, now);
    return Promise.resolve(at && follower(at.stream, at.seq, signal));
  }

  /** The stream and seq `lastEventId` resumes from, or undefined (malformed, forged, foreign, trimmed, expired). */
  private position(lastEventId: string, sessionId: string, now: number): { stream: Stream; seq: number } | undefined {
    const at = parseEventId(lastEventId.trim());
    const stream = at && this.streams.get(at.streamId);
    if (stream && now - stream.touched >= this.ttlMs) this.drop(stream.id);
    if (!at || !stream || !this.streams.has(stream.id) || stream.sessionId !== sessionId || at.seq > stream.lastSeq)
      return undefined;
    const first = stream.events[0];
    // Older than what is kept: the events between are gone, so none is replayed.
    if (first && at.seq < first.seq - 1) return undefined;
    return { stream, seq: at.seq };
  }

  dropSession(sessionId: string): Promise<void> {
    for (const id of this.bySession.get(sessionId) ?? []) this.drop(id);
    return Promise.resolve();
  }

  close(): Promise<void> {
    for (const id of [...this.streams.keys()]) this.drop(id);
    return Promise.resolve();
  }

  private drop(streamId: string): void {
    const stream = this.streams.get(streamId);
    if (!stream) return;
    this.streams.delete(streamId);
    const ids = this.bySession.get(stream.sessionId);
    ids?.delete(streamId);
    if (ids?.size === 0) this.bySession.delete(stream.sessionId);
    stream.ended = true;
    for (const wake of stream.followers) wake();
  }

  private sweep(now: number): void {
    for (const stream of [...this.streams.values()]) if (now - stream.touched >= this.ttlMs) this.drop(stream.id);
  }
}

/** The events of `stream` after `after`, then live ones, until it ends or `signal` aborts. */
async function* follower(stream: Stream, after: number, signal: AbortSignal): AsyncGenerator<LoggedEvent> {
  let wake: (() => void) | undefined;
  const poke = (): void => wake?.();
  stream.followers.add(poke);
  signal.addEventListener('abort', poke);
  try {
    let seen = after;
    for (;;) {
      // A fresh look after every yield: appends (and trimming) may happen while the reader is away.
      let event = stream.events.find((e) => e.seq > seen);
      while (event && !signal.aborted) {
        seen = event.seq;
        yield plain(event);
        event = stream.events.find((e) => e.seq > seen);
      }
      if (stream.ended || signal.aborted || orphaned(stream, Date.now())) return;
      // A stream with a lease is looked at again when the lease would run out (renewed or not).
      const lease = stream.lease;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (lease) timer = setTimeout(resolve, Math.max(0, lease.leaseUntil - Date.now()) + 1);
      });
      clearTimeout(timer);
      wake = undefined;
    }
  } finally {
    stream.followers.delete(poke);
    signal.removeEventListener('abort', poke);
  }
}

/** True when `stream` has not ended and its owner's lease ran out by `now`. */
function orphaned(stream: Stream, now: number): boolean {
  return !stream.ended && stream.lease !== undefined && stream.lease.leaseUntil <= now;
}

/** A kept event as a {@link LoggedEvent} (without the log's bookkeeping). */
function plain(event: LoggedEvent): LoggedEvent {
  return event.retryMs === undefined
    ? { id: event.id, data: event.data }
    : { id: event.id, data: event.data, retryMs: event.retryMs };
}

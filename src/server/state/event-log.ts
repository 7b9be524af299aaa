/**
 * The event log seam: the SSE events of legacy sessions' POST streams (2025-11-25 SSE polling,
 * SEP-1699), kept so that a client whose stream closed resumes with GET + `Last-Event-ID` on any
 * node and gets what it missed on that stream, then the rest, its answer last.
 *
 * Ids are globally unique: a stream id is `<nodeId>.<uuid>` ({@link newStreamId}), an event id
 * `<streamId>.<seq>` with `seq` 1, 2, … as the stream's one writer (its owner) numbered them.
 * A `Last-Event-ID` that is malformed, forged (a stream or a seq that never was), another
 * session's, or older than what is still kept (trimmed) is no resumption: it replays nothing,
 * never a part of the stream.
 *
 * Owner leases: a stream opened with a {@link StreamLease} is claimed by its owner until
 * `leaseUntil`, which the owner extends ({@link EventLog.renew}) while it runs. A stream not ended
 * whose lease ran out is orphaned (its owner died): `follow` finishes then (judged on the log's
 * clock), and `after` names the requests it was answering, so the reader answers them with an
 * error instead of waiting forever. A stream opened without a lease never runs out.
 *
 * Rules every implementation keeps (`test/support/state-contract.ts` checks them): events of a
 * stream are kept in `seq` order, bounded per stream (count and bytes, the newest always kept)
 * and per session (streams, ended ones dropped first); a stream unused for its TTL is gone.
 */
import { sseFrame } from '../../transport/http-server/sse-writer.js';

/** One logged SSE event. `data` is one line of JSON, or empty for a priming event. */
export interface LoggedEvent {
  readonly id: string;
  readonly data: string;
  /** The `retry` field the event carried (a priming event), if any. */
  readonly retryMs?: number;
}

/** What {@link EventLog.append} is given: the event's number in its stream, and its content. */
export interface NewEvent {
  readonly seq: number;
  readonly data: string;
  readonly retryMs?: number;
}

/** The owner's claim on a stream while it runs (see the file comment). */
export interface StreamLease {
  /** Until when (epoch ms) the claim holds unrenewed. */
  readonly leaseUntil: number;
  /** The JSON-RPC ids of the requests whose answers the stream carries. */
  readonly requestIds: readonly (string | number)[];
}

/** What {@link EventLog.after} reads. */
export interface StreamTail {
  readonly events: LoggedEvent[];
  /** True once the stream's last event (its answer) was appended: it is among `events` or before them. */
  readonly ended: boolean;
  /**
   * Present when the stream has not ended and its lease ran out by `now` (its owner stopped
   * renewing it): the ids of the requests it was answering, which will never be answered on it.
   */
  readonly orphaned?: readonly (string | number)[];
}

/** Where SSE events live. Every method that reads or writes takes the caller's `now` (epoch ms). */
export interface EventLog {
  /** True when other processes see what is stored here (requires a shared `stateSecret`). */
  readonly shared: boolean;
  /** Starts stream `streamId` of session `sessionId`, written by node `owner` (claimed until `lease.leaseUntil`). */
  open(streamId: string, sessionId: string, owner: string, now: number, lease?: StreamLease): Promise<void>;
  /**
   * Extends to `leaseUntil` the leases of those of `streamIds` that `owner` opened with a lease
   * and that are neither ended nor orphaned (others unchanged; an orphaned stream stays so).
   */
  renew(owner: string, streamIds: readonly string[], leaseUntil: number, now: number): Promise<void>;
  /**
   * Appends one event; the owner appends in `seq` order and waits for each before the next (the
   * kit chains them). Rejects `INVALID_STATE` for an unknown or ended stream.
   */
  append(streamId: string, event: NewEvent, now: number): Promise<void>;
  /** Marks the stream ended after its last event (its answer): followers finish. Idempotent. */
  end(streamId: string, now: number): Promise<void>;
  /**
   * The events of `lastEventId`'s stream kept after it, and whether the stream has ended (its
   * last event among them). Undefined when `lastEventId` is no resumption of a stream of
   * `sessionId` (see the file comment).
   */
  after(lastEventId: string, sessionId: string, now: number): Promise<StreamTail | undefined>;
  /**
   * The events of `lastEventId`'s stream after it, live: the kept ones at once, later ones as
   * they are appended, finishing after the stream's end, once its lease ran out unrenewed (the
   * reader then asks {@link after} what was orphaned), or when `signal` aborts. Resolves with
   * undefined when `lastEventId` is no resumption of a stream of `sessionId` (see the file comment).
   */
  follow(
    lastEventId: string,
    sessionId: string,
    now: number,
    signal: AbortSignal,
  ): Promise<AsyncIterable<LoggedEvent> | undefined>;
  /** Drops every stream of `sessionId` (the session ended). */
  dropSession(sessionId: string): Promise<void>;
  /** Releases what the log holds open (connections); followers finish. Idempotent. */
  close(): Promise<void>;
}

/** A new globally unique stream id of node `nodeId`. */
export function newStreamId(nodeId: string): string {
  return `${nodeId}.${crypto.randomUUID()}`;
}

/** The id of event `seq` of stream `streamId`. */
export function eventId(streamId: string, seq: number): string {
  return `${streamId}.${seq}`;
}

/** The stream and seq an event id names, or undefined when it is not one this kit makes. */
export function parseEventId(id: string): { streamId: string; seq: number } | undefined {
  const dot = id.lastIndexOf('.');
  const seq = id.slice(dot + 1);
  if (dot <= 0 || !/^\d{1,15}$/.test(seq) || id.length > 200) return undefined;
  return { streamId: id.slice(0, dot), seq: Number(seq) };
}

/** One event as SSE text (`id`, `retry`, then the message event or the empty priming data). */
export function sseText(event: LoggedEvent): string {
  // The priming event (empty data) has no type; every other one is a `message`.
  return sseFrame({
    id: event.id,
    retryMs: event.retryMs,
    event: event.data === '' ? undefined : 'message',
    data: event.data,
  });
}

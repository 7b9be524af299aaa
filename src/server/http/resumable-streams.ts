/**
 * Resumable SSE streams of a legacy Streamable HTTP session (2025-11-25 "SSE polling", SEP-1699):
 * each POST answered with SSE is one stream whose events carry globally unique ids
 * (`<nodeId>.<uuid>.<seq>`, see `state/event-log.ts`). Every event goes to the response the
 * stream is on (while there is one) and into the {@link EventLog}, so that a client whose stream
 * closed — the server closed it to be polled, or the connection dropped — sends GET with
 * `Last-Event-ID` and follows the log from there: what it missed on that stream, then the rest,
 * its answer last. With {@link StreamLeases} (a given event log) each stream is claimed by this node
 * while it runs: a resumption whose stream's owner stopped renewing (died) gets what was logged,
 * then a JSON-RPC error for each request the stream was answering, and ends.
 */
import { makeErrorResponse, RpcErrorCode, type JsonRpcId } from '../../protocol/jsonrpc.js';
import type { ResponseSink } from '../../transport/http-server/http-exchange.js';
import { sseMessage } from '../../transport/http-server/sse-writer.js';
import { fromStore } from './store-down.js';
import type { ServerLogger } from '../server-types.js';
import { eventId, newStreamId, sseText, type EventLog, type NewEvent } from '../state/event-log.js';
import type { StreamLeases } from './stream-leases.js';

/** One request's SSE stream, outliving the HTTP response it started on. */
export class ResumableStream {
  private seq = 0;
  private target: ResponseSink | undefined;
  private done = false;
  /** The log's writes in order (each one waits for the one before). */
  private tail: Promise<void>;

  constructor(
    readonly id: string,
    target: ResponseSink,
    private readonly log: EventLog,
    opened: Promise<void>,
    private readonly failed: (error: unknown) => void,
    private readonly forget: () => void,
  ) {
    this.target = target;
    this.tail = opened.catch(failed);
  }

  /** True once the stream's last event (its answer) was written. */
  get ended(): boolean {
    return this.done;
  }

  /**
   * Writes one event with the next id (`data` one line of JSON, or empty for the priming event):
   * into the log first, then to the response the stream is on, so that every id a client holds
   * is one the log can resume from.
   */
  write(data: string, retryMs?: number): void {
    const seq = ++this.seq;
    const event: NewEvent = retryMs === undefined ? { seq, data } : { seq, data, retryMs };
    this.then(
      () => this.log.append(this.id, event, Date.now()),
      () => {
        const target = this.target;
        if (target && !target.done) target.write(sseText({ ...event, id: eventId(this.id, seq) }));
      },
    );
  }

  /** Ends the stream after its last event: the current response, if any, is ended. */
  end(): void {
    this.done = true;
    this.forget();
    this.then(
      () => this.log.end(this.id, Date.now()),
      () => this.endTarget(),
    );
  }

  /**
   * Ends the current response, after what was written before, but not the stream (the server
   * asks the client to poll, or the client resumed it elsewhere).
   */
  detach(): void {
    this.then(
      () => Promise.resolve(),
      () => this.endTarget(),
    );
  }

  private endTarget(): void {
    this.target?.end();
    this.target = undefined;
  }

  /** Queues `log` after every earlier step, then `send` (also when the log failed: that is logged). */
  private then(log: () => Promise<void>, send: () => void): void {
    this.tail = this.tail
      .then(log)
      .catch(this.failed)
      .then(() => {
        try {
          send();
        } catch (error) {
          this.failed(error);
        }
      });
  }
}

/** The POST streams of one session that are still running here. */
export class ResumableStreams {
  private readonly streams = new Map<string, ResumableStream>();

  constructor(
    private readonly sessionId: string,
    private readonly nodeId: string,
    readonly log: EventLog,
    private readonly logger: ServerLogger,
    private readonly leases?: StreamLeases,
  ) {}

  /** A new stream starting on `res`, answering `requestIds`, logged under a new globally unique id. */
  open(res: ResponseSink, requestIds: readonly JsonRpcId[]): ResumableStream {
    const id = newStreamId(this.nodeId);
    const now = Date.now();
    const lease = this.leases?.claim(id, requestIds, now);
    const stream = new ResumableStream(
      id,
      res,
      this.log,
      this.log.open(id, this.sessionId, this.nodeId, now, lease),
      // The client still gets the event live; only its resumption is lost (or the session ended meanwhile).
      (error: unknown) =>
        this.logger({
          level: 'warning',
          msg: 'an SSE event could not be logged for resumption',
          error: error instanceof Error ? error.message : 'a non-Error value',
        }),
      () => {
        this.streams.delete(id);
        this.leases?.ended(id);
      },
    );
    this.streams.set(id, stream);
    return stream;
  }

  /**
   * Continues the stream `lastEventId` names on `res` (a GET with `Last-Event-ID`): `open` starts
   * the response once the log found the stream, then the logged events after it go at once,
   * later ones as they come; `res` ends with the stream. A response the stream was on here is
   * ended first (the client left it). Resolves with false, having written nothing, when the id is
   * no resumption of this session's streams (malformed, forged, another session's, trimmed);
   * otherwise once the stream ended, its owner was found gone (its requests then answered with an
   * error), or `res` closed. Rejects with `STATE_UNAVAILABLE` when the log cannot be read.
   */
  async resume(res: ResponseSink, lastEventId: string, open: () => void): Promise<boolean> {
    const gone = new AbortController();
    const dispose = res.onClose(() => gone.abort());
    try {
      const events = await fromStore(this.log.follow(lastEventId, this.sessionId, Date.now(), gone.signal));
      if (!events) return false;
      open();
      const dot = lastEventId.trim().lastIndexOf('.');
      this.streams.get(lastEventId.trim().slice(0, dot))?.detach();
      let last = lastEventId.trim();
      for await (const event of events) {
        last = event.id;
        if (!res.done) res.write(sseText(event));
      }
      if (!gone.signal.aborted) await this.orphaned(res, last);
      res.end();
      return true;
    } finally {
      dispose();
    }
  }

  /** After a follow finished: when the stream's owner is gone, what it logged since and an error per request. */
  private async orphaned(res: ResponseSink, last: string): Promise<void> {
    const tail = await this.log.after(last, this.sessionId, Date.now());
    if (!tail?.orphaned || res.done) return;
    for (const event of tail.events) res.write(sseText(event));
    for (const id of tail.orphaned) {
      const error = makeErrorResponse(id, RpcErrorCode.InternalError, 'the server running the request stopped');
      res.write(sseMessage(JSON.stringify(error)));
    }
  }
}

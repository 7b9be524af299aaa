/**
 * Resumable SSE streams of a legacy Streamable HTTP session (2025-11-25 "SSE polling", SEP-1699):
 * each POST answered with SSE is one stream whose events carry ids `<stream>-<seq>`; the events
 * are kept (bounded) so that a client whose stream closed — the server closed it to be polled,
 * or the connection dropped — can send GET with `Last-Event-ID` and get what it missed on that
 * stream, then the rest of it, its answer last. Pure bookkeeping over `ServerResponse`s: no timer.
 */
import type { ServerResponse } from 'node:http';

/** Most events kept per stream, and most bytes of them (the newest event is always kept). */
const MAX_EVENTS = 256;
const MAX_BYTES = 1_048_576;

/** One request's SSE stream, outliving the HTTP response it started on. */
export class ResumableStream {
  private seq = 0;
  private readonly kept: Array<{ seq: number; text: string }> = [];
  private bytes = 0;
  private target: ServerResponse | undefined;
  private done = false;

  constructor(
    readonly id: number,
    target: ServerResponse,
  ) {
    this.target = target;
  }

  /** True once the stream's last event (its answer) was written. */
  get ended(): boolean {
    return this.done;
  }

  /** Writes one event with the next id (`data` one line of JSON, or empty for the priming event). */
  write(data: string, retryMs?: number): void {
    const seq = ++this.seq;
    const text = `id: ${this.id}-${seq}\n${retryMs === undefined ? '' : `retry: ${retryMs}\n`}${data === '' ? 'data: \n\n' : `event: message\ndata: ${data}\n\n`}`;
    this.kept.push({ seq, text });
    this.bytes += text.length;
    while (this.kept.length > 1 && (this.kept.length > MAX_EVENTS || this.bytes > MAX_BYTES))
      this.bytes -= this.kept.shift()!.text.length;
    this.writeTo(text);
  }

  /** Ends the stream after its last event: the current response, if any, is ended. */
  end(): void {
    this.done = true;
    this.target?.end();
    this.target = undefined;
  }

  /** Ends the current response but not the stream (the server asks the client to poll). */
  detach(): void {
    this.target?.end();
    this.target = undefined;
  }

  /**
   * Continues the stream on `res` (a GET with `Last-Event-ID`): the events after `after` that are
   * still kept are written at once, later ones as they come; the response ends with the stream.
   * A response the stream was on before is ended.
   */
  attach(res: ServerResponse, after: number): void {
    if (this.target && this.target !== res) this.target.end();
    this.target = res;
    res.once('close', () => {
      if (this.target === res) this.target = undefined;
    });
    for (const event of this.kept) if (event.seq > after) res.write(event.text);
    if (this.done) {
      res.end();
      this.target = undefined;
    }
  }

  private writeTo(text: string): void {
    const target = this.target;
    if (target && !target.destroyed && !target.writableEnded) target.write(text);
  }
}

/** The resumable streams of one session, at most `max` (the oldest dropped first, ended ones before live ones). */
export class ResumableStreams {
  private next = 1;
  private readonly streams = new Map<number, ResumableStream>();

  constructor(private readonly max = 16) {}

  /** A new stream starting on `res`. */
  open(res: ServerResponse): ResumableStream {
    if (this.streams.size >= this.max) {
      const victim = [...this.streams.values()].find((s) => s.ended) ?? this.streams.values().next().value!;
      this.streams.delete(victim.id);
    }
    const stream = new ResumableStream(this.next++, res);
    this.streams.set(stream.id, stream);
    return stream;
  }

  /** The stream a `Last-Event-ID` names and the sequence number after which to resume, or undefined. */
  find(lastEventId: string): { stream: ResumableStream; after: number } | undefined {
    const match = /^(\d{1,15})-(\d{1,15})$/.exec(lastEventId.trim());
    if (!match) return undefined;
    const stream = this.streams.get(Number(match[1]));
    return stream ? { stream, after: Number(match[2]) } : undefined;
  }
}

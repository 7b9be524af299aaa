/**
 * The answer to one POST: JSON by default, switched to an SSE stream the first time a
 * notification must go out before the answer (progress, a log message) and the client accepts
 * SSE. Without SSE, such notifications are dropped (the answer still comes). Each SSE event gets
 * an id. In a legacy session the stream is resumable ({@link ResumableStream}): it may open with
 * a priming event (an id, `retry`, empty data; 2025-11-25), the server may close the response
 * early ({@link ResponseChannel.closeStream}) and the client gets the rest with GET +
 * `Last-Event-ID`; elsewhere a stream ends with its answer and is never replayed.
 */
import type { JsonRpcId, JsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { ResponseSink } from '../../transport/http-server/http-exchange.js';
import type { PostChannel } from '../../transport/http-server/post-pipe.js';
import { sseMessage } from '../../transport/http-server/sse-writer.js';
import type { ResumableStream, ResumableStreams } from './resumable-streams.js';

/** How a session's POST streams resume. */
export interface Resumption {
  /** The session's streams, where this POST's stream is kept. */
  readonly streams: ResumableStreams;
  /** Send a priming event with this `retry` (ms) first (2025-11-25 clients); undefined: none. */
  readonly primeRetryMs: number | undefined;
  /** The ids of the POST's requests, whose answers the stream carries. */
  readonly requestIds: readonly JsonRpcId[];
}

export class ResponseChannel implements PostChannel {
  private streaming = false;
  private nextEventId = 1;
  private ended = false;
  private stream: ResumableStream | undefined;

  constructor(
    private readonly sink: ResponseSink,
    private readonly sse: boolean,
    private readonly headers: Record<string, string>,
    private readonly resumption?: Resumption,
  ) {}

  /**
   * True once the answer is sent or nothing more can reach the client: the response is gone and
   * the stream cannot be resumed.
   */
  get closed(): boolean {
    if (this.ended) return true;
    if (this.stream) return false;
    return this.sink.done;
  }

  /** True once the answer goes out on a resumable stream: losing the response loses nothing. */
  get resumable(): boolean {
    return this.stream !== undefined;
  }

  /** True when the client accepts SSE, so messages can go before the answer. */
  get canStream(): boolean {
    return this.sse;
  }

  /** Sends a message tied to the request (a notification, a server request), when SSE allows it. Never throws. */
  notify(message: JsonRpcMessage): void {
    if (this.closed || !this.sse) return;
    this.startStreaming();
    this.event(message);
  }

  /**
   * Ends the HTTP response now but not the request's stream, so the client polls: it resumes with
   * GET + `Last-Event-ID` and gets the rest there. Only for a resumable stream the client accepts
   * (a legacy session, SSE); elsewhere it does nothing. Returns whether the response was closed.
   */
  closeStream(): boolean {
    if (this.closed || !this.sse || !this.resumption) return false;
    this.startStreaming();
    this.stream!.detach();
    return true;
  }

  /** Sends the answer (one message or a batch array) and ends the response (or the resumable stream). */
  finish(answer: JsonRpcMessage | JsonRpcMessage[], status = 200): void {
    if (this.closed) return;
    this.ended = true;
    if (this.streaming) {
      if (Array.isArray(answer)) for (const message of answer) this.event(message);
      else this.event(answer);
      this.endStream();
      return;
    }
    const headers = withHeaders(this.headers);
    headers['content-type'] = 'application/json';
    this.sink.send(status, headers, JSON.stringify(answer));
  }

  /**
   * Writes the answers of a POST whose requests found the state store down: 503 with
   * `Retry-After` (one answer, or the batch's array) — or, on a stream already open, the answers
   * as its last events.
   */
  finishUnavailable(answers: readonly JsonRpcMessage[]): void {
    if (answers.length === 0) return this.finishUnanswered();
    const body = answers.length === 1 ? answers[0]! : [...answers];
    if (this.closed || this.streaming) return this.finish(body);
    this.ended = true;
    const headers = withHeaders(this.headers);
    headers['content-type'] = 'application/json';
    headers['retry-after'] = '1';
    this.sink.send(503, headers, JSON.stringify(body));
  }

  /**
   * Writes a POST's one answer with the status `statusFor` gives it, or, when there is none (its
   * request was cancelled), ends the response without one ({@link finishUnanswered}).
   */
  finishFirst(answers: readonly JsonRpcMessage[], statusFor: (answer: JsonRpcMessage) => number): void {
    const answer = answers[0];
    if (answer) this.finish(answer, statusFor(answer));
    else this.finishUnanswered();
  }

  /**
   * Ends the response without an answer: its requests were cancelled (the spec: no answer is
   * sent). A stream ends (one opens and ends when the client accepts SSE); a client that takes
   * only JSON gets 202 with no body.
   */
  finishUnanswered(): void {
    if (this.closed) return;
    this.ended = true;
    if (!this.streaming && !this.sse) {
      this.sink.send(202, this.headers);
      return;
    }
    this.startStreaming();
    this.endStream();
  }

  private endStream(): void {
    if (this.stream) this.stream.end();
    else this.sink.end();
  }

  private startStreaming(): void {
    if (this.streaming) return;
    this.streaming = true;
    const headers = withHeaders(this.headers);
    headers['content-type'] = 'text/event-stream';
    headers['cache-control'] = 'no-cache';
    headers.connection = 'keep-alive';
    this.sink.open(200, headers);
    if (!this.resumption) return;
    this.stream = this.resumption.streams.open(this.sink, this.resumption.requestIds);
    if (this.resumption.primeRetryMs !== undefined) this.stream.write('', this.resumption.primeRetryMs);
  }

  private event(message: JsonRpcMessage): void {
    if (this.stream) this.stream.write(JSON.stringify(message));
    else this.sink.write(sseMessage(JSON.stringify(message), this.nextEventId++));
  }
}

/** A fresh header object with `extra`'s entries (most often none: no copy to make). */
function withHeaders(extra: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const key in extra) headers[key] = extra[key]!;
  return headers;
}

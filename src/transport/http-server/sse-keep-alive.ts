/**
 * SSE keep-alives for the server end of HTTP: a stream that has written nothing for
 * `intervalMs` gets a comment frame ({@link SSE_KEEP_ALIVE}, which SSE parsers drop), so a
 * runtime or proxy that cuts idle connections (Bun's `idleTimeout`, nginx's `proxy_read_timeout`)
 * leaves a quiet stream open. All the streams of a handler share one {@link DeadlineSet}: a write
 * pushes its stream's due time later (an assignment, no timer); the timer does not keep the
 * process alive; an ended stream is never written to.
 */
import { DeadlineSet, type Deadline } from '../../protocol/deadline-set.js';
import { now } from '../../protocol/deadline-timer.js';
import { SSE_KEEP_ALIVE } from './sse-writer.js';

/** What a kept stream writes to: the edge's sink. */
export interface KeptSink {
  readonly done: boolean;
  write(chunk: string): void;
}

/** One open SSE stream's keep-alive: the sink calls {@link wrote} on every write and {@link ended} once. */
export class KeepAliveBeat implements Deadline {
  due = 0;

  constructor(
    private readonly owner: SseKeepAlive,
    private readonly sink: KeptSink,
  ) {}

  /** The stream wrote something: the next keep-alive is due `intervalMs` from now. */
  wrote(): void {
    this.due = now() + this.owner.intervalMs;
  }

  /** The stream ended (or its client went away): no keep-alive goes to it. */
  ended(): void {
    this.owner.drop(this);
  }

  /** Called by the set when the stream was silent for the interval. */
  expire(): void {
    if (this.sink.done) return;
    this.sink.write(SSE_KEEP_ALIVE);
    this.owner.keep(this);
  }
}

export class SseKeepAlive {
  private readonly beats = new DeadlineSet();
  private closed = false;

  /** `intervalMs`: how long a stream may stay silent before a keep-alive is written (> 0). */
  constructor(readonly intervalMs: number) {}

  /** Starts keeping `sink` (an SSE stream just opened) alive; nothing after {@link close}. */
  watch(sink: KeptSink): KeepAliveBeat | undefined {
    if (this.closed) return undefined;
    const beat = new KeepAliveBeat(this, sink);
    this.beats.add(beat, this.intervalMs);
    return beat;
  }

  /** Stops every keep-alive and the timer for good (the handler closed). */
  close(): void {
    this.closed = true;
    this.beats.clear();
  }

  /** @internal Puts `beat` back after its keep-alive was written. */
  keep(beat: KeepAliveBeat): void {
    if (!this.closed) this.beats.add(beat, this.intervalMs);
  }

  /** @internal Forgets `beat`. */
  drop(beat: KeepAliveBeat): void {
    this.beats.delete(beat);
  }
}

/** True for the headers of an SSE response (the streams a keep-alive is for). */
export function isEventStream(headers: Readonly<Record<string, string>>): boolean {
  return headers['content-type']?.startsWith('text/event-stream') === true;
}

/**
 * Server-Sent Events parsing as a pure class: decoded text chunks in, events out, no I/O and no
 * `node:*` import. Follows the WHATWG event-stream rules the MCP transports rely on: lines end in
 * CRLF, LF or CR (a CR at the end of a chunk may be the first half of a CRLF), `:` lines are
 * comments (keep-alives), `data` lines join with `\n`, `id` sets the last event id (ignored when
 * it contains NUL), `retry` takes only ASCII digits, and an event is dispatched on a blank line.
 * An event with an empty data buffer is not dispatched, but its `id` and `retry` still count:
 * that is exactly the 2025-11-25 "priming event".
 */
import { MESSAGE_HEAD_CHARS } from '../../protocol/message-head.js';

/** One dispatched event. `event` defaults to `message`. */
export interface SseEvent {
  event: string;
  data: string;
  /** The last event id in effect when this event was dispatched (the stream's cursor). */
  id: string | undefined;
}

/** Where the decoder delivers what it finds. */
export interface SseSink {
  event(event: SseEvent): void;
  /** A new `retry` value in ms. */
  retry?(ms: number): void;
  /** The cursor moved (an `id` field), whether or not an event followed. */
  id?(id: string): void;
  /**
   * An event over the size cap was dropped, as soon as it passed the cap: `chars` is what had
   * arrived of it by then, `head` its first data characters (at most `MESSAGE_HEAD_CHARS`,
   * data lines joined with `\n` as in a dispatched event).
   */
  oversize?(chars: number, head: string): void;
}

/** Default cap of one event's data, in UTF-16 code units (about the byte count for JSON): 16 MiB. */
export const DEFAULT_MAX_EVENT_CHARS = 16 * 1024 * 1024;

/**
 * Decodes one SSE stream. Feed it text with {@link SseDecoder.push} (decoding bytes to text,
 * including split UTF-8 sequences, is the caller's stream decoder's job) and call
 * {@link SseDecoder.end} when the stream ends: a half-written event at the end is discarded,
 * as the SSE rules say. Work is linear in the input.
 */
export class SseDecoder {
  /** The last event id seen on this stream (survives across events, as the standard says). */
  lastEventId: string | undefined;
  private readonly sink: SseSink;
  private readonly maxChars: number;
  private line = '';
  private data: string[] = [];
  private dataChars = 0;
  private eventType = '';
  private dropping = false;
  /** The previous chunk ended in CR: a leading LF of the next chunk belongs to that line end. */
  private pendingCr = false;
  private sawBom = false;
  /** The rest of an over-long line is being discarded up to its line end. */
  private skipLine = false;

  constructor(sink: SseSink, options: { maxEventChars?: number; lastEventId?: string } = {}) {
    this.sink = sink;
    this.maxChars = options.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS;
    this.lastEventId = options.lastEventId;
  }

  /** Consumes a chunk of text; dispatches every event it completes, synchronously. */
  push(chunk: string): void {
    let start = 0;
    if (!this.sawBom && chunk.length > 0) {
      this.sawBom = true;
      if (chunk.charCodeAt(0) === 0xfeff) start = 1;
    }
    if (this.pendingCr) {
      this.pendingCr = false;
      if (chunk.charCodeAt(start) === 0x0a) start++;
    }
    const length = chunk.length;
    // Line ends found with indexOf (memchr-fast) rather than a per-character loop; each search
    // result is reused until the scan passes it, so many lines per chunk stay linear.
    let nextLf = chunk.indexOf('\n', start);
    let nextCr = chunk.indexOf('\r', start);
    while (start < length) {
      if (nextLf !== -1 && nextLf < start) nextLf = chunk.indexOf('\n', start);
      if (nextCr !== -1 && nextCr < start) nextCr = chunk.indexOf('\r', start);
      const end = nextCr === -1 ? nextLf : nextLf === -1 ? nextCr : Math.min(nextCr, nextLf);
      if (end === -1) break;
      if (this.skipLine) this.skipLine = false;
      else this.takeLine(this.line.length === 0 ? chunk.slice(start, end) : this.line + chunk.slice(start, end));
      this.line = '';
      let next = end + 1;
      if (end === nextCr) {
        if (next === length) this.pendingCr = true;
        else if (chunk.charCodeAt(next) === 0x0a) next++;
      }
      start = next;
    }
    if (start < length && !this.skipLine) {
      this.line += chunk.slice(start);
      if (this.line.length > this.maxChars + 16) {
        this.overflow(dataValue(this.line));
        this.skipLine = true;
      }
    }
  }

  /** The stream ended: an unterminated event is discarded. Idempotent. */
  end(): void {
    this.line = '';
    this.resetEvent();
    this.dropping = false;
    this.skipLine = false;
    this.pendingCr = false;
  }

  private takeLine(line: string): void {
    if (line.length === 0) {
      this.dispatch();
      return;
    }
    if (line.charCodeAt(0) === 0x3a) return; // `:` comment, e.g. a keep-alive
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    switch (field) {
      case 'data':
        if (this.dropping) return;
        this.dataChars += value.length + 1;
        if (this.dataChars > this.maxChars) {
          this.overflow(value);
          return;
        }
        this.data.push(value);
        return;
      case 'event':
        this.eventType = value;
        return;
      case 'id':
        if (value.includes('\0')) return;
        this.lastEventId = value;
        this.sink.id?.(value);
        return;
      case 'retry':
        if (/^\d+$/.test(value)) this.sink.retry?.(Number(value));
        return;
      default:
      // Unknown fields are ignored.
    }
  }

  private dispatch(): void {
    if (this.dropping) {
      this.dropping = false;
      this.resetEvent();
      return;
    }
    // An empty data buffer (no `data` line, or only `data:` with nothing) dispatches nothing.
    if (this.data.length === 0 || (this.data.length === 1 && this.data[0] === '')) {
      this.resetEvent();
      return;
    }
    const data = this.data.length === 1 ? this.data[0]! : this.data.join('\n');
    const event = this.eventType === '' ? 'message' : this.eventType;
    this.resetEvent();
    this.sink.event({ event, data, id: this.lastEventId });
  }

  /** `current`: the value of the data line that passed the cap (not in `data` yet); '' for another line. */
  private overflow(current: string): void {
    if (!this.dropping) this.sink.oversize?.(this.dataChars + this.line.length, this.head(current));
    this.dropping = true;
    this.line = '';
    this.data = [];
    this.dataChars = 0;
  }

  /** The first MESSAGE_HEAD_CHARS characters of the event's data so far, `current` last; copies no more. */
  private head(current: string): string {
    let head = '';
    for (let i = 0; i < this.data.length && head.length < MESSAGE_HEAD_CHARS; i++) {
      head += (i === 0 ? '' : '\n') + this.data[i]!.slice(0, MESSAGE_HEAD_CHARS);
    }
    if (head.length < MESSAGE_HEAD_CHARS)
      head += (this.data.length > 0 ? '\n' : '') + current.slice(0, MESSAGE_HEAD_CHARS);
    return head.slice(0, MESSAGE_HEAD_CHARS);
  }

  private resetEvent(): void {
    this.data = [];
    this.dataChars = 0;
    this.eventType = '';
  }
}

/** The value of a raw `data` line (`data:x`, `data: x`); '' for any other field. */
function dataValue(line: string): string {
  if (!line.startsWith('data:')) return '';
  return line.charCodeAt(5) === 0x20 ? line.slice(6) : line.slice(5);
}

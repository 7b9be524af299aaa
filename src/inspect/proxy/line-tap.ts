/**
 * The recording side of a byte stream the proxies forward: copies of the chunks in, whole lines
 * out. It never touches the chunks it is given (the forwarded bytes are the originals), keeps a
 * partial line as views until its newline arrives, and caps what it holds: a line longer than
 * the cap is reported once as oversize and skipped up to its newline.
 */

import { DEFAULT_MAX_MESSAGE_BYTES } from '../../transport/ndjson-framer.js';

const NEWLINE = 0x0a;

/** Default cap of one recorded line: the transports' message cap (16 MiB). */
export const DEFAULT_TAP_LINE_BYTES = DEFAULT_MAX_MESSAGE_BYTES;

/** Where a {@link LineTap} delivers lines. */
export interface LineTapSink {
  /** One complete line, without its `\n` (a `\r` before it is kept). Never empty. */
  line(bytes: Buffer): void;
  /** A line passed the cap and was not recorded; `bytes` is its size as far as it was seen. */
  oversize?(bytes: number): void;
}

/** Splits a byte stream into lines on `\n`. One instance per stream direction. */
export class LineTap {
  private readonly sink: LineTapSink;
  private readonly max: number;
  private pieces: Buffer[] = [];
  private held = 0;
  private skipping = false;
  private skipped = 0;

  constructor(sink: LineTapSink, maxLineBytes = DEFAULT_TAP_LINE_BYTES) {
    this.sink = sink;
    this.max = maxLineBytes;
  }

  /** Feeds one chunk; every line it completes is delivered before this returns. */
  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1) break;
      this.finish(chunk, start, newline);
      start = newline + 1;
    }
    if (start < chunk.length) this.hold(chunk, start);
  }

  /** The stream ended: an unterminated last line is delivered too. Idempotent. */
  end(): void {
    if (this.skipping || this.held > 0) this.finish(EMPTY, 0, 0);
  }

  private finish(chunk: Buffer, start: number, end: number): void {
    if (this.skipping) {
      const size = this.skipped + (end - start);
      this.skipping = false;
      this.skipped = 0;
      this.sink.oversize?.(size);
      return;
    }
    const size = this.held + (end - start);
    if (size > this.max) {
      this.pieces = [];
      this.held = 0;
      this.sink.oversize?.(size);
      return;
    }
    let line: Buffer;
    if (this.held === 0) line = chunk.subarray(start, end);
    else {
      if (end > start) this.pieces.push(chunk.subarray(start, end));
      line = Buffer.concat(this.pieces, size);
      this.pieces = [];
      this.held = 0;
    }
    if (line.length > 0) this.sink.line(line);
  }

  private hold(chunk: Buffer, start: number): void {
    const rest = chunk.length - start;
    if (this.skipping) {
      this.skipped += rest;
      return;
    }
    if (this.held + rest > this.max) {
      this.skipping = true;
      this.skipped = this.held + rest;
      this.pieces = [];
      this.held = 0;
      return;
    }
    this.pieces.push(chunk.subarray(start));
    this.held += rest;
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * Newline-delimited JSON framing, as a pure class: chunks in, decoded values out, no I/O.
 *
 * Lines are split on the byte 0x0A, which never occurs inside a multi-byte UTF-8 sequence, so a
 * character split across chunks is reassembled by decoding whole lines only. Each byte is
 * scanned once; a line spread over many chunks is joined once, when its newline arrives.
 * Junk lines and oversized lines are reported and skipped; decoding resumes at the next newline.
 */
import { Buffer } from 'node:buffer';
import type { TransportDiagnostic } from '../protocol/transport.js';

/** Default cap of one message: 16 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

const NEWLINE = 0x0a;
const SAMPLE_CHARS = 200;

/** Where the decoder delivers what it finds. */
export interface NdjsonSink {
  /** One decoded JSON value per non-blank line. */
  message(value: unknown): void;
  /** A line that was skipped: not JSON, or larger than the cap. */
  diagnostic(diagnostic: TransportDiagnostic): void;
}

/** Options of {@link NdjsonDecoder}. */
export interface NdjsonDecoderOptions {
  /** Largest accepted line in bytes, newline excluded (default 16 MiB). */
  maxMessageBytes?: number;
}

/** Decodes a byte stream of newline-delimited JSON into values. Not thread-safe; one per stream. */
export class NdjsonDecoder {
  private readonly max: number;
  private pieces: Buffer[] = [];
  private pendingBytes = 0;
  /** True while skipping the rest of an oversized line. */
  private discarding = false;
  private discardedBytes = 0;

  constructor(
    private readonly sink: NdjsonSink,
    options: NdjsonDecoderOptions = {},
  ) {
    this.max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  /** Bytes held for an unterminated line (for tests and status). */
  get buffered(): number {
    return this.pendingBytes;
  }

  /** Feeds one chunk. Strings are encoded as UTF-8 first. */
  push(input: Uint8Array | string): void {
    const chunk = typeof input === 'string' ? Buffer.from(input, 'utf8') : Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1) break;
      this.completeLine(chunk, start, newline);
      start = newline + 1;
    }
    if (start < chunk.length) this.hold(chunk, start);
  }

  /** Ends the stream: a final line without a newline is decoded too. */
  end(): void {
    if (this.discarding) {
      this.reportOversize(this.discardedBytes);
    } else if (this.pendingBytes > 0) {
      const line = Buffer.concat(this.pieces, this.pendingBytes);
      this.reset();
      this.decode(line.toString('utf8'));
    }
    this.reset();
  }

  private completeLine(chunk: Buffer, start: number, end: number): void {
    if (this.discarding) {
      this.reportOversize(this.discardedBytes + (end - start));
      this.reset();
      return;
    }
    const size = this.pendingBytes + (end - start);
    if (size > this.max) {
      this.reset();
      this.reportOversize(size);
      return;
    }
    let text: string;
    if (this.pendingBytes === 0) {
      // Fast path: the whole line is inside this chunk; decode in place without copying.
      text = chunk.toString('utf8', start, end);
    } else {
      this.pieces.push(chunk.subarray(start, end));
      text = Buffer.concat(this.pieces, size).toString('utf8');
      this.reset();
    }
    this.decode(text);
  }

  private hold(chunk: Buffer, start: number): void {
    const rest = chunk.length - start;
    if (this.discarding) {
      this.discardedBytes += rest;
      return;
    }
    if (this.pendingBytes + rest > this.max) {
      // Stop buffering now: an oversized line is skipped up to its newline, never held.
      this.discarding = true;
      this.discardedBytes = this.pendingBytes + rest;
      this.pieces = [];
      this.pendingBytes = 0;
      return;
    }
    // The chunk may be reused by the stream after this call returns only if it is ours to keep;
    // Node hands each 'data' chunk over for good, so a view is enough.
    this.pieces.push(chunk.subarray(start));
    this.pendingBytes += rest;
  }

  private decode(raw: string): void {
    const text = raw.length > 0 && raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw;
    if (text.length === 0 || isBlank(text)) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.sink.diagnostic({
        kind: 'invalid-json',
        message: `skipped a line that is not JSON (${error instanceof Error ? error.message : String(error)})`,
        sample: text.length > SAMPLE_CHARS ? `${text.slice(0, SAMPLE_CHARS)}…` : text,
      });
      return;
    }
    this.sink.message(value);
  }

  private reportOversize(size: number): void {
    this.sink.diagnostic({ kind: 'oversize', message: `skipped a ${size}-byte message: larger than the ${this.max}-byte limit` });
  }

  private reset(): void {
    this.pieces = [];
    this.pendingBytes = 0;
    this.discarding = false;
    this.discardedBytes = 0;
  }
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

/** Serialises one message as an NDJSON line. JSON.stringify never emits a raw newline. */
export function encodeMessage(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

/**
 * Newline-delimited JSON framing, as a pure class: chunks in, decoded values out, no I/O and no
 * `node:*` import, so it runs wherever JavaScript does.
 *
 * Lines are split on the byte 0x0A, which never occurs inside a multi-byte UTF-8 sequence, so a
 * character split across chunks is reassembled by decoding whole lines only. Linear in the input:
 * each byte is scanned for the newline once; a line spread over many chunks is kept as a list of
 * views and joined and decoded once, when its newline arrives. Junk lines and oversized lines are
 * reported and skipped; decoding resumes after the next newline.
 */
import { errorMessage } from '../protocol/errors.js';
import { MESSAGE_HEAD_CHARS } from '../protocol/message-head.js';
import { SAMPLE_CHARS } from '../protocol/value-sample.js';
import type { TransportDiagnostic } from '../protocol/transport.js';

/** Default cap of one message: 16 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

const NEWLINE = 0x0a;
/** Bytes decoded for a sample: enough for SAMPLE_CHARS characters of any width. */
const SAMPLE_BYTES = SAMPLE_CHARS * 4;

/**
 * Node's Buffer searches (memchr) and decodes 2–3× faster than `TypedArray#indexOf` and
 * `TextDecoder` for message-sized lines, so Buffer chunks (what a Node stream yields) take its
 * methods; any other Uint8Array takes the portable ones. Read from the global, never imported.
 */
const NodeBuffer = (globalThis as { Buffer?: BufferConstructor }).Buffer;
const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();

/** Where the decoder delivers what it finds. A callback sink costs no array per chunk. */
export interface NdjsonSink {
  /** One decoded JSON value per non-blank line (a batch array arrives as one value). */
  message(value: unknown): void;
  /** A line that was skipped: `invalid-json` (not JSON) or `oversize` (larger than the cap). */
  diagnostic(diagnostic: TransportDiagnostic): void;
}

/** Options of {@link NdjsonDecoder}. */
export interface NdjsonDecoderOptions {
  /** Largest accepted line in UTF-8 bytes, line end excluded (default 16 MiB). */
  maxMessageBytes?: number;
}

/**
 * Decodes a stream of newline-delimited JSON (LF or CRLF line ends) into values, delivered
 * synchronously to the sink from {@link NdjsonDecoder.push}. One instance per stream. Blank lines
 * are ignored; a line that is not JSON is reported as `invalid-json` and skipped. A line of more
 * than `maxMessageBytes` bytes is reported as `oversize` and never held: what was buffered of it
 * is released as soon as it passes the cap, and the rest is discarded up to its newline. Its
 * report carries the line's first characters as `head` (stdout is shared by every request, and
 * the connection reads there which request the line answered).
 */
export class NdjsonDecoder {
  private readonly sink: NdjsonSink;
  private readonly max: number;
  /** Views of the current unterminated line, joined once when its newline arrives. */
  private pieces: Uint8Array[] = [];
  private held = 0;
  /** True while discarding the rest of an oversized line. */
  private skipping = false;
  private skippedBytes = 0;
  private skippedSample = '';
  private skippedHead = '';

  constructor(sink: NdjsonSink, options: NdjsonDecoderOptions = {}) {
    this.sink = sink;
    this.max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  /** Bytes held for an unterminated line; never more than `maxMessageBytes`. */
  get buffered(): number {
    return this.held;
  }

  /**
   * Feeds one chunk (strings are encoded as UTF-8). Every line the chunk completes is delivered
   * before this returns. The chunk's memory must not be reused by the caller afterwards: a
   * partial line is kept as a view, not a copy (Node hands each stream chunk over for good).
   */
  push(chunk: Uint8Array | string): void {
    const bytes = typeof chunk === 'string' ? utf8Encoder.encode(chunk) : chunk;
    let start = 0;
    for (;;) {
      const newline = bytes.indexOf(NEWLINE, start);
      if (newline === -1) break;
      if (this.held === 0 && !this.skipping) this.line(bytes, start, newline);
      else this.complete(bytes, start, newline);
      start = newline + 1;
    }
    if (start < bytes.length) this.hold(bytes, start);
  }

  /** Ends the stream: a final line without a newline is decoded too. The decoder is then empty and reusable. */
  end(): void {
    if (this.skipping || this.held > 0) this.complete(EMPTY, 0, 0);
  }

  /** A line wholly inside one chunk: the hot path, one decode and one parse. */
  private line(bytes: Uint8Array, start: number, end: number): void {
    if (end - start > this.max) {
      this.oversize(end - start, sampleOf(bytes, start, end), headOf([bytes.subarray(start, end)]));
      return;
    }
    if (end > start) this.parse(utf8(bytes, start, end));
  }

  /** The newline of a held or skipped line arrived (or the stream ended). */
  private complete(bytes: Uint8Array, start: number, end: number): void {
    if (this.skipping) {
      const size = this.skippedBytes + (end - start);
      const sample = this.skippedSample;
      const head = this.skippedHead;
      this.skipping = false;
      this.skippedBytes = 0;
      this.skippedSample = '';
      this.skippedHead = '';
      this.oversize(size, sample, head);
      return;
    }
    const size = this.held + (end - start);
    if (end > start) this.pieces.push(bytes.subarray(start, end));
    const pieces = this.pieces;
    this.pieces = [];
    this.held = 0;
    if (size > this.max) {
      this.oversize(size, sampleOfPieces(pieces), headOf(pieces));
      return;
    }
    const line = join(pieces, size);
    this.parse(utf8(line, 0, size));
  }

  /** Keeps the unterminated rest of a chunk, or starts discarding once the line passes the cap. */
  private hold(bytes: Uint8Array, start: number): void {
    const rest = bytes.length - start;
    if (this.skipping) {
      this.skippedBytes += rest;
      return;
    }
    if (this.held + rest <= this.max) {
      this.pieces.push(start === 0 ? bytes : bytes.subarray(start));
      this.held += rest;
      return;
    }
    this.pieces.push(bytes.subarray(start));
    this.skippedSample = sampleOfPieces(this.pieces);
    this.skippedHead = headOf(this.pieces);
    this.skippedBytes = this.held + rest;
    this.skipping = true;
    this.pieces = [];
    this.held = 0;
  }

  private parse(line: string): void {
    let value: unknown;
    try {
      // JSON whitespace includes '\r', so a CRLF line parses as it is, with no slice.
      value = JSON.parse(line);
    } catch (error) {
      if (!isBlank(line)) this.invalid(line, error);
      return;
    }
    this.sink.message(value);
  }

  private invalid(line: string, error: unknown): void {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    this.sink.diagnostic({
      kind: 'invalid-json',
      // V8 quotes at most a few characters of the input in its message, so it stays short.
      message: `skipped a line that is not JSON (${errorMessage(error)})`,
      sample: truncate(text),
    });
  }

  private oversize(bytes: number, sample: string, head: string): void {
    this.sink.diagnostic({
      kind: 'oversize',
      message: `skipped a ${bytes}-byte message: larger than the ${this.max}-byte limit`,
      sample,
      head,
      limit: this.max,
      size: bytes,
    });
  }
}

const EMPTY = new Uint8Array(0);

function utf8(bytes: Uint8Array, start: number, end: number): string {
  if (NodeBuffer !== undefined && bytes instanceof NodeBuffer) return bytes.toString('utf8', start, end);
  return utf8Decoder.decode(bytes.subarray(start, end));
}

/** One copy of a line's pieces (none when it arrived in one piece). */
function join(pieces: Uint8Array[], size: number): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  if (NodeBuffer !== undefined && pieces[0] instanceof NodeBuffer) return NodeBuffer.concat(pieces, size);
  const line = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    line.set(piece, at);
    at += piece.length;
  }
  return line;
}

/** The first SAMPLE_CHARS characters of `bytes[start, end)`, with an ellipsis when cut. */
function sampleOf(bytes: Uint8Array, start: number, end: number): string {
  const text = utf8(bytes, start, Math.min(end, start + SAMPLE_BYTES));
  return text.length > SAMPLE_CHARS || end - start > SAMPLE_BYTES ? `${text.slice(0, SAMPLE_CHARS)}…` : text;
}

/** The sample of a line held in pieces: only its first SAMPLE_BYTES are joined and decoded. */
function sampleOfPieces(pieces: Uint8Array[]): string {
  const head: Uint8Array[] = [];
  let size = 0;
  let total = 0;
  for (const piece of pieces) {
    total += piece.length;
    if (size < SAMPLE_BYTES) {
      const part = piece.subarray(0, SAMPLE_BYTES - size);
      head.push(part);
      size += part.length;
    }
  }
  const text = utf8(join(head, size), 0, size);
  return text.length > SAMPLE_CHARS || total > size ? `${text.slice(0, SAMPLE_CHARS)}…` : text;
}

/** The first MESSAGE_HEAD_CHARS characters of a line held in pieces; only that many bytes are decoded. */
function headOf(pieces: Uint8Array[]): string {
  const head: Uint8Array[] = [];
  let size = 0;
  for (const piece of pieces) {
    if (size >= MESSAGE_HEAD_CHARS) break;
    const part = piece.subarray(0, MESSAGE_HEAD_CHARS - size);
    head.push(part);
    size += part.length;
  }
  // A character cut at the byte limit decodes as U+FFFD at the very end: past anything the head is read for.
  return utf8(join(head, size), 0, size);
}

function truncate(text: string): string {
  return text.length > SAMPLE_CHARS ? `${text.slice(0, SAMPLE_CHARS)}…` : text;
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

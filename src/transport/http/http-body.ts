/**
 * Reading response bodies under the rules the HTTP transports share: a size cap for whole
 * bodies, SSE fed to a decoder chunk by chunk as text (no web-stream pipeline), and bodies nobody
 * wants released at once so the socket goes back to the pool. Every body is the one kind every
 * engine yields (`http-engine.ts`), its {@link LiteBody} of `Uint8Array` chunks, decoded here with
 * `TextDecoder` (runtime-neutral).
 */
import { SizeLimitError } from '../../protocol/errors.js';
import type { LiteBody } from './lite-body.js';
import type { SseDecoder } from './sse-decoder.js';

/** A response body as these readers take it: the {@link LiteBody} of an exchange. */
export type Body = LiteBody;

/** Decodes whole bodies (no state between calls: one shared instance). */
const utf8 = new TextDecoder();

/**
 * Reads a whole body as UTF-8 text. Rejects with a {@link SizeLimitError} (`limit: maxBytes`)
 * naming the size limit as soon as the body passes `maxBytes`, then destroys the stream; rejects
 * with the stream's error otherwise.
 */
export function readText(body: Body, maxBytes: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let settled = false;
    body.on('data', (chunk: Uint8Array) => {
      if (settled) return;
      size += chunk.length;
      if (size > maxBytes) {
        // Settle first: destroying fails the exchange synchronously, and that generic error
        // ("destroyed", "aborted") must not win over the size limit (it reads as a broken
        // stream, which the client re-sends).
        settled = true;
        reject(
          new SizeLimitError(`response body exceeds ${maxBytes} bytes, the size limit (maxMessageBytes)`, {
            limit: maxBytes,
          }),
        );
        body.destroy();
        return;
      }
      chunks.push(chunk);
    });
    body.once('end', () => {
      if (settled) return;
      settled = true;
      resolve(chunks.length === 0 ? '' : utf8.decode(chunks.length === 1 ? chunks[0]! : concat(chunks, size)));
    });
    body.once('error', (error: unknown) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
  });
}

/** How long a server may take to end a stream after the response it was waiting for. */
const DRAIN_GRACE_MS = 2_000;

/**
 * Feeds an SSE body to `decoder` until the stream ends (`'ended'`), `stop()` says the wanted
 * message arrived (`'stopped'`, resolved at once), or the stream fails (`'broken'`, with the
 * error). Never rejects. After a stop the rest of the body is drained, not destroyed, so the
 * keep-alive socket goes back to the pool (destroying it would cost a new connection per
 * request); a server that does not end the stream within a grace period gets it destroyed.
 * With `drain: false` a stop destroys the body at once (streams nobody waits on any more).
 */
export function pumpSse(
  body: Body,
  decoder: SseDecoder,
  stopped: () => boolean,
  drain = true,
): Promise<{ end: 'ended' | 'stopped' | 'broken'; error?: unknown }> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (end: 'ended' | 'stopped' | 'broken', error?: unknown): void => {
      if (done) return;
      done = true;
      decoder.end();
      body.removeListener('data', onData);
      resolve(error === undefined ? { end } : { end, error });
    };
    // UTF-8 sequences split across chunks are joined (see Utf8Chunks).
    const text = new Utf8Chunks();
    const onData = (chunk: Uint8Array): void => {
      decoder.push(text.write(chunk));
      if (stopped()) {
        finish('stopped');
        if (!drain) {
          body.destroy();
          return;
        }
        // Usually the end arrives in the same read as the response: arm the grace timer only
        // when the stream is still open after this turn (a timer per request costs real CPU).
        let closed = false;
        let grace: ReturnType<typeof setTimeout> | undefined;
        body.once('close', () => {
          closed = true;
          if (grace) clearTimeout(grace);
        });
        body.on('error', () => {});
        body.resume();
        queueMicrotask(() => {
          if (closed) return;
          grace = setTimeout(() => body.destroy(), DRAIN_GRACE_MS);
          // Node's timers can stop keeping the process alive; a browser's are numbers.
          (grace as { unref?: () => void }).unref?.();
        });
      }
    };
    body.on('data', onData);
    body.once('end', () => finish('ended'));
    body.once('error', (error: unknown) => finish('broken', error));
    // Built only when it applies: an Error (and its stack) per normal close is measurable.
    body.once('close', () => {
      if (!done) finish('broken', new Error('stream closed before it ended'));
    });
  });
}

/** Releases a body nobody reads (errors ignored: the exchange is over either way). */
export function discard(body: Body): void {
  body.on('error', () => {});
  body.resume();
}

/** The first value of a header that an engine may give as a string or a list. */
export function headerOf(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(headers: Record<string, string | string[] | undefined>): string {
  return (headerOf(headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The chunks of a body as one array of `size` bytes. */
function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.length;
  }
  return whole;
}

/**
 * Decodes a byte stream chunk by chunk, holding back a UTF-8 sequence cut at a chunk's end until
 * the next chunk completes it. Each chunk is one non-streaming `TextDecoder.decode` of its
 * complete part: on Node 20 `decode(chunk, { stream: true })` takes about five times as long for
 * a 64 KiB chunk (measured: ~50 µs against ~10 µs, as fast as Buffer's `toString`). A byte order
 * mark is kept as text (the SSE decoder drops the leading one itself).
 */
export class Utf8Chunks {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private carry: Uint8Array | undefined;

  write(chunk: Uint8Array): string {
    let bytes = chunk;
    if (this.carry) {
      bytes = concat([this.carry, chunk], this.carry.length + chunk.length);
      this.carry = undefined;
    }
    const end = completeEnd(bytes);
    if (end < bytes.length) {
      this.carry = bytes.slice(end);
      bytes = bytes.subarray(0, end);
    }
    return bytes.length === 0 ? '' : this.decoder.decode(bytes);
  }
}

/** Where the last complete UTF-8 sequence of `bytes` ends: before a lead byte whose sequence is cut, else the end. */
function completeEnd(bytes: Uint8Array): number {
  const length = bytes.length;
  for (let at = length - 1; at >= 0 && at >= length - 3; at--) {
    const byte = bytes[at]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const size = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return at + size > length ? at : length;
  }
  return length;
}

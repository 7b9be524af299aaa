/**
 * Reading response bodies under the rules the HTTP transports share: a size cap for whole
 * bodies, SSE fed to a decoder chunk by chunk as text (no web-stream pipeline), and bodies nobody
 * wants released at once so the socket goes back to the pool. Every body is the one kind
 * `exchange()` (dispatch.ts) yields, its {@link LiteBody}.
 */
import { StringDecoder } from 'node:string_decoder';
import { SizeLimitError } from '../../protocol/errors.js';
import type { LiteBody } from './dispatch.js';
import type { SseDecoder } from './sse-decoder.js';

/** A response body as these readers take it: the {@link LiteBody} of an `exchange()`. */
export type Body = LiteBody;

/**
 * Reads a whole body as UTF-8 text. Rejects with a {@link SizeLimitError} (`limit: maxBytes`)
 * naming the size limit as soon as the body passes `maxBytes`, then destroys the stream; rejects
 * with the stream's error otherwise.
 */
export function readText(body: Body, maxBytes: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    body.on('data', (chunk: Buffer) => {
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
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
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
    // undici's body ignores setEncoding; a StringDecoder joins UTF-8 sequences split across chunks.
    const text = new StringDecoder('utf8');
    const onData = (chunk: Buffer): void => {
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
          grace.unref();
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

/** The first value of a header that undici may give as a string or a list. */
export function headerOf(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(headers: Record<string, string | string[] | undefined>): string {
  return (headerOf(headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

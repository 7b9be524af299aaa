/**
 * The NDJSON framer's work is linear in its input: a 10 MiB message arriving in 64 KiB chunks is
 * scanned for newlines once per byte, copied once and decoded once — never re-scanned or
 * re-joined per chunk. Measured by counting the bytes each primitive touches (the search, the
 * join, the UTF-8 decode), not by timing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { encodeMessage, NdjsonDecoder } from '../src/transport/ndjson-framer.js';

const MESSAGE_CHARS = 10 * 1024 * 1024;
const CHUNK = 64 * 1024;

interface Work {
  /** Bytes the newline search looked at, over all calls. */
  scanned: number;
  searches: number;
  /** Bytes copied to join pieces. */
  copied: number;
  joins: number;
  /** Bytes decoded from UTF-8. */
  decoded: number;
}

const restores: Array<() => void> = [];
afterEach(() => {
  for (const restore of restores.splice(0)) restore();
});

/** Replaces `owner[key]` with `wrapper(original)` until the test ends. */
function wrap<T extends object, K extends keyof T>(owner: T, key: K, wrapper: (original: T[K]) => T[K]): void {
  const original = owner[key];
  Object.defineProperty(owner, key, { value: wrapper(original), configurable: true, writable: true });
  restores.push(() => Object.defineProperty(owner, key, { value: original, configurable: true, writable: true }));
}

function scanCounter(work: Work) {
  return (original: (this: Uint8Array, value: number, from?: number) => number) =>
    function (this: Uint8Array, value: number, from = 0): number {
      const found = original.call(this, value, from);
      work.searches++;
      work.scanned += (found === -1 ? this.length : found + 1) - from;
      return found;
    };
}

function decodeOne(chunks: Uint8Array[]) {
  const values: unknown[] = [];
  const decoder = new NdjsonDecoder({ message: (v) => values.push(v), diagnostic: (d) => values.push(d) });
  for (const chunk of chunks) decoder.push(chunk);
  return values;
}

function chunked(bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK) chunks.push(bytes.subarray(at, at + CHUNK));
  return chunks;
}

const line = encodeMessage({ jsonrpc: '2.0', id: 1, result: { data: 'y'.repeat(MESSAGE_CHARS) } });

/**
 * The work of framing one message of `bytes` (newline last) fed as `chunks`: each byte scanned
 * once, one search per chunk plus one that finds nothing after the newline, one join, and every
 * byte but the newline copied and decoded once.
 */
function eachByteOnce(bytes: Uint8Array, chunks: readonly unknown[]): Work {
  return {
    scanned: bytes.length,
    searches: chunks.length + 1,
    joins: 1,
    copied: bytes.length - 1,
    decoded: bytes.length - 1,
  };
}

describe('NDJSON framing does linear work', () => {
  it('touches each byte of a 10 MiB message in 64 KiB Buffer chunks once per primitive', () => {
    const bytes = Buffer.from(line);
    const chunks = chunked(bytes);
    const work: Work = { scanned: 0, searches: 0, copied: 0, joins: 0, decoded: 0 };
    wrap(Buffer.prototype, 'indexOf', scanCounter(work) as never);
    wrap(Buffer, 'concat', (original) => (list: readonly Uint8Array[], total?: number) => {
      work.joins++;
      work.copied += total ?? list.reduce((n, b) => n + b.length, 0);
      return original(list, total);
    });
    wrap(
      Buffer.prototype,
      'toString',
      (original) =>
        function (this: Buffer, encoding?: BufferEncoding, start = 0, end = this.length) {
          work.decoded += end - start;
          return original.call(this, encoding, start, end);
        } as never,
    );

    const values = decodeOne(chunks);
    const seen = { ...work };

    expect(chunks.length).toBe(161);
    // One search per chunk, plus one that finds nothing after the final newline.
    expect(seen).toEqual(eachByteOnce(bytes, chunks));
    expect(values).toHaveLength(1);
    expect((values[0] as { result: { data: string } }).result.data.length).toBe(MESSAGE_CHARS);
  });

  it('touches each byte of a 10 MiB message in 64 KiB plain Uint8Array chunks once per primitive', () => {
    const bytes = new TextEncoder().encode(line);
    const chunks = chunked(bytes);
    const work: Work = { scanned: 0, searches: 0, copied: 0, joins: 0, decoded: 0 };
    const typedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype) as Uint8Array;
    wrap(typedArrayPrototype, 'indexOf', scanCounter(work) as never);
    wrap(
      typedArrayPrototype,
      'set',
      (original) =>
        function (this: Uint8Array, source: ArrayLike<number>, offset?: number) {
          work.copied += source.length;
          return original.call(this, source, offset);
        },
    );
    wrap(
      TextDecoder.prototype,
      'decode',
      (original) =>
        function (this: unknown, input?: Uint8Array, options?: { stream?: boolean }) {
          work.joins++;
          work.decoded += input?.length ?? 0;
          return original.call(this, input, options);
        },
    );
    // Plain Uint8Arrays take the portable path (TypedArray#indexOf, TextDecoder) even under Node.
    const values = decodeOne(chunks);
    const seen = { ...work };

    // `joins` counts decode calls here: the pieces are copied into one array and decoded once.
    expect(seen).toEqual(eachByteOnce(bytes, chunks));
    expect(values).toHaveLength(1);
  });

  it('holds no more than the cap while skipping an oversized 10 MiB line, and scans each byte once', () => {
    const bytes = Buffer.from(`${line}{"after":true}\n`);
    const work: Work = { scanned: 0, searches: 0, copied: 0, joins: 0, decoded: 0 };
    wrap(Buffer.prototype, 'indexOf', scanCounter(work) as never);
    const values: unknown[] = [];
    const kinds: string[] = [];
    const decoder = new NdjsonDecoder(
      { message: (v) => values.push(v), diagnostic: (d) => kinds.push(d.kind) },
      { maxMessageBytes: 1024 * 1024 },
    );
    let most = 0;
    for (const chunk of chunked(bytes)) {
      decoder.push(chunk);
      most = Math.max(most, decoder.buffered);
    }
    const scanned = work.scanned;
    expect(most).toBeLessThanOrEqual(1024 * 1024);
    expect(scanned).toBe(bytes.length);
    expect(kinds).toEqual(['oversize']);
    expect(values).toEqual([{ after: true }]);
  });
});

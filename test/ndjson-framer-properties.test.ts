/**
 * The NDJSON framer, property-based: any JSON values, serialised and cut into any chunks, decode
 * to the same values; junk lines between them are reported one by one and the rest survive.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TransportDiagnostic } from '../src/protocol/transport.js';
import { encodeMessage, NdjsonDecoder } from '../src/transport/ndjson-framer.js';

function decodeAll(chunks: Uint8Array[]): { values: unknown[]; diagnostics: TransportDiagnostic[] } {
  const values: unknown[] = [];
  const diagnostics: TransportDiagnostic[] = [];
  const decoder = new NdjsonDecoder({ message: (v) => values.push(v), diagnostic: (d) => diagnostics.push(d) });
  for (const chunk of chunks) decoder.push(chunk);
  decoder.end();
  return { values, diagnostics };
}

/** Cuts `bytes` into chunks whose sizes cycle through `sizes`. */
function cut(bytes: Uint8Array, sizes: number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

/** What a value is after a JSON round trip (-0 becomes 0, and so on). */
const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const chunkSizes = fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 30 });
/** A line that is neither blank nor JSON, and has no newline. */
const junkLine = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 30 })
  .filter((s) => !/[\r\n]/.test(s) && s.trim().length > 0 && !isJson(s));
const asBytes = fc.constantFrom(
  (text: string): Uint8Array => Buffer.from(text, 'utf8'),
  (text: string): Uint8Array => new TextEncoder().encode(text),
);

describe('NDJSON framing, property-based', () => {
  it('decodes any sequence of JSON values, cut into any chunks, to the same values', () => {
    fc.assert(
      fc.property(
        fc.array(jsonValue, { maxLength: 20 }),
        chunkSizes,
        fc.boolean(),
        asBytes,
        (values, sizes, crlf, toBytes) => {
          const text = values.map((v) => (crlf ? `${JSON.stringify(v)}\r\n` : encodeMessage(v))).join('');
          const { values: decoded, diagnostics } = decodeAll(cut(toBytes(text), sizes));
          expect(decoded).toEqual(values.map(roundTrip));
          expect(diagnostics).toEqual([]);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('reports each interleaved junk line and keeps every real message, in order', () => {
    const item = fc.oneof(
      jsonValue.map((v) => ({ v })),
      junkLine.map((j) => ({ j })),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 20 }), chunkSizes, asBytes, (items, sizes, toBytes) => {
        const text = items.map((i) => ('j' in i ? `${i.j}\n` : encodeMessage(i.v))).join('');
        const { values, diagnostics } = decodeAll(cut(toBytes(text), sizes));
        expect(values).toEqual(items.flatMap((i) => ('v' in i ? [roundTrip(i.v)] : [])));
        expect(diagnostics.map((d) => [d.kind, d.sample])).toEqual(
          items.flatMap((i) => ('j' in i ? [['invalid-json', i.j.length > 200 ? `${i.j.slice(0, 200)}…` : i.j]] : [])),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('skips every line over the cap and only those, however it is chunked', () => {
    const max = 40;
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 60 }), { maxLength: 15 }), chunkSizes, (strings, sizes) => {
        const lines = strings.map((s) => JSON.stringify(s));
        const { values, diagnostics } = decodeAllWithCap(
          cut(Buffer.from(lines.map((l) => `${l}\n`).join('')), sizes),
          max,
        );
        const fits = (l: string) => Buffer.byteLength(l) <= max;
        expect(values).toEqual(lines.filter(fits).map((l) => JSON.parse(l)));
        expect(diagnostics.map((d) => d.message)).toEqual(
          lines
            .filter((l) => !fits(l))
            .map((l) => `skipped a ${Buffer.byteLength(l)}-byte message: larger than the ${max}-byte limit`),
        );
      }),
      { numRuns: 300 },
    );
  });
});

function decodeAllWithCap(chunks: Uint8Array[], maxMessageBytes: number) {
  const values: unknown[] = [];
  const diagnostics: TransportDiagnostic[] = [];
  const decoder = new NdjsonDecoder(
    { message: (v) => values.push(v), diagnostic: (d) => diagnostics.push(d) },
    { maxMessageBytes },
  );
  for (const chunk of chunks) decoder.push(chunk);
  decoder.end();
  return { values, diagnostics };
}

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

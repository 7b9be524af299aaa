/**
 * SSE bodies are decoded chunk by chunk (`Utf8Chunks` in http-body.ts, runtime-neutral): a UTF-8
 * sequence of any length cut at any byte by a chunk boundary comes out whole, a byte order mark
 * stays text, and invalid bytes become U+FFFD as `TextDecoder` makes them.
 */
import { describe, expect, it } from 'vitest';
import { Utf8Chunks } from '../src/transport/http/http-body.js';

const TEXT = 'data: {"t":"é€𝄞ü✓ — 日本語 🙂"}\n\n\uFEFFx';
const BYTES = new TextEncoder().encode(TEXT);

function decodeIn(chunks: Uint8Array[]): string {
  const decoder = new Utf8Chunks();
  return chunks.map((chunk) => decoder.write(chunk)).join('');
}

describe('decoding UTF-8 chunk by chunk', () => {
  it('gives the text back whole wherever one boundary falls', () => {
    for (let cut = 0; cut <= BYTES.length; cut++) {
      expect(decodeIn([BYTES.subarray(0, cut), BYTES.subarray(cut)])).toBe(TEXT);
    }
  });

  it('gives the text back whole when every byte is a chunk of its own', () => {
    expect(decodeIn(Array.from(BYTES, (byte) => Uint8Array.of(byte)))).toBe(TEXT);
  });

  it('turns invalid bytes into U+FFFD, as TextDecoder does', () => {
    const bad = Uint8Array.of(0x61, 0xff, 0x62, 0x80, 0x63);
    expect(decodeIn([bad.subarray(0, 2), bad.subarray(2)])).toBe(new TextDecoder().decode(bad));
  });
});

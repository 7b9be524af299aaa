import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { encodeMessage, NdjsonDecoder } from '../src/transport/ndjson-framer.js';
import type { TransportDiagnostic } from '../src/protocol/transport.js';

function collect(maxMessageBytes?: number) {
  const values: unknown[] = [];
  const diagnostics: TransportDiagnostic[] = [];
  const decoder = new NdjsonDecoder({ message: (v) => values.push(v), diagnostic: (d) => diagnostics.push(d) }, maxMessageBytes ? { maxMessageBytes } : {});
  return { decoder, values, diagnostics };
}

function feed(chunks: Array<string | Uint8Array>, maxMessageBytes?: number) {
  const c = collect(maxMessageBytes);
  for (const chunk of chunks) c.decoder.push(chunk);
  c.decoder.end();
  return c;
}

describe('NDJSON framing, table-driven', () => {
  const cases: Array<{ name: string; chunks: string[]; values: unknown[]; kinds?: string[] }> = [
    { name: 'one message per LF line', chunks: ['{"a":1}\n{"b":2}\n'], values: [{ a: 1 }, { b: 2 }] },
    { name: 'CRLF line ends', chunks: ['{"a":1}\r\n{"b":2}\r\n'], values: [{ a: 1 }, { b: 2 }] },
    { name: 'a line split across chunks', chunks: ['{"a"', ':1', '}\n'], values: [{ a: 1 }] },
    { name: 'CR and LF in different chunks', chunks: ['{"a":1}\r', '\n'], values: [{ a: 1 }] },
    { name: 'blank and whitespace-only lines ignored', chunks: ['\n  \n\r\n{"a":1}\n\n'], values: [{ a: 1 }] },
    { name: 'a final line without a newline', chunks: ['{"a":1}\n{"b":2}'], values: [{ a: 1 }, { b: 2 }] },
    { name: 'a batch array passes through as one value', chunks: ['[{"a":1},{"b":2}]\n'], values: [[{ a: 1 }, { b: 2 }]] },
    { name: 'junk lines reported and skipped', chunks: ['hello world\n{"a":1}\n{"broken": \n{"b":2}\n'], values: [{ a: 1 }, { b: 2 }], kinds: ['invalid-json', 'invalid-json'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { values, diagnostics } = feed(c.chunks);
      expect(values).toEqual(c.values);
      expect(diagnostics.map((d) => d.kind)).toEqual(c.kinds ?? []);
    });
  }

  it('reports a junk line with a truncated sample', () => {
    const { diagnostics } = feed([`${'z'.repeat(1000)}\n`]);
    expect(diagnostics[0]!.sample!.length).toBeLessThanOrEqual(201);
    expect(diagnostics[0]!.message).toContain('not JSON');
  });

  it('reassembles 2-, 3- and 4-byte UTF-8 characters split at every byte', () => {
    const text = 'é€😀';
    const bytes = new TextEncoder().encode(encodeMessage({ t: text }));
    for (let cut = 1; cut < bytes.length; cut++) {
      for (let cut2 = cut; cut2 < bytes.length; cut2++) {
        const { values } = feed([bytes.subarray(0, cut) as unknown as string, bytes.subarray(cut, cut2) as unknown as string, bytes.subarray(cut2) as unknown as string]);
        expect(values).toEqual([{ t: text }]);
      }
    }
  });

  it('skips an oversized line without buffering it and recovers at the next newline', () => {
    const big = `{"pad":"${'x'.repeat(5000)}"}`;
    const c = collect(1024);
    c.decoder.push('{"a":1}\n');
    for (let i = 0; i < big.length; i += 100) {
      c.decoder.push(big.slice(i, i + 100));
      expect(c.decoder.buffered).toBeLessThanOrEqual(1024);
    }
    c.decoder.push('\n{"b":2}\n');
    expect(c.values).toEqual([{ a: 1 }, { b: 2 }]);
    expect(c.diagnostics.map((d) => d.kind)).toEqual(['oversize']);
    expect(c.diagnostics[0]!.message).toMatch(/5\d{3}-byte message: larger than the 1024-byte limit/);
  });

  it('skips an oversized line that arrives whole in one chunk', () => {
    const { values, diagnostics } = feed([`{"pad":"${'x'.repeat(2000)}"}\n{"b":2}\n`], 1024);
    expect(values).toEqual([{ b: 2 }]);
    expect(diagnostics.map((d) => d.kind)).toEqual(['oversize']);
  });

  it('decodes a 10 MiB message fed in 64 KiB chunks, holding each byte once', () => {
    const message = { data: 'y'.repeat(10 * 1024 * 1024) };
    const bytes = Buffer.from(encodeMessage(message));
    const c = collect();
    const concat = vi.spyOn(Buffer, 'concat');
    try {
      for (let i = 0; i < bytes.length; i += 64 * 1024) c.decoder.push(bytes.subarray(i, i + 64 * 1024));
      // 161 chunks, one join: pieces are kept as views and copied once, when the newline arrives.
      expect(concat).toHaveBeenCalledTimes(1);
    } finally {
      concat.mockRestore();
    }
    expect(c.values).toHaveLength(1);
    expect((c.values[0] as { data: string }).data.length).toBe(10 * 1024 * 1024);
  });
});

describe('NDJSON framing, property-based', () => {
  const json = fc.jsonValue({ maxDepth: 3 }).filter((v) => v !== null || true);

  it('decodes any sequence of JSON values cut into any chunks to the same values', () => {
    fc.assert(
      fc.property(fc.array(json, { maxLength: 20 }), fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 30 }), (values, cuts) => {
        const bytes = Buffer.from(values.map((v) => encodeMessage(v)).join(''));
        const chunks: Buffer[] = [];
        let at = 0;
        for (let i = 0; at < bytes.length; i++) {
          const size = cuts[i % cuts.length]!;
          chunks.push(bytes.subarray(at, at + size));
          at += size;
        }
        const c = collect();
        for (const chunk of chunks) c.decoder.push(chunk);
        c.decoder.end();
        expect(c.values).toEqual(JSON.parse(JSON.stringify(values)));
        expect(c.diagnostics).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('reports interleaved junk lines and keeps every real message', () => {
    const junk = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !s.includes('\n') && s.trim().length > 0 && !isJson(s));
    fc.assert(
      fc.property(fc.array(fc.oneof(json.map((v) => ({ v })), junk.map((j) => ({ j }))), { maxLength: 20 }), (items) => {
        const text = items.map((i) => ('j' in i ? `${i.j}\n` : encodeMessage(i.v))).join('');
        const { values, diagnostics } = feed([text]);
        const expected = items.filter((i) => 'v' in i).map((i) => JSON.parse(JSON.stringify((i as { v: unknown }).v)));
        expect(values).toEqual(expected);
        expect(diagnostics).toHaveLength(items.filter((i) => 'j' in i).length);
      }),
      { numRuns: 200 },
    );
  });
});

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/**
 * The NDJSON framer, table-driven: line ends, chunk boundaries anywhere (also inside a UTF-8
 * character), blank and junk lines, the size cap and recovery after it. Each case runs twice:
 * with Node Buffers (what a stream yields) and with plain Uint8Arrays (the portable path).
 */
import { describe, expect, it } from 'vitest';
import type { TransportDiagnostic } from '../src/protocol/transport.js';
import { DEFAULT_MAX_MESSAGE_BYTES, encodeMessage, NdjsonDecoder } from '../src/transport/ndjson-framer.js';

type Chunk = string | Uint8Array;

function collect(maxMessageBytes?: number) {
  const values: unknown[] = [];
  const diagnostics: TransportDiagnostic[] = [];
  const decoder = new NdjsonDecoder(
    { message: (v) => values.push(v), diagnostic: (d) => diagnostics.push(d) },
    maxMessageBytes === undefined ? {} : { maxMessageBytes },
  );
  return { decoder, values, diagnostics };
}

function feed(chunks: Chunk[], maxMessageBytes?: number) {
  const c = collect(maxMessageBytes);
  for (const chunk of chunks) c.decoder.push(chunk);
  c.decoder.end();
  return c;
}

const BYTE_KINDS = {
  Buffer: (text: string): Uint8Array => Buffer.from(text, 'utf8'),
  Uint8Array: (text: string): Uint8Array => new TextEncoder().encode(text),
};

describe.each(Object.entries(BYTE_KINDS))('NDJSON framing of %s chunks', (_kind, bytes) => {
  const cases: Array<{ name: string; chunks: string[]; values: unknown[]; kinds?: string[]; max?: number }> = [
    { name: 'one message per LF line', chunks: ['{"a":1}\n{"b":2}\n'], values: [{ a: 1 }, { b: 2 }] },
    { name: 'CRLF line ends', chunks: ['{"a":1}\r\n{"b":2}\r\n'], values: [{ a: 1 }, { b: 2 }] },
    { name: 'LF and CRLF mixed', chunks: ['{"a":1}\r\n{"b":2}\n{"c":3}\r\n'], values: [{ a: 1 }, { b: 2 }, { c: 3 }] },
    { name: 'a line split across chunks', chunks: ['{"a"', ':1', '}\n'], values: [{ a: 1 }] },
    { name: 'a line split into one-byte chunks', chunks: [...'{"a":[1,2]}\n'], values: [{ a: [1, 2] }] },
    { name: 'CR and LF in different chunks', chunks: ['{"a":1}\r', '\n'], values: [{ a: 1 }] },
    {
      name: 'a chunk that is only a newline',
      chunks: ['{"a":1}', '\n', '{"b":2}', '\n'],
      values: [{ a: 1 }, { b: 2 }],
    },
    { name: 'blank and whitespace-only lines ignored', chunks: ['\n  \n\r\n\t\n{"a":1}\n\n'], values: [{ a: 1 }] },
    { name: 'a final line without a newline', chunks: ['{"a":1}\n{"b":2}'], values: [{ a: 1 }, { b: 2 }] },
    {
      name: 'a final line without a newline, over chunks',
      chunks: ['{"a":1}\n{"b"', ':2}'],
      values: [{ a: 1 }, { b: 2 }],
    },
    { name: 'a final blank line without a newline', chunks: ['{"a":1}\n  '], values: [{ a: 1 }] },
    {
      name: 'a batch array passes through as one value',
      chunks: ['[{"a":1},{"b":2}]\n'],
      values: [[{ a: 1 }, { b: 2 }]],
    },
    { name: 'scalars pass through as values', chunks: ['1\n"s"\nnull\ntrue\n'], values: [1, 's', null, true] },
    { name: 'leading and trailing whitespace around JSON', chunks: ['  {"a":1}  \n'], values: [{ a: 1 }] },
    {
      name: 'junk lines reported and skipped',
      chunks: ['hello world\n{"a":1}\n{"broken": \n{"b":2}\n'],
      values: [{ a: 1 }, { b: 2 }],
      kinds: ['invalid-json', 'invalid-json'],
    },
    {
      name: 'a junk final line without a newline',
      chunks: ['{"a":1}\nnope'],
      values: [{ a: 1 }],
      kinds: ['invalid-json'],
    },
    {
      name: 'two values on one line are junk',
      chunks: ['{"a":1}{"b":2}\n{"c":3}\n'],
      values: [{ c: 3 }],
      kinds: ['invalid-json'],
    },
    { name: 'a line exactly at the cap is accepted', chunks: ['{"a":"xxxx"}\n'], values: [{ a: 'xxxx' }], max: 12 },
    {
      name: 'a line one byte over the cap is skipped',
      chunks: ['{"a":"xxxxx"}\n{"b":1}\n'],
      values: [{ b: 1 }],
      kinds: ['oversize'],
      max: 12,
    },
    {
      name: 'the cap counts bytes, not characters',
      chunks: ['{"a":"éé"}\n{"b":1}\n'],
      values: [{ b: 1 }],
      kinds: ['oversize'],
      max: 11,
    },
    {
      name: 'an oversize final line without a newline',
      chunks: ['{"b":1}\n', '{"a":"xxxxxxxx', 'xxxxxxxxxxxxxx'],
      values: [{ b: 1 }],
      kinds: ['oversize'],
      max: 12,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { values, diagnostics } = feed(c.chunks.map(bytes), c.max);
      expect(values).toEqual(c.values);
      expect(diagnostics.map((d) => d.kind)).toEqual(c.kinds ?? []);
    });
  }

  it.each([
    ['2-byte', 'é'],
    ['3-byte', '€'],
    ['4-byte', '😀'],
    ['mixed', 'aé€😀z'],
  ])('reassembles %s UTF-8 characters split at every pair of byte offsets', (_width, text) => {
    const all = bytes(encodeMessage({ t: text }) + encodeMessage({ u: text }));
    for (let cut = 0; cut <= all.length; cut++) {
      for (let cut2 = cut; cut2 <= all.length; cut2++) {
        const { values, diagnostics } = feed([all.subarray(0, cut), all.subarray(cut, cut2), all.subarray(cut2)]);
        expect(values).toEqual([{ t: text }, { u: text }]);
        expect(diagnostics).toEqual([]);
      }
    }
  });

  it('reports a junk line with a short message and a sample cut to 200 characters', () => {
    const { diagnostics } = feed([bytes(`${'z'.repeat(1000)}\r\n`)]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]!.message).toMatch(/^skipped a line that is not JSON \(.{1,120}\)$/);
    expect(diagnostics[0]!.sample).toBe(`${'z'.repeat(200)}…`);
  });

  it('keeps a short junk line whole as the sample, without its CR', () => {
    const { diagnostics } = feed([bytes('Server starting...\r\n')]);
    expect(diagnostics[0]!.sample).toBe('Server starting...');
  });

  it('skips an oversized line arriving in pieces without holding it, and recovers at the next newline', () => {
    const big = `{"pad":"${'x'.repeat(5000)}"}`;
    const c = collect(1024);
    c.decoder.push(bytes('{"a":1}\n'));
    for (let i = 0; i < big.length; i += 100) {
      c.decoder.push(bytes(big.slice(i, i + 100)));
      expect(c.decoder.buffered).toBeLessThanOrEqual(1024);
    }
    expect(c.decoder.buffered).toBe(0);
    c.decoder.push(bytes('\n{"b":2}\n'));
    expect(c.values).toEqual([{ a: 1 }, { b: 2 }]);
    expect(c.diagnostics).toEqual([
      {
        kind: 'oversize',
        message: `skipped a ${big.length}-byte message: larger than the 1024-byte limit`,
        sample: `${big.slice(0, 200)}…`,
        // What was held when it passed the cap: enough for the connection to read an id from.
        head: expect.stringMatching(/^\{"pad":"x{1000,}$/),
        // The limit and the line's size, for the request's SizeLimitError.
        limit: 1024,
        size: big.length,
      },
    ]);
  });

  it('skips an oversized line that arrives whole inside one chunk, between good ones', () => {
    const { values, diagnostics } = feed([bytes(`{"a":1}\n{"pad":"${'x'.repeat(2000)}"}\n{"b":2}\n`)], 1024);
    expect(values).toEqual([{ a: 1 }, { b: 2 }]);
    expect(diagnostics.map((d) => [d.kind, d.message])).toEqual([
      ['oversize', 'skipped a 2010-byte message: larger than the 1024-byte limit'],
    ]);
    expect(diagnostics[0]!.sample!.startsWith('{"pad":"xxx')).toBe(true);
  });

  it('recovers when the newline ending an oversized line starts the next chunk', () => {
    const { values, diagnostics } = feed([bytes('x'.repeat(40)), bytes('x'.repeat(40)), bytes('\n{"b":2}\n')], 50);
    expect(values).toEqual([{ b: 2 }]);
    expect(diagnostics.map((d) => d.message)).toEqual(['skipped a 80-byte message: larger than the 50-byte limit']);
  });

  it('is reusable after end()', () => {
    const c = collect();
    c.decoder.push(bytes('{"a":'));
    c.decoder.end();
    c.decoder.push(bytes('{"b":2}\n'));
    c.decoder.end();
    expect(c.values).toEqual([{ b: 2 }]);
    expect(c.diagnostics.map((d) => d.kind)).toEqual(['invalid-json']);
  });
});

describe('NDJSON framing, other inputs', () => {
  it('accepts string chunks, measuring the cap in UTF-8 bytes', () => {
    const { values, diagnostics } = feed(['{"a":"€"}\n', '{"a":"€€"}\n'], 11);
    expect(values).toEqual([{ a: '€' }]);
    expect(diagnostics.map((d) => d.kind)).toEqual(['oversize']);
  });

  it('defaults the cap to 16 MiB', () => {
    expect(DEFAULT_MAX_MESSAGE_BYTES).toBe(16 * 1024 * 1024);
  });

  it('decodes invalid UTF-8 inside a JSON string as U+FFFD rather than failing the line', () => {
    const { values } = feed([Uint8Array.from([...Buffer.from('{"a":"'), 0xff, ...Buffer.from('"}\n')])]);
    expect(values).toEqual([{ a: '\ufffd' }]);
  });

  it('encodes a message as one line, escaping newlines inside strings', () => {
    const line = encodeMessage({ jsonrpc: '2.0', id: 1, result: { text: 'a\nb\r\nc' } });
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toMatch(/[\r\n]/);
    expect(feed([line]).values).toEqual([{ jsonrpc: '2.0', id: 1, result: { text: 'a\nb\r\nc' } }]);
  });
});

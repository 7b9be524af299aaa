/**
 * The HTTP proxy's one body rewrite, as a pure class: an SSE `endpoint` event's data is replaced,
 * every other byte passes unchanged and in order, wherever the stream is cut into chunks.
 */
import { describe, expect, it } from 'vitest';
import { SseEndpointRewriter } from '../src/inspect/proxy/sse-endpoint-rewriter.js';

const UPSTREAM = 'http://127.0.0.1:1234/messages?sessionId=abc';
const PROXIED = 'http://127.0.0.1:5678/messages?sessionId=abc';
const rewrite = (data: string) => (data === UPSTREAM ? PROXIED : undefined);

const stream = Buffer.concat([
  Buffer.from(': keepalive\n\n'),
  Buffer.from(`event: endpoint\r\ndata: ${UPSTREAM}\r\n\r\n`),
  Buffer.from('id: 7\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"data":"é🌍"}}\n\n'),
  Buffer.from('event: endpoint\rdata:/relative?x=1\r\r'),
  Buffer.from('data: not utf-8 \xff\xfe here\n\n', 'latin1'),
  Buffer.from(`data: ${UPSTREAM}\nevent: endpoint\n\n`),
  Buffer.from('retry: 10\n\n'),
]);
const expected = Buffer.from(
  stream
    .toString('latin1')
    .replace(`data: ${UPSTREAM}\r\n`, `data: ${PROXIED}\r\n`)
    .replace(`data: ${UPSTREAM}\nevent: endpoint`, `data: ${PROXIED}\nevent: endpoint`),
  'latin1',
);

function run(chunks: Buffer[]): Buffer {
  const rewriter = new SseEndpointRewriter(rewrite);
  const out = chunks.map((chunk) => rewriter.push(chunk));
  out.push(rewriter.end());
  return Buffer.concat(out);
}

describe('SseEndpointRewriter', () => {
  it('rewrites only endpoint events, whatever the line ends and field order', () => {
    expect(run([stream]).equals(expected)).toBe(true);
  });

  it('gives the same bytes for every cut of the stream into two and three chunks', () => {
    for (let i = 0; i <= stream.length; i++) {
      expect(run([stream.subarray(0, i), stream.subarray(i)]).equals(expected), `cut at ${i}`).toBe(true);
    }
    for (let i = 0; i <= stream.length; i += 3) {
      for (let j = i; j <= stream.length; j += 5) {
        expect(
          run([stream.subarray(0, i), stream.subarray(i, j), stream.subarray(j)]).equals(expected),
          `cuts at ${i}, ${j}`,
        ).toBe(true);
      }
    }
  });

  it('gives the same bytes fed one byte at a time', () => {
    expect(run([...stream].map((b) => Buffer.from([b]))).equals(expected)).toBe(true);
  });

  it('passes comments at once and an event as soon as its blank line arrives', () => {
    const rewriter = new SseEndpointRewriter(rewrite);
    expect(rewriter.push(Buffer.from(': ping\n')).toString()).toBe(': ping\n');
    expect(rewriter.push(Buffer.from('data: {"a":1}\n')).toString()).toBe('');
    expect(rewriter.push(Buffer.from('\n')).toString()).toBe('data: {"a":1}\n\n');
  });

  it('streams an event that grows past the hold cap instead of holding it', () => {
    const rewriter = new SseEndpointRewriter(rewrite, 100);
    const big = 'x'.repeat(90);
    expect(rewriter.push(Buffer.from(`data: ${big}`)).toString()).toBe('');
    expect(rewriter.push(Buffer.from('abcdefghijkl')).toString()).toBe(`data: ${big}abcdefghijkl`);
    expect(rewriter.push(Buffer.from('mno\n\nevent: endpoint\n')).toString()).toBe('mno\n\n');
    // The next event is held and rewritten again.
    expect(rewriter.push(Buffer.from(`data: ${UPSTREAM}\n\n`)).toString()).toBe(
      `event: endpoint\ndata: ${PROXIED}\n\n`,
    );
  });
});

/**
 * The SSE decoder against the WHATWG event-stream rules the MCP transports rely on, and the
 * property that matters on a network: however a stream is cut into chunks, the events are the same.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseDecoder, type SseEvent } from '../src/transport/http/sse-decoder.js';

function decode(
  chunks: string[],
  maxEventChars?: number,
): { events: SseEvent[]; retries: number[]; ids: string[]; oversize: number } {
  const out = { events: [] as SseEvent[], retries: [] as number[], ids: [] as string[], oversize: 0 };
  const decoder = new SseDecoder(
    {
      event: (e) => out.events.push(e),
      retry: (ms) => out.retries.push(ms),
      id: (id) => out.ids.push(id),
      oversize: () => out.oversize++,
    },
    maxEventChars === undefined ? {} : { maxEventChars },
  );
  for (const chunk of chunks) decoder.push(chunk);
  decoder.end();
  return out;
}

describe('SseDecoder', () => {
  it.each([
    ['LF line ends', 'data: a\n\n', [{ event: 'message', data: 'a', id: undefined }]],
    ['CRLF line ends', 'data: a\r\n\r\n', [{ event: 'message', data: 'a', id: undefined }]],
    ['CR line ends', 'data: a\r\r', [{ event: 'message', data: 'a', id: undefined }]],
    ['no space after the colon', 'data:a\n\n', [{ event: 'message', data: 'a', id: undefined }]],
    ['only one leading space is removed', 'data:  a\n\n', [{ event: 'message', data: ' a', id: undefined }]],
    ['multi-line data joins with LF', 'data: a\ndata: b\n\n', [{ event: 'message', data: 'a\nb', id: undefined }]],
    ['comments (keep-alives) are ignored', ':\n: ping\ndata: x\n\n', [{ event: 'message', data: 'x', id: undefined }]],
    [
      'event type',
      'event: endpoint\ndata: /messages?s=1\n\n',
      [{ event: 'endpoint', data: '/messages?s=1', id: undefined }],
    ],
    [
      'the id persists to later events',
      'id: 7\ndata: a\n\ndata: b\n\n',
      [
        { event: 'message', data: 'a', id: '7' },
        { event: 'message', data: 'b', id: '7' },
      ],
    ],
    ['an id with NUL is ignored', 'id: a\u0000b\ndata: a\n\n', [{ event: 'message', data: 'a', id: undefined }]],
    [
      'unknown fields and a bare field name are ignored',
      'foo: bar\nbaz\ndata: a\n\n',
      [{ event: 'message', data: 'a', id: undefined }],
    ],
    ['a leading BOM is skipped', '\uFEFFdata: a\n\n', [{ event: 'message', data: 'a', id: undefined }]],
    [
      'an event without a blank line at the end is discarded',
      'data: a\n\ndata: half',
      [{ event: 'message', data: 'a', id: undefined }],
    ],
  ])('%s', (_name, stream, expected) => {
    expect(decode([stream]).events).toEqual(expected);
  });

  it('a priming event (id, retry, empty data) dispatches nothing but sets the cursor and the retry', () => {
    const out = decode(['id: event-1\nretry: 500\ndata:\n\n']);
    expect(out.events).toEqual([]);
    expect(out.ids).toEqual(['event-1']);
    expect(out.retries).toEqual([500]);
  });

  it('retry takes digits only', () => {
    expect(decode(['retry: 5x\nretry: -1\nretry: 250\n\n']).retries).toEqual([250]);
  });

  it('a CRLF split across two chunks is one line end', () => {
    expect(decode(['data: a\r', '\n\r', '\n']).events).toEqual([{ event: 'message', data: 'a', id: undefined }]);
  });

  it('drops an event over the cap, reports it, and decodes the next one', () => {
    const big = 'x'.repeat(500);
    const out = decode([`data: ${big}\n\ndata: small\n\n`], 100);
    expect(out.oversize).toBe(1);
    expect(out.events).toEqual([{ event: 'message', data: 'small', id: undefined }]);
  });

  it('drops an over-long line spread over many chunks without holding it, then recovers', () => {
    const chunks = ['data: ', ...Array.from({ length: 50 }, () => 'y'.repeat(40)), '\n\n', 'id: 9\ndata: after\n\n'];
    const out = decode(chunks, 100);
    expect(out.oversize).toBe(1);
    expect(out.events).toEqual([{ event: 'message', data: 'after', id: '9' }]);
  });

  it('starts from a given cursor', () => {
    const events: SseEvent[] = [];
    const decoder = new SseDecoder({ event: (e) => events.push(e) }, { lastEventId: 'g7' });
    decoder.push('data: a\n\n');
    expect(events).toEqual([{ event: 'message', data: 'a', id: 'g7' }]);
  });

  it('decodes the same events however the stream is cut into chunks', () => {
    const text = fc.string({ maxLength: 20 }).map((s) => s.replace(/[\r\n]/g, ''));
    const event = fc.record({
      data: fc.array(text, { minLength: 1, maxLength: 3 }),
      id: fc.option(
        text.filter((s) => !s.includes('\u0000')),
        { nil: undefined },
      ),
      type: fc.option(fc.constantFrom('message', 'endpoint', 'x'), { nil: undefined }),
    });
    const lineEnd = fc.constantFrom('\n', '\r\n', '\r');
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 6 }),
        lineEnd,
        fc.array(fc.nat(), { maxLength: 8 }),
        (events, nl, cuts) => {
          const stream = events
            .map(
              (e) =>
                `${e.id !== undefined ? `id: ${e.id}${nl}` : ''}${e.type !== undefined ? `event: ${e.type}${nl}` : ''}${e.data.map((d) => `data: ${d}${nl}`).join('')}${nl}`,
            )
            .join('');
          const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
          const chunks: string[] = [];
          let at = 0;
          for (const p of points) {
            chunks.push(stream.slice(at, p));
            at = p;
          }
          chunks.push(stream.slice(at));
          expect(decode(chunks).events).toEqual(decode([stream]).events);
        },
      ),
      { numRuns: 300 },
    );
  });
});

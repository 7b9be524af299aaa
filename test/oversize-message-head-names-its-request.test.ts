/**
 * The head of a message too large to read whole: the SSE decoder hands over the first characters
 * of the event it drops, and `peekMessageHead` reads from them, without recursion and within the
 * head, whether the message answered a request and which one.
 */
import { describe, expect, it } from 'vitest';
import { MESSAGE_HEAD_CHARS, peekMessageHead } from '../src/protocol/message-head.js';
import { SseDecoder } from '../src/transport/http/sse-decoder.js';

const PAYLOAD = 'x'.repeat(100);

describe('peekMessageHead', () => {
  it.each([
    ['a result with its id first', `{"jsonrpc":"2.0","id":7,"result":{"text":"${PAYLOAD}`, { kind: 'response', id: 7 }],
    [
      'a string id, spaces around',
      `{ "id" : "req-1" , "jsonrpc":"2.0", "error" : {"message":"${PAYLOAD}`,
      { kind: 'response', id: 'req-1' },
    ],
    [
      'an error tied to no request',
      `{"jsonrpc":"2.0","id":null,"error":{"message":"${PAYLOAD}`,
      { kind: 'response', id: null },
    ],
    ['an id after the payload', `{"jsonrpc":"2.0","result":{"text":"${PAYLOAD}`, { kind: 'response', id: undefined }],
    [
      'an "id" nested in an earlier member is not the id',
      `{"jsonrpc":"2.0","_x":{"id":9,"s":"}\\"{"},"result":{"id":1,"t":"${PAYLOAD}`,
      { kind: 'response', id: undefined },
    ],
    ['an escaped key', `{"\\u0069d":4,"result":"${PAYLOAD}`, { kind: 'response', id: 4 }],
    [
      'a notification',
      `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${PAYLOAD}`,
      { kind: 'peer-message' },
    ],
    [
      'a request of the peer with an id',
      `{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{"x":"${PAYLOAD}`,
      { kind: 'peer-message' },
    ],
    ['params before method', `{"params":{"data":"${PAYLOAD}`, { kind: 'peer-message' }],
    ['a batch', `[{"jsonrpc":"2.0","id":1,"result":{"x":"${PAYLOAD}`, { kind: 'unknown' }],
    ['junk', `not json ${PAYLOAD}`, { kind: 'unknown' }],
    ['a head that ends inside the id', `{"jsonrpc":"2.0","id":12`, { kind: 'unknown' }],
    ['a head that ends inside another member', `{"jsonrpc":"2.0","id":1,"x":"${PAYLOAD}`, { kind: 'unknown' }],
    ['an object that ends undecided', `{"jsonrpc":"2.0","id":1}`, { kind: 'unknown' }],
  ])('%s', (_name, head, expected) => {
    expect(peekMessageHead(head)).toEqual(expected);
  });

  it('a head of nothing but brackets costs one pass and says unknown', () => {
    expect(peekMessageHead(`{"a":${'['.repeat(MESSAGE_HEAD_CHARS)}`)).toEqual({ kind: 'unknown' });
  });
});

describe('the SSE decoder on an event over its cap', () => {
  function dropped(text: string, maxEventChars: number): Array<{ chars: number; head: string }> {
    const seen: Array<{ chars: number; head: string }> = [];
    const decoder = new SseDecoder(
      { event: () => {}, oversize: (chars, head) => seen.push({ chars, head }) },
      { maxEventChars },
    );
    for (let at = 0; at < text.length; at += 7) decoder.push(text.slice(at, at + 7)); // split anywhere
    return seen;
  }

  it('hands over the first data characters of a one-line event cut while it arrives', () => {
    const data = `{"jsonrpc":"2.0","id":3,"result":{"t":"${'y'.repeat(500)}"}}`;
    const [report, ...more] = dropped(`event: message\ndata: ${data}\n\n`, 200);
    expect(more).toEqual([]);
    expect(report!.chars).toBeGreaterThan(200);
    expect(data.startsWith(report!.head)).toBe(true);
    expect(peekMessageHead(report!.head)).toEqual({ kind: 'response', id: 3 });
  });

  it('joins the data lines read before the one that passed the cap, with \\n', () => {
    const [report] = dropped(`data: {"jsonrpc":"2.0",\ndata: "id":"a",\ndata: "result":"${'z'.repeat(300)}"}\n\n`, 100);
    expect(report!.head.startsWith('{"jsonrpc":"2.0",\n"id":"a",\n"result":"zzz')).toBe(true);
    expect(peekMessageHead(report!.head)).toEqual({ kind: 'response', id: 'a' });
  });

  it('keeps at most MESSAGE_HEAD_CHARS of it', () => {
    const [report] = dropped(`data: ${'w'.repeat(3 * MESSAGE_HEAD_CHARS)}\n\n`, MESSAGE_HEAD_CHARS * 2);
    expect(report!.head).toBe('w'.repeat(MESSAGE_HEAD_CHARS));
  });
});

/**
 * The server kit's SSE keep-alive (`SseKeepAlive`): many streams share one timer; a stream
 * written to is not kept alive until it was silent for the interval again; an ended stream gets
 * nothing; `close()` leaves no timer. The timers are vitest's fake ones, so they can be counted
 * and run without waiting.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { SseKeepAlive, type KeptSink } from '../src/transport/http-server/sse-keep-alive.js';

/** A stream's end as the edges write it: what was written, and whether it ended. */
class Stream implements KeptSink {
  done = false;
  readonly chunks: string[] = [];
  write(chunk: string): void {
    this.chunks.push(chunk);
  }
}

beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
afterEach(() => void vi.useRealTimers());

it('keeps many quiet streams alive on one timer, skips one written to and an ended one, and close() stops it', () => {
  const keepAlive = new SseKeepAlive(100);
  expect(vi.getTimerCount()).toBe(0);
  const [quiet, busy, ended] = [new Stream(), new Stream(), new Stream()];
  const beats = [quiet, busy, ended].map((stream) => keepAlive.watch(stream)!);
  expect(vi.getTimerCount()).toBe(1);
  ended.done = true;
  beats[2]!.ended();
  vi.advanceTimersByTime(60);
  busy.write('event: message\ndata: {}\n\n');
  beats[1]!.wrote();
  vi.advanceTimersByTime(60);
  expect(quiet.chunks).toEqual([': \n\n']);
  expect(busy.chunks).toEqual(['event: message\ndata: {}\n\n']);
  vi.advanceTimersByTime(100);
  expect(quiet.chunks).toEqual([': \n\n', ': \n\n']);
  expect(busy.chunks.at(-1)).toBe(': \n\n');
  expect(ended.chunks).toEqual([]);
  expect(vi.getTimerCount()).toBe(1);

  keepAlive.close();
  expect(vi.getTimerCount()).toBe(0);
  expect(keepAlive.watch(new Stream())).toBeUndefined();
  vi.advanceTimersByTime(1_000);
  expect(quiet.chunks).toHaveLength(2);
});

import { describe, expect, it } from 'vitest';
import { AbortFanout } from '../src/transport/http/abort-fanout.js';

describe('AbortFanout: many short-lived followers of one long-lived signal', () => {
  it('runs every follower present at the abort once, skips the ones that left, and keeps none', () => {
    const life = new AbortController();
    const fanout = new AbortFanout(life.signal);
    const seen: string[] = [];
    const a = fanout.follow(() => seen.push('a'));
    const b = fanout.follow(() => seen.push('b'));
    fanout.follow(() => {
      throw new Error('a follower bug');
    });
    fanout.follow(() => seen.push('d'));
    fanout.unfollow(b);
    fanout.unfollow(b); // twice is harmless
    expect(fanout.size).toBe(3);
    life.abort(new Error('closed'));
    expect(seen).toEqual(['a', 'd']);
    expect(fanout.size).toBe(0);
    expect(fanout.aborted).toBe(true);
    expect((fanout.reason as Error).message).toBe('closed');
    fanout.unfollow(a); // after the abort: harmless
  });

  it('reuses freed slots, so the table stays as large as the most followers at once', () => {
    const fanout = new AbortFanout(new AbortController().signal);
    for (let round = 0; round < 1000; round++) {
      const slots = [fanout.follow(() => {}), fanout.follow(() => {})];
      for (const slot of slots) fanout.unfollow(slot);
    }
    expect(fanout.size).toBe(0);
    expect(new Set([fanout.follow(() => {}), fanout.follow(() => {})])).toEqual(new Set([0, 1]));
  });

  it('refuses a follower once the signal has aborted (the caller checks `aborted` first)', () => {
    const life = new AbortController();
    life.abort();
    const fanout = new AbortFanout(life.signal);
    let called = false;
    expect(fanout.follow(() => (called = true))).toBe(-1);
    expect(called).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { SendSignal, toAbortSignal } from '../src/protocol/send-signal.js';

describe('SendSignal: the per-request signal a connection gives a transport', () => {
  it('runs each abort listener once, in order, and reports the reason', () => {
    const signal = new SendSignal();
    const seen: string[] = [];
    signal.addEventListener('abort', () => seen.push('a'));
    signal.addEventListener('abort', () => seen.push('b'));
    expect(signal.aborted).toBe(false);
    const reason = new Error('timed out');
    signal.abort(reason);
    signal.abort(new Error('again'));
    expect(seen).toEqual(['a', 'b']);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
  });

  it('never calls a removed listener, nor one added after the abort (like an AbortSignal)', () => {
    const signal = new SendSignal();
    const seen: string[] = [];
    const removed = () => seen.push('removed');
    signal.addEventListener('abort', removed);
    signal.removeEventListener('abort', removed);
    signal.abort('x');
    signal.addEventListener('abort', () => seen.push('late'));
    expect(seen).toEqual([]);
  });

  it('keeps running listeners after one throws', () => {
    const signal = new SendSignal();
    const seen: string[] = [];
    signal.addEventListener('abort', () => {
      throw new Error('listener bug');
    });
    signal.addEventListener('abort', () => seen.push('second'));
    signal.abort('x');
    expect(seen).toEqual(['second']);
  });

  it('gives a real AbortSignal that aborts with it, whether asked before or after the abort', () => {
    const before = new SendSignal();
    const early = before.asAbortSignal();
    expect(early).toBeInstanceOf(AbortSignal);
    expect(before.asAbortSignal()).toBe(early);
    expect(early.aborted).toBe(false);
    before.abort('gone');
    expect(early.aborted).toBe(true);
    expect(early.reason).toBe('gone');

    const after = new SendSignal();
    after.abort('already');
    expect(after.asAbortSignal().aborted).toBe(true);
    expect(after.asAbortSignal().reason).toBe('already');
  });

  it('toAbortSignal passes a real signal through and bridges any other abort-like object', () => {
    const real = new AbortController().signal;
    expect(toAbortSignal(real)).toBe(real);
    expect(toAbortSignal(undefined)).toBeUndefined();
    let listener: (() => void) | undefined;
    const foreign = {
      aborted: false,
      reason: undefined as unknown,
      addEventListener: (_type: 'abort', fn: () => void) => {
        listener = fn;
      },
      removeEventListener: () => {},
    };
    const bridged = toAbortSignal(foreign)!;
    expect(bridged.aborted).toBe(false);
    foreign.aborted = true;
    foreign.reason = 'stop';
    listener!();
    expect(bridged.aborted).toBe(true);
    expect(bridged.reason).toBe('stop');
  });
});

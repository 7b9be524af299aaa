/**
 * What an inbound request costs the engine: no timer of its own (every time limit rides on one
 * shared DeadlineSet timer) and no AbortController unless its handler reads `signal` — while a
 * time limit still aborts the handler and answers -32603, and a cancel still aborts the signal.
 * Counted, not timed: the counts are the same on any machine.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeadlineSet } from '../src/protocol/deadline-set.js';
import { McpError } from '../src/protocol/errors.js';
import { InboundRequests, type InboundHost, type InboundRequestContext } from '../src/protocol/inbound-requests.js';
import type { JsonRpcMessage } from '../src/protocol/jsonrpc.js';

const RealAbortController = globalThis.AbortController;
const realSetTimeout = globalThis.setTimeout;
let controllers = 0;
let engineTimers = 0;

beforeEach(() => {
  controllers = 0;
  engineTimers = 0;
  globalThis.AbortController = class extends RealAbortController {
    constructor() {
      super();
      controllers++;
    }
  };
  // Only the engine's own timers are counted (the test runner may set timers of its own meanwhile).
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    if (new Error().stack?.includes('deadline-timer')) engineTimers++;
    return realSetTimeout(...args);
  }) as typeof setTimeout;
});

afterEach(() => {
  globalThis.AbortController = RealAbortController;
  globalThis.setTimeout = realSetTimeout;
});

/** A host that records every answer; `next()` resolves with the next one. */
function recordingHost() {
  const answers: JsonRpcMessage[] = [];
  const waiters: ((message: JsonRpcMessage) => void)[] = [];
  const host: InboundHost = {
    reply(message) {
      for (const one of Array.isArray(message) ? message : [message]) {
        const waiter = waiters.shift();
        if (waiter) waiter(one);
        else answers.push(one);
      }
    },
    notify: () => undefined,
    request: () => Promise.reject(new Error('not used')),
  };
  const next = () =>
    answers.length > 0
      ? Promise.resolve(answers.shift()!)
      : new Promise<JsonRpcMessage>((resolve) => waiters.push(resolve));
  return { host, answers, next };
}

const call = (id: number, method = 'echo') => ({ jsonrpc: '2.0' as const, id, method, params: {} });

describe('an inbound request on the engine', () => {
  it('1,000 answered requests under a time limit arm one timer between them and make no AbortController', async () => {
    const { host, answers } = recordingHost();
    const inbound = new InboundRequests(host, 60_000, new DeadlineSet());
    let ended = 0;
    inbound.onEnd(() => ended++);
    inbound.register('echo', (_params, context) => ({ id: context.id }));
    for (let id = 1; id <= 1000; id++) inbound.handle(call(id));
    await new Promise<void>((resolve) => inbound.onEnd(() => ended === 1000 && resolve()));
    expect(answers).toHaveLength(1000);
    expect(controllers).toBe(0);
    expect(engineTimers).toBe(1);
    expect(inbound.size).toBe(0);
  });

  it('a handler that reads its signal gets one controller, aborted by a cancel with its reason', async () => {
    const { host, answers } = recordingHost();
    const inbound = new InboundRequests(host, 60_000, new DeadlineSet());
    let started!: (context: InboundRequestContext) => void;
    const running = new Promise<InboundRequestContext>((resolve) => (started = resolve));
    inbound.register('wait', (_params, context) => {
      started(context);
      return new Promise(() => undefined); // never settles: only the cancel ends it
    });
    inbound.handle(call(7, 'wait'));
    const ended = new Promise<void>((resolve) => inbound.onEnd(() => resolve()));
    const context = await running;
    const aborted = new Promise<unknown>((resolve) =>
      context.signal.addEventListener('abort', () => resolve(context.signal.reason), { once: true }),
    );
    inbound.cancel(7, new McpError('CANCELLED', 'the peer cancelled it'));
    await expect(aborted).resolves.toMatchObject({ code: 'CANCELLED' });
    await ended;
    expect(controllers).toBe(1);
    expect(answers).toEqual([]); // a cancelled request gets no answer
    expect(inbound.size).toBe(0);
  });

  it('a signal first read after the cancel is already aborted', async () => {
    const { host } = recordingHost();
    const inbound = new InboundRequests(host);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const read = new Promise<AbortSignal>((resolve) =>
      inbound.register('late', async (_params, context) => {
        await gate;
        resolve(context.signal);
        return {};
      }),
    );
    inbound.handle(call(1, 'late'));
    inbound.cancel(1, new McpError('CANCELLED', 'gone'));
    release();
    const signal = await read;
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toMatchObject({ code: 'CANCELLED' });
  });

  it('a request past its time limit has its signal aborted (TIMEOUT) and is answered -32603 on the shared timer', async () => {
    const { host, next } = recordingHost();
    const deadlines = new DeadlineSet();
    const inbound = new InboundRequests(host, 20, deadlines);
    const reasons: unknown[] = [];
    inbound.register('slow', (_params, context) => {
      context.signal.addEventListener('abort', () => reasons.push(context.signal.reason), { once: true });
      return new Promise(() => undefined);
    });
    inbound.handle(call(1, 'slow'));
    inbound.handle(call(2, 'slow'));
    const first = await next();
    const second = await next();
    expect([first, second].map((m) => (m as { id: number }).id).sort()).toEqual([1, 2]);
    for (const answer of [first, second])
      expect(answer).toMatchObject({ error: { code: -32603, message: 'Request timed out after 20 ms' } });
    expect(reasons).toHaveLength(2);
    for (const reason of reasons) expect(reason).toMatchObject({ code: 'TIMEOUT' });
    expect(engineTimers).toBeLessThanOrEqual(2); // the first arm, and at most one re-arm for the second
    expect(inbound.size).toBe(0);
  });
});

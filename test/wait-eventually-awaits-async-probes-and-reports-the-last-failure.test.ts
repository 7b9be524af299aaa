/**
 * The shared bounded waits of test/support/wait.ts: `eventually` awaits an async probe and takes
 * a throw for "not yet", `until` takes a predicate or an assertion, and a wait that runs out
 * rejects naming what it waited for and the last failure (kept as `cause`), without waiting for
 * a probe still pending at the bound.
 */
import { describe, expect, it } from 'vitest';
import { eventually, until } from './support/wait.js';

describe('eventually', () => {
  it('awaits an async probe and resolves with its first defined value', async () => {
    let tries = 0;
    const value = await eventually(async () => {
      await Promise.resolve();
      return ++tries === 3 ? `after ${tries}` : undefined;
    });
    expect(value).toBe('after 3');
  });

  it('tries again after a probe that throws, and rejects with the last failure once the bound is reached', async () => {
    let tries = 0;
    const error = await eventually(
      async () => {
        throw new Error(`try ${++tries} failed`);
      },
      { timeoutMs: 100, what: 'the flaky probe' },
    ).catch((e: unknown) => e as Error);
    expect(tries).toBeGreaterThan(1);
    expect(error.message).toBe(`the flaky probe not met within 100 ms; last failure: try ${tries} failed`);
    expect((error.cause as Error).message).toBe(`try ${tries} failed`);
  });

  it('does not wait for a probe still pending at the bound', async () => {
    const started = Date.now();
    const error = await eventually(() => new Promise<string>(() => undefined), { timeoutMs: 100, what: 'a hung probe' })
      .then(() => undefined)
      .catch((e: unknown) => e as Error);
    expect(error?.message).toBe('a hung probe not met within 100 ms');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('until', () => {
  it('waits for an assertion to pass', async () => {
    let n = 0;
    await until(() => expect(++n).toBeGreaterThanOrEqual(3));
    expect(n).toBe(3);
  });

  it('waits for an async predicate, and a false one runs out naming what it waited for', async () => {
    let n = 0;
    await until(async () => ++n === 2);
    expect(n).toBe(2);
    await expect(until(async () => false, { timeoutMs: 50, what: 'never' })).rejects.toThrow(
      'never not met within 50 ms',
    );
  });
});

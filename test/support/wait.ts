/**
 * Bounded waits for tests. A test waits for an event or polls a condition, never sleeps a fixed
 * time: a sleep either wastes time on an idle machine or is too short on a loaded one. Every wait
 * here gives up after a bound and rejects with an error naming what it waited for. The bounds
 * are generous on purpose: they only cost time when the test is failing anyway.
 */

/** How long a wait may take and what it is waiting for (named in the error). */
export interface WaitOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** What the wait is for, e.g. `"the server's second request"`. */
  what?: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const POLL_INTERVAL_MS = 10;

function normalise(options: number | WaitOptions | undefined): Required<WaitOptions> {
  const given = typeof options === 'number' ? { timeoutMs: options } : (options ?? {});
  return { timeoutMs: given.timeoutMs ?? DEFAULT_TIMEOUT_MS, what: given.what ?? 'condition' };
}

/**
 * Resolves with the first value `read()` returns that is not undefined, polling until the bound
 * (a number is the bound in ms). Rejects with `"<what> not met within <ms> ms"`.
 */
export async function eventually<T>(read: () => T | undefined, options?: number | WaitOptions): Promise<T> {
  const { timeoutMs, what } = normalise(options);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, POLL_INTERVAL_MS));
  }
}

/** Resolves once `check()` is true, polling until the bound; rejects like {@link eventually}. */
export async function until(check: () => boolean, options?: number | WaitOptions): Promise<void> {
  await eventually(() => (check() ? true : undefined), options);
}

/**
 * Settles as `promise` does, or rejects with `"<what> did not happen within <ms> ms"` when it
 * has not settled by then. The timer is cleared either way, so nothing is left behind.
 */
export function within<T>(promise: Promise<T>, options?: number | WaitOptions): Promise<T> {
  const { timeoutMs, what } = normalise(options);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

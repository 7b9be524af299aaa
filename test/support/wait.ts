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

const PENDING = Symbol('probe still pending');

/** One try of `probe`, cut short at `deadline` (then {@link PENDING}). */
async function attempt<T>(probe: () => T | Promise<T>, deadline: number): Promise<T | typeof PENDING> {
  const tried = Promise.resolve().then(probe);
  tried.catch(() => undefined); // a try left pending at the bound may still fail; nobody waits for it then
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<typeof PENDING>((resolve) => {
    timer = setTimeout(() => resolve(PENDING), Math.max(deadline - Date.now(), 0));
  });
  return Promise.race([tried, expired]).finally(() => clearTimeout(timer));
}

/**
 * Resolves with the first value `probe()` gives that is not undefined, polling until the bound
 * (a number is the bound in ms). `probe` may be async; a probe that throws or rejects counts as
 * "not yet" and is tried again. A try still pending at the bound is not waited for. Rejects with
 * `"<what> not met within <ms> ms"`, followed by the last failure's message (kept as `cause`)
 * when the last settled try failed.
 */
export async function eventually<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  options?: number | WaitOptions,
): Promise<T> {
  const { timeoutMs, what } = normalise(options);
  const deadline = Date.now() + timeoutMs;
  let failure: { error: unknown } | undefined;
  for (;;) {
    try {
      const value = await attempt(probe, deadline);
      if (value !== PENDING) {
        if (value !== undefined) return value;
        failure = undefined;
      }
    } catch (error) {
      failure = { error };
    }
    if (Date.now() >= deadline) {
      if (!failure) throw new Error(`${what} not met within ${timeoutMs} ms`);
      const { error } = failure;
      const last = error instanceof Error ? error.message : String(error);
      throw new Error(`${what} not met within ${timeoutMs} ms; last failure: ${last}`, { cause: error });
    }
    await new Promise((r) => setTimeout(r, POLL_INTERVAL_MS));
  }
}

/**
 * Resolves once `check()` holds, polling until the bound; rejects like {@link eventually}.
 * `check` is a predicate or an assertion, sync or async: it holds when it returns anything but
 * `false` without throwing (so `until(() => expect(x).toBe(1))` waits for the assertion to pass).
 */
export async function until(
  check: () => boolean | void | Promise<boolean | void>,
  options?: number | WaitOptions,
): Promise<void> {
  await eventually(async () => ((await check()) === false ? undefined : true), options);
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

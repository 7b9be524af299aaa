/** Timers of the HTTP transports that never outlive their owner. */

/**
 * Waits `ms`, or less when `signal` aborts first. Resolves `true` after a full wait, `false`
 * on abort; never rejects, and leaves no timer or listener behind either way.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(true);
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Waits until `task` settles or `ms` pass, whichever comes first. Resolves `true` when the task
 * settled in time, `false` otherwise; never rejects, and clears its timer as soon as either
 * happens (a `close()` that raced a bare sleep kept the process alive for the sleep's length).
 */
export async function settledWithin(task: Promise<unknown>, ms: number): Promise<boolean> {
  const stop = new AbortController();
  try {
    return await Promise.race([task.then(yes, yes), sleep(ms, stop.signal).then(no)]);
  } finally {
    stop.abort();
  }
}

/**
 * A signal that aborts after `ms` (with a `TimeoutError`-named reason) and a `dispose` that
 * clears its timer. Unlike `AbortSignal.timeout`, nothing of it outlives `dispose()`.
 */
export function timeoutSignal(ms: number): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError')),
    Math.max(0, ms),
  );
  return { signal: controller.signal, dispose: () => clearTimeout(timer) };
}

function yes(): true {
  return true;
}

function no(): false {
  return false;
}

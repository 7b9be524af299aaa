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
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

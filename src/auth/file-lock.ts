/**
 * A lock on one file across processes: a directory beside it (`proper-lockfile`: `mkdir` is
 * atomic, the holder keeps its mtime fresh, and a lock not refreshed for `staleMs` — its holder
 * dead — is broken). Used by the file token store (a refresh at a time per login) and the
 * gateway's pins file (a change at a time). `proper-lockfile` is loaded on first use.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { McpError } from '../protocol/errors.js';

/** How {@link withFileLock} waits. */
export interface FileLockOptions {
  /** The file the lock guards. */
  file: string;
  /** The lock directory (default `FILE.lock`). */
  lockfilePath?: string;
  /** A lock not refreshed for this long is broken. */
  staleMs: number;
  /** How long a held lock is waited for before `TIMEOUT`. */
  waitMs: number;
  /** What the lock is, for the error: `login` gives "the login lock … is held by another process …". */
  what: string;
  /** The first pause between two tries (doubling, with jitter, up to 100 ms). */
  firstPauseMs?: number;
}

const MAX_PAUSE_MS = 100;

/**
 * Runs `task` holding the lock. Rejects with `TIMEOUT` naming the lock once `waitMs` passed, with
 * the signal's reason when `signal` aborts the wait (the task has not run then), or as `task` does.
 */
export async function withFileLock<T>(
  options: FileLockOptions,
  task: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  signal?.throwIfAborted();
  const lockfile = (await import('proper-lockfile')).default;
  const lockfilePath = options.lockfilePath ?? `${options.file}.lock`;
  const deadline = Date.now() + options.waitMs;
  let release: () => Promise<void>;
  for (let pause = options.firstPauseMs ?? 5; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
    signal?.throwIfAborted();
    try {
      release = await lockfile.lock(options.file, {
        realpath: false,
        lockfilePath,
        stale: options.staleMs,
        retries: 0,
        // Only when this process stalled past the stale bound: nothing to crash for.
        onCompromised: () => {},
      });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      if (Date.now() >= deadline)
        throw new McpError(
          'TIMEOUT',
          `the ${options.what} lock ${lockfilePath} is held by another process for more than ${options.waitMs} ms`,
          { cause: error },
        );
      await sleep(pause + Math.random() * pause, undefined, signal ? { signal } : {}).catch((error: unknown) => {
        signal?.throwIfAborted();
        throw error;
      });
    }
  }
  try {
    return await task();
  } finally {
    await release().catch(() => {});
  }
}

/**
 * A slot's restart schedule: capped exponential backoff over the failures in a row, a breaker
 * that opens after `maxRestarts` of them, and a count that starts afresh once a connection has
 * lived `resetAfterMs`. It holds at most one timer, unref'd (a pending restart never keeps the
 * process alive).
 */
import type { RestartPolicy } from './managed-server.js';

const DEFAULTS: Required<RestartPolicy> = {
  maxRestarts: 5,
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  resetAfterMs: 60_000,
};

export class RestartBackoff {
  private readonly policy: Required<RestartPolicy>;
  private failuresInRow = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(policy: RestartPolicy | undefined) {
    this.policy = { ...DEFAULTS, ...(policy ?? {}) };
  }

  /** The quick failures in a row counted so far (the restart about to run is number `failures`). */
  get failures(): number {
    return this.failuresInRow;
  }

  get maxRestarts(): number {
    return this.policy.maxRestarts;
  }

  /** True while a restart is scheduled. */
  get pending(): boolean {
    return this.timer !== undefined;
  }

  /**
   * Counts a failure and returns the delay before the next restart, or undefined when the
   * breaker opens (`maxRestarts` failures in a row; the count is kept). `liveSince` is when the
   * connection that just ended was established (0 for none): one that lived `resetAfterMs` or
   * longer counts as healthy, so the count starts afresh.
   */
  next(liveSince: number): number | undefined {
    if (liveSince > 0 && Date.now() - liveSince >= this.policy.resetAfterMs) this.failuresInRow = 0;
    if (this.failuresInRow >= this.policy.maxRestarts) return undefined;
    const delay = Math.min(this.policy.maxDelayMs, this.policy.initialDelayMs * 2 ** this.failuresInRow);
    this.failuresInRow++;
    return delay;
  }

  /** Runs `restart` after `delayMs`, in place of any restart already scheduled. */
  schedule(delayMs: number, restart: () => void): void {
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      restart();
    }, delayMs);
    this.timer.unref?.();
  }

  /** Cancels the scheduled restart, if any. Idempotent. */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

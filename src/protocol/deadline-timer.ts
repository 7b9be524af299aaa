/**
 * One timer for many deadlines. It is armed for the earliest deadline it has been told about;
 * when it fires, the owner expires what is due and returns the next deadline (or Infinity).
 * Pushing a deadline later costs nothing, so a progress reset is an assignment, not a timer.
 */

/** Monotonic milliseconds (performance.now where it exists). */
export const now: () => number = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

export class DeadlineTimer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private at = Infinity;

  /**
   * `onFire` expires what is due and returns the next deadline, or Infinity for none. `weak`: no
   * timer it sets keeps the process alive.
   */
  constructor(
    private readonly onFire: () => number,
    private readonly weak = false,
  ) {}

  /** Makes sure the timer fires no later than `due` (a monotonic time from {@link now}). */
  atMost(due: number): void {
    if (due < this.at) this.schedule(due);
  }

  /** Lets the timer keep the process alive (something is pending). */
  ref(): void {
    (this.timer as { ref?: () => void } | undefined)?.ref?.();
  }

  /** Stops the timer from keeping the process alive (nothing is pending). */
  unref(): void {
    (this.timer as { unref?: () => void } | undefined)?.unref?.();
  }

  /** Cancels the timer for good. */
  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.at = Infinity;
  }

  private schedule(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.at = at;
    this.timer = Number.isFinite(at) ? setTimeout(() => this.fire(), Math.max(0, at - now())) : undefined;
    if (this.weak) this.unref();
  }

  private fire(): void {
    this.timer = undefined;
    this.at = Infinity;
    const next = this.onFire();
    if (Number.isFinite(next)) this.schedule(next);
  }
}

/**
 * A one-way gate for waits with a bound: it opens once (a process exited, its pipes closed);
 * waiters are woken then, or give up after their bound with their timer removed.
 */
export class Latch {
  private isOpen = false;
  private waiters: Array<() => void> = [];

  /** Opens the latch and wakes every waiter; later calls do nothing more. */
  open(): void {
    this.isOpen = true;
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Calls `wake` when the latch opens (at once if it is open). */
  onOpen(wake: () => void): void {
    if (this.isOpen) wake();
    else this.waiters.push(wake);
  }

  /** Resolves true once open, false after `ms` (its timer and its place in the list removed). */
  wait(ms: number): Promise<boolean> {
    if (this.isOpen) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const at = this.waiters.indexOf(wake);
        if (at !== -1) this.waiters.splice(at, 1);
        resolve(false);
      }, ms);
      this.waiters.push(wake);
    });
  }
}

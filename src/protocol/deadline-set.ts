/**
 * Many deadlines on one {@link DeadlineTimer}: an entry is added with its time limit and removed
 * when its work ends; the timer fires at the earliest due time and expires what is due. One set
 * may serve many connections (a server's HTTP handler gives all its per-POST connections one), so
 * a request costs a Set entry, not a timer. The timer does not keep the process alive.
 */
import { DeadlineTimer, now } from './deadline-timer.js';

/** An entry of a {@link DeadlineSet}. */
export interface Deadline {
  /** When it expires (monotonic ms); set by {@link DeadlineSet.add}. */
  due: number;
  /** Called once when due, after the entry left the set. */
  expire(): void;
}

export class DeadlineSet {
  private readonly entries = new Set<Deadline>();
  private readonly timer = new DeadlineTimer(() => this.sweep(), true);

  /** Adds `entry`, due `ms` from now (Infinity: never, and it is not kept). */
  add(entry: Deadline, ms: number): void {
    if (!Number.isFinite(ms)) return;
    entry.due = now() + Math.max(0, ms);
    this.entries.add(entry);
    this.timer.atMost(entry.due);
  }

  /**
   * Removes `entry` (its work ended); harmless when it is not in the set. The timer stays armed
   * (a later entry is due later still), so back-to-back requests set no timer of their own.
   */
  delete(entry: Deadline): void {
    this.entries.delete(entry);
  }

  /** Drops every entry (none expires) and stops the timer; the set may be used again. */
  clear(): void {
    this.entries.clear();
    this.timer.stop();
  }

  private sweep(): number {
    const t = now() + 1; // timers may fire a hair early
    let next = Infinity;
    for (const entry of [...this.entries]) {
      if (entry.due <= t) {
        this.entries.delete(entry);
        entry.expire();
      } else if (entry.due < next) next = entry.due;
    }
    return next;
  }
}

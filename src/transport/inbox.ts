/**
 * The receiving side every transport shares: listeners of inbound values, and a backlog that
 * holds what arrives before the first listener registers (then hands it over in order).
 */
import type { Disposer } from '../protocol/transport.js';

export class Inbox<T> {
  private readonly listeners = new Set<(value: T) => void>();
  private backlog: T[] | undefined = [];

  /** Registers a listener; the first one receives the backlog at once. Returns a disposer. */
  listen(listener: (value: T) => void): Disposer {
    this.listeners.add(listener);
    const backlog = this.backlog;
    if (backlog) {
      this.backlog = undefined;
      for (const value of backlog) listener(value);
    }
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Hands `value` to every listener, or keeps it until the first one registers. */
  deliver(value: T): void {
    if (this.backlog) {
      this.backlog.push(value);
      return;
    }
    for (const listener of this.listeners) listener(value);
  }
}

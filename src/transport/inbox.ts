/**
 * The receiving side every transport shares: listeners of inbound values, and a backlog that
 * holds what arrives before the first listener registers (then hands it over in order).
 */
import type { Disposer } from '../protocol/transport.js';

export class Inbox<T> {
  private readonly listeners = new Set<(value: T) => void>();
  private backlog: T[] | undefined = [];

  /**
   * `onListenerError` receives what a listener throws, and the value it was given; the other
   * listeners still get the value. Without it a listener's throw propagates to the caller of
   * {@link deliver} — which, in a transport, is an I/O event handler: a transport whose data
   * handler must never throw passes one.
   */
  constructor(private readonly onListenerError?: (error: unknown, value: T) => void) {}

  /** Registers a listener; the first one receives the backlog at once. Returns a disposer. */
  listen(listener: (value: T) => void): Disposer {
    this.listeners.add(listener);
    const backlog = this.backlog;
    if (backlog) {
      this.backlog = undefined;
      for (const value of backlog) this.call(listener, value);
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
    for (const listener of this.listeners) this.call(listener, value);
  }

  private call(listener: (value: T) => void, value: T): void {
    if (!this.onListenerError) return listener(value);
    try {
      listener(value);
    } catch (error) {
      this.onListenerError(error, value);
    }
  }
}

/**
 * A set of listeners that each get every value, where one throwing listener never stops the
 * others (diagnostics are advisory). Registration returns a disposer.
 */
import type { Disposer } from '../protocol/transport.js';

export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  /** Registers `listener`; the disposer removes it (calling it twice is harmless). */
  add(listener: (value: T) => void): Disposer {
    this.set.add(listener);
    return () => {
      this.set.delete(listener);
    };
  }

  /** Hands `value` to every listener; exceptions are swallowed. */
  emit(value: T): void {
    for (const listener of this.set) {
      try {
        listener(value);
      } catch {
        // Advisory: a listener's bug must not break the transport.
      }
    }
  }
}

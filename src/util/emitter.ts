/**
 * A minimal typed event emitter whose registrations return disposers. Listener errors are
 * isolated: one throwing listener neither breaks the emit nor starves the others.
 */

/** Removes a registration; calling it more than once is harmless (`Disposer` of `protocol/transport.ts`). */
type Disposer = () => void;

export class Emitter<Events extends { [K in keyof Events]: (...args: never[]) => void }> {
  private readonly listeners = new Map<keyof Events, Set<Events[keyof Events]>>();

  /** Registers `listener` for `event`; the returned disposer removes it (idempotent). */
  on<E extends keyof Events>(event: E, listener: Events[E]): Disposer {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  /** True when at least one listener is registered for `event`. */
  has(event: keyof Events): boolean {
    return (this.listeners.get(event)?.size ?? 0) > 0;
  }

  /** Calls every listener of `event` with `args`. */
  emit<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as (...a: Parameters<Events[E]>) => void)(...args);
      } catch {
        // Isolated on purpose: see the class contract.
      }
    }
  }

  /** Drops every listener (on close). */
  clear(): void {
    this.listeners.clear();
  }
}

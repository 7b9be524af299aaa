/** Listeners of "this list changed", registered with disposers; a throwing listener is skipped. */
import type { Disposer } from '../protocol/transport.js';
import { base64urlFromText, textFromBase64url } from '../util/base64url.js';
import type { Change } from './state/change-bus.js';

/**
 * The changes one server's clients hear, fanned out in this process to its legacy sessions, GET
 * streams and listens (registered with disposers; a throwing listener is skipped). Fed by the
 * server's one subscription to the change bus, so a change made on any node reaches them.
 */
export class ChangeFeed {
  private readonly listeners = new Set<(change: Change) => void>();

  add(listener: (change: Change) => void): Disposer {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Listeners registered now (a closed session or listen leaves none behind). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  emit(change: Change): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch {
        // One session's failure to notify must not stop the others.
      }
    }
  }
}

export class ChangeListeners {
  private readonly listeners = new Set<() => void>();

  add(listener: () => void): Disposer {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Listeners registered now (a closed session or listen leaves none behind). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  emit(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // One session's failure to notify must not break a registration.
      }
    }
  }
}

/** One page of `items` from an opaque offset cursor; a cursor not made here throws `INVALID_ARGUMENT` via `invalid`. */
export function pageOf<T>(
  items: T[],
  cursor: unknown,
  pageSize: number,
  invalid: () => never,
): { items: T[]; nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    const match = typeof cursor === 'string' ? /^o:(\d{1,9})$/.exec(textFromBase64url(cursor) ?? '') : null;
    start = match ? Number(match[1]) : -1;
    if (start < 0 || start > items.length) invalid();
  }
  const end = start + pageSize;
  return end < items.length
    ? { items: items.slice(start, end), nextCursor: base64urlFromText(`o:${end}`) }
    : { items: items.slice(start) };
}

/** The in-memory {@link ChangeBus}: one process, delivered synchronously within `publish`, nothing lost. */
import type { Disposer } from '../../protocol/transport.js';
import type { Change, ChangeBus, ChangeSubscriber } from './change-bus.js';

export class MemoryChangeBus implements ChangeBus {
  readonly shared: boolean = false;
  private readonly subscribers = new Set<ChangeSubscriber>();

  /** Subscribers now (a closed listen or session leaves none behind). */
  get subscriberCount(): number {
    return this.subscribers.size;
  }

  publish(change: Change): Promise<void> {
    for (const subscriber of [...this.subscribers]) {
      try {
        subscriber.change(change);
      } catch {
        // One subscriber's failure must not stop the others.
      }
    }
    return Promise.resolve();
  }

  subscribe(subscriber: ChangeSubscriber): Promise<Disposer> {
    // A wrapper per call: the same subscriber twice is two subscriptions, each with its own disposer.
    const entry: ChangeSubscriber = { change: (c) => subscriber.change(c), resync: () => subscriber.resync() };
    this.subscribers.add(entry);
    return Promise.resolve(() => {
      this.subscribers.delete(entry);
    });
  }

  /** Tells every subscriber to re-read (what a shared bus does after it reconnects). */
  resync(): void {
    for (const subscriber of [...this.subscribers]) {
      try {
        subscriber.resync();
      } catch {
        // As in publish.
      }
    }
  }

  close(): Promise<void> {
    this.subscribers.clear();
    return Promise.resolve();
  }
}

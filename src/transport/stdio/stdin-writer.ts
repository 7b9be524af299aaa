/**
 * Writing lines to a child's stdin: the first line of a tick is written at once (a sequential
 * caller pays what a bare `write` costs: no cork, no buffered request), and the lines that follow
 * it in the same tick leave together in one `writev` (the stream is corked until the next tick).
 * The writes that met a full pipe wait on one list with one 'drain' and one 'close' listener
 * between them — not a listener pair each, which made a thousand concurrent sends print
 * `MaxListenersExceededWarning`.
 */
import type { Writable } from 'node:stream';

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class StdinWriter {
  private readonly stdin: Writable;
  private readonly gone: () => Error;
  private waiters: Waiter[] = [];
  /** A line was written in this tick: the next one corks the stream. */
  private wrote = false;
  private corked = false;
  private disposed = false;

  /** The end of a tick in which something was written: what was corked leaves in one writev. */
  private readonly endOfTick = (): void => {
    this.wrote = false;
    if (!this.corked) return;
    this.corked = false;
    this.stdin.uncork();
  };
  private readonly onDrain = (): void => {
    const woken = this.waiters;
    this.waiters = [];
    for (const waiter of woken) waiter.resolve();
  };
  private readonly onClose = (): void => this.failAll();

  /** `gone` makes the error of a write that cannot complete any more (the pipe closed first). */
  constructor(stdin: Writable, gone: () => Error) {
    this.stdin = stdin;
    this.gone = gone;
    stdin.on('drain', this.onDrain);
    stdin.on('close', this.onClose);
  }

  /**
   * Writes `line`. Returns nothing when the stream took it below its high-water mark; otherwise a
   * promise that resolves at the next 'drain' and rejects with `gone()` if the pipe closes (or the
   * writer is disposed) first. Never throws.
   */
  write(line: string): Promise<void> | undefined {
    const { stdin } = this;
    if (this.disposed || stdin.destroyed) return Promise.reject(this.gone());
    if (!this.wrote) {
      this.wrote = true;
      process.nextTick(this.endOfTick);
    } else if (!this.corked) {
      this.corked = true;
      stdin.cork();
    }
    if (stdin.write(line)) return undefined;
    if (stdin.destroyed) return Promise.reject(this.gone());
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** Rejects every waiting write and removes this writer's listeners. Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.stdin.off('drain', this.onDrain);
    this.stdin.off('close', this.onClose);
    this.failAll();
  }

  private failAll(): void {
    if (this.waiters.length === 0) return;
    const failed = this.waiters;
    this.waiters = [];
    const error = this.gone();
    for (const waiter of failed) waiter.reject(error);
  }
}

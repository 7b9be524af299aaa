/**
 * The signal a connection built with `requestSignals` gives each request's `send`: aborted once,
 * when the connection gives up on the request (timeout, the caller's abort, an oversize answer,
 * close), so a transport with a channel per request (an HTTP POST) releases that channel.
 *
 * A plain object rather than an AbortController, on purpose: on Node 20 an AbortController per
 * request cost about 30 µs of client CPU per call at 64 calls in flight over Streamable HTTP,
 * most of it garbage collection (issue 11: 147 µs against 110 µs per call without it, fresh
 * bench processes, median of four). It offers what a transport needs to follow a request —
 * `aborted`, `reason`, abort listeners — and a real AbortSignal on demand for an API that
 * takes one ({@link SendSignal.asAbortSignal}).
 */

/**
 * What following an abort needs; both `AbortSignal` and {@link SendSignal} have it, so code that
 * only follows a signal takes either.
 */
export interface AbortLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export class SendSignal implements AbortLike {
  private done = false;
  private why: unknown;
  /** Abort listeners in registration order; each runs once (an abort happens once). */
  private listeners: Array<() => void> | undefined;
  private real: AbortController | undefined;

  get aborted(): boolean {
    return this.done;
  }

  /** The reason given to {@link abort}; undefined before it. */
  get reason(): unknown {
    return this.why;
  }

  /**
   * Calls `listener` when the signal aborts (once: an abort happens once). Like an
   * AbortSignal, a listener added after the abort is never called: check `aborted` first.
   */
  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.done) return;
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const list = this.listeners;
    if (!list) return;
    const at = list.indexOf(listener);
    if (at !== -1) list.splice(at, 1);
  }

  /** A real AbortSignal that aborts with this one (with the same reason); made on the first call. */
  asAbortSignal(): AbortSignal {
    if (!this.real) {
      this.real = new AbortController();
      if (this.done) this.real.abort(this.why);
    }
    return this.real.signal;
  }

  /**
   * The owner's (the connection's) trigger: marks the signal aborted and runs its listeners,
   * each guarded so one that throws cannot stop the rest. A transport never calls it.
   * Idempotent.
   */
  abort(reason: unknown): void {
    if (this.done) return;
    this.done = true;
    this.why = reason;
    const list = this.listeners;
    this.listeners = undefined;
    if (list) {
      for (const listener of list) {
        try {
          listener();
        } catch {
          // A transport's listener must not break the connection's abandon path.
        }
      }
    }
    this.real?.abort(reason);
  }
}

/** `signal` as a real AbortSignal (a {@link SendSignal} makes one on demand); undefined stays undefined. */
export function toAbortSignal(signal: AbortLike | undefined): AbortSignal | undefined {
  if (signal === undefined || signal instanceof AbortSignal) return signal;
  return signal instanceof SendSignal ? signal.asAbortSignal() : bridge(signal);
}

/** Any other {@link AbortLike}: a new AbortSignal following it. */
function bridge(signal: AbortLike): AbortSignal {
  const controller = new AbortController();
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller.signal;
}

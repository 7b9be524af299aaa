/**
 * The response body every HTTP engine yields (`http-engine.ts`): a small emitter of `Uint8Array`
 * chunks, with the part of the Readable surface its readers use. Runtime-neutral: no `node:*`.
 */

/** What a body asks of its engine's exchange: abort it (the connection is not reused), pause and resume reading. */
export interface BodyController {
  readonly aborted: boolean;
  abort(reason: Error): void;
  pause(): void;
  resume(): void;
}

type Listener = (...args: never[]) => void;
type Event = 'data' | 'end' | 'error' | 'close';

/**
 * A response body with the small part of the Readable surface its readers use (`on`, `once`,
 * `removeListener`, `destroy`, `pause`, `resume`). Chunks and the end that arrive before a
 * `data` / `end` listener registers are buffered and handed over on registration, so nothing is
 * lost between the status resolving and the reader attaching. Chunks flow as they come off the
 * socket (a long-lived SSE stream is read without backpressure) unless a reader pauses it.
 */
export class LiteBody {
  private readonly listeners: Record<Event, Array<{ fn: Listener; once: boolean }>> = {
    data: [],
    end: [],
    error: [],
    close: [],
  };
  private pending: Uint8Array[] | undefined = [];
  private outcome: { event: 'end' | 'error'; error?: unknown } | undefined;
  private closed = false;
  /** Set by the engine once the request starts: it aborts, pauses and resumes the exchange. */
  controller: BodyController | undefined;

  on(event: Event, fn: Listener): this {
    return this.add(event, fn, false);
  }

  once(event: Event, fn: Listener): this {
    return this.add(event, fn, true);
  }

  removeListener(event: Event, fn: Listener): this {
    const list = this.listeners[event];
    const at = list.findIndex((entry) => entry.fn === fn);
    if (at >= 0) list.splice(at, 1);
    return this;
  }

  /** Ends the exchange now (the socket is not reused); emits `close`. Idempotent. */
  destroy(): this {
    if (this.closed) return this;
    this.pending = undefined;
    if (this.controller && !this.controller.aborted) this.controller.abort(new Error('response body destroyed'));
    this.finish(undefined);
    return this;
  }

  /**
   * Stops reading from the socket until {@link resume} (backpressure for a reader that forwards
   * the body, such as the proxy); chunks already read are still delivered.
   */
  pause(): this {
    this.controller?.pause();
    return this;
  }

  /** Undoes {@link pause}. Without a `data` listener, the rest of the body is discarded as it arrives. */
  resume(): this {
    this.controller?.resume();
    if (this.listeners.data.length === 0) {
      this.pending = undefined; // nobody will read it
      if (this.outcome && !this.closed) this.settle();
    }
    return this;
  }

  /** @internal */
  push(chunk: Uint8Array): void {
    if (this.closed) return;
    if (this.listeners.data.length === 0) {
      this.pending?.push(chunk);
      return;
    }
    this.emit('data', chunk);
  }

  /** @internal The response ended (`error` undefined) or failed. */
  finish(error: unknown, ended = false): void {
    if (this.closed) return;
    this.outcome = ended ? { event: 'end' } : error === undefined ? undefined : { event: 'error', error };
    // Delivered on the first `data` listener.
    if (this.pending && this.pending.length > 0 && this.listeners.data.length === 0) return;
    this.settle();
  }

  private settle(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.outcome?.event === 'end') this.emit('end');
    else if (this.outcome?.event === 'error') this.emit('error', this.outcome.error);
    this.emit('close');
  }

  private add(event: Event, fn: Listener, once: boolean): this {
    this.listeners[event].push({ fn, once });
    if (event === 'data' && this.pending) {
      const backlog = this.pending;
      this.pending = [];
      for (const chunk of backlog) this.emit('data', chunk);
      if (this.outcome && !this.closed) queueMicrotask(() => this.settle());
    } else if (this.closed && event !== 'data') {
      // Late registration: replay what already happened, asynchronously like an emitter would.
      const happened = event === 'close' || event === this.outcome?.event;
      if (happened) queueMicrotask(() => this.emit(event, ...(event === 'error' ? [this.outcome?.error] : [])));
    }
    return this;
  }

  private emit(event: Event, ...args: unknown[]): void {
    const list = this.listeners[event];
    if (list.length === 0) return;
    for (const entry of [...list]) {
      if (entry.once) this.removeListener(event, entry.fn);
      (entry.fn as (...a: unknown[]) => void)(...args);
    }
  }
}

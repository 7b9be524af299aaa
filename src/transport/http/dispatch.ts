/**
 * One HTTP exchange on undici's dispatcher handler API, without `request()`'s Readable body and
 * promise plumbing: status and headers resolve the returned promise, body chunks go to a small
 * buffered emitter. Measured on this machine with 64 requests in flight: about half the client
 * CPU per request of `undici.request` (and below `node:http`).
 */
import type { Dispatcher } from 'undici';

type Listener = (...args: never[]) => void;
type Event = 'data' | 'end' | 'error' | 'close';

/**
 * A response body with the small part of the Readable surface the transports use (`on`, `once`,
 * `removeListener`, `destroy`, `resume`). Chunks and the end that arrive before a `data` /
 * `end` listener registers are buffered and handed over on registration, so nothing is lost
 * between the status resolving and the reader attaching.
 */
export class LiteBody {
  private readonly listeners: Record<Event, Array<{ fn: Listener; once: boolean }>> = { data: [], end: [], error: [], close: [] };
  private pending: Buffer[] | undefined = [];
  private outcome: { event: 'end' | 'error'; error?: unknown } | undefined;
  private closed = false;
  /** Set by the handler once the request starts: aborting it ends the exchange. */
  abortExchange: ((reason: Error) => void) | undefined;

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
    this.abortExchange?.(new Error('response body destroyed'));
    this.finish(undefined);
    return this;
  }

  /** Data flows as it arrives; nothing to resume. */
  resume(): this {
    if (this.listeners.data.length === 0) {
      this.pending = undefined; // nobody will read it
      if (this.outcome && !this.closed) this.settle();
    }
    return this;
  }

  /** @internal */
  push(chunk: Buffer): void {
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
    if (this.pending && this.pending.length > 0 && this.listeners.data.length === 0) return; // delivered on the first `data` listener
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

/** What {@link exchange} resolves with. */
export interface LiteResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: LiteBody;
}

/** Options of one {@link exchange}. */
export interface ExchangeOptions {
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  /** 0 disables (the connection's timeouts govern requests). */
  headersTimeout: number;
  bodyTimeout: number;
}

/**
 * Sends one request through `dispatcher`. Resolves at the status line and headers; rejects with
 * the network error (or the signal's reason) when no response started. Aborting `signal` later
 * fails the body with that reason.
 */
export function exchange(dispatcher: Dispatcher, url: URL, options: ExchangeOptions): Promise<LiteResponse> {
  const { signal } = options;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<LiteResponse>((resolve, reject) => {
    const body = new LiteBody();
    let started = false;
    let controller: Dispatcher.DispatchController | undefined;
    const onAbort = (): void => {
      const reason = signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason));
      if (controller) controller.abort(reason);
      else if (!started) reject(reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const done = (): void => signal.removeEventListener('abort', onAbort);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        body.abortExchange = (reason) => {
          if (!c.aborted) c.abort(reason);
        };
        if (signal.aborted) c.abort(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      },
      onResponseStart(_c, statusCode, headers) {
        if (statusCode < 200 && statusCode !== 101) return; // 1xx informational
        started = true;
        resolve({ statusCode, headers: headers as Record<string, string | string[] | undefined>, body });
      },
      onResponseData(_c, chunk) {
        body.push(chunk);
      },
      onResponseEnd() {
        done();
        body.finish(undefined, true);
      },
      onResponseError(_c, error) {
        done();
        if (!started) reject(error);
        else body.finish(error);
      },
    };
    try {
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: options.method,
          headers: options.headers,
          body: options.body ?? null,
          headersTimeout: options.headersTimeout,
          bodyTimeout: options.bodyTimeout,
        },
        handler,
      );
    } catch (error) {
      done();
      reject(error);
    }
  });
}

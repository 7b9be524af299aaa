/**
 * The engine over any WHATWG `fetch` (browsers, Workers, Deno, Bun, Node's own, or a caller's
 * function): one `fetch` per exchange with an AbortController of its own, the body read through
 * its `ReadableStream` reader into a {@link LiteBody} of `Uint8Array` chunks. Cancelling is an
 * abort of that controller plus `reader.cancel()`. Redirects are not followed (`manual`), as on
 * the undici path: a POST is never re-sent to another URL behind the caller's back. Connections
 * are the `fetch` implementation's own, so `close` and `destroy` have nothing to free.
 * Runtime-neutral: no `node:*`, no undici.
 */
import { exchangeTimeout, type ExchangeOptions, type HttpEngine, type LiteResponse } from './http-engine.js';
import { LiteBody } from './lite-body.js';

/**
 * The `fetch` an HTTP transport may be given: called as `fetch(url, init)` with a string URL, so
 * the global `fetch` fits, and so does a plain wrapper function (Bun's `typeof fetch` carries more
 * than a call signature).
 */
export type FetchFunction = (input: string, init?: RequestInit) => Promise<Response>;

export class FetchEngine implements HttpEngine {
  constructor(private readonly fetchFn: FetchFunction) {}

  exchange(url: URL, options: ExchangeOptions): Promise<LiteResponse> {
    const { signal, lifetime } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (lifetime?.aborted) return Promise.reject(lifetime.reason);
    const fetchFn = this.fetchFn;
    return new Promise<LiteResponse>((resolve, reject) => {
      const controller = new AbortController();
      const body = new LiteBody();
      let started = false;
      let over = false;
      let paused = false;
      let wake: (() => void) | undefined;
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
      let headersTimer: ReturnType<typeof setTimeout> | undefined;
      let bodyTimer: ReturnType<typeof setTimeout> | undefined;

      const abortReason = (): Error => {
        const reason: unknown = signal?.aborted ? signal.reason : lifetime?.reason;
        return reason instanceof Error ? reason : new Error(String(reason));
      };
      /** Stops the request and the reading (no event on the body: the caller decides that). */
      const cancel = (reason: Error): void => {
        if (!controller.signal.aborted) controller.abort(reason);
        if (reader) reader.cancel(reason).catch(() => {});
        wake?.();
      };
      /** The exchange is over: ended (`ended`), failed (`error`), or given up by the body (neither). */
      const end = (error: unknown, ended = false): void => {
        if (over) return;
        over = true;
        if (headersTimer !== undefined) clearTimeout(headersTimer);
        if (bodyTimer !== undefined) clearTimeout(bodyTimer);
        signal?.removeEventListener('abort', onAbort);
        lifetime?.unfollow(slot);
        if (!started) reject(error);
        else body.finish(error, ended);
      };
      const fail = (error: Error): void => {
        cancel(error);
        end(error);
      };
      const onAbort = (): void => fail(abortReason());
      signal?.addEventListener('abort', onAbort, { once: true });
      const slot = lifetime ? lifetime.follow(onAbort) : -1;
      if (options.headersTimeout > 0) {
        headersTimer = setTimeout(
          () => fail(exchangeTimeout('headers', options.headersTimeout)),
          options.headersTimeout,
        );
      }
      const armBodyTimer = (): void => {
        if (options.bodyTimeout <= 0) return;
        if (bodyTimer !== undefined) clearTimeout(bodyTimer);
        bodyTimer = setTimeout(() => fail(exchangeTimeout('body', options.bodyTimeout)), options.bodyTimeout);
      };
      body.controller = {
        get aborted() {
          return controller.signal.aborted;
        },
        abort(reason: Error) {
          // The body was destroyed: it emits its own close; the exchange just stops.
          cancel(reason);
          if (!over) {
            over = true;
            if (bodyTimer !== undefined) clearTimeout(bodyTimer);
            signal?.removeEventListener('abort', onAbort);
            lifetime?.unfollow(slot);
          }
        },
        pause() {
          paused = true;
        },
        resume() {
          paused = false;
          wake?.();
        },
      };

      const init: RequestInit = {
        method: options.method,
        headers: flatRequestHeaders(options.headers),
        signal: controller.signal,
        redirect: 'manual',
      };
      if (options.body !== undefined && options.body !== null) init.body = options.body as RequestInit['body'];

      const read = async (stream: ReadableStream<Uint8Array>): Promise<void> => {
        reader = stream.getReader();
        if (over) {
          reader.cancel().catch(() => {});
          return;
        }
        try {
          for (;;) {
            if (paused) await new Promise<void>((resume) => (wake = resume));
            wake = undefined;
            if (over) return;
            const chunk = await reader.read();
            if (over) return;
            if (chunk.done) return end(undefined, true);
            armBodyTimer();
            body.push(chunk.value);
          }
        } catch (error) {
          end(error);
        }
      };

      let answer: Promise<Response>;
      try {
        answer = fetchFn(url.href, init);
      } catch (error) {
        end(error);
        return;
      }
      answer.then(
        (response) => {
          if (over) {
            response.body?.cancel().catch(() => {});
            return;
          }
          if (headersTimer !== undefined) clearTimeout(headersTimer);
          headersTimer = undefined;
          started = true;
          // A browser's manual redirect is opaque (status 0): report it as the redirect it is.
          const statusCode = response.type === 'opaqueredirect' ? 302 : response.status;
          resolve({ statusCode, headers: responseHeaders(response.headers), body });
          if (response.body === null) end(undefined, true);
          else {
            armBodyTimer();
            void read(response.body);
          }
        },
        (error: unknown) => end(error),
      );
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  destroy(): Promise<void> {
    return Promise.resolve();
  }
}

/** Request headers as `fetch` takes them: a repeated header's values joined with `, ` (RFC 9110 §5.3). */
function flatRequestHeaders(headers: Record<string, string | string[]>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const key in headers) {
    const value = headers[key]!;
    flat[key] = typeof value === 'string' ? value : value.join(', ');
  }
  return flat;
}

/** Response headers as the transports read them: lower-case names (fetch joins repeated ones). */
function responseHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

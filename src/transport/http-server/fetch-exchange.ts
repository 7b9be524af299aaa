/**
 * The web edge of the server end of HTTP: a fetch `Request` as an {@link HttpRequestIn}, and a
 * {@link ResponseSink} that makes the `Response` (`send`: a whole body; `open`: a
 * `ReadableStream` of UTF-8 text). The client going away — the request's `signal` aborting, or
 * the runtime cancelling the stream — is the sink's `onClose`. Web standards only: Deno, Bun,
 * Workers, Node behind a fetch adapter.
 */
import type { Deadline, DeadlineSet } from '../../protocol/deadline-set.js';
import type { Disposer } from '../../protocol/transport.js';
import { isEventStream, type KeepAliveBeat, type SseKeepAlive } from './sse-keep-alive.js';
import type { HttpRequestIn, Refusal, ResponseSink } from './http-exchange.js';

const encoder = new TextEncoder();
/** The status of a response whose client went away before it was made (nginx's "client closed request"). */
const CLIENT_CLOSED = 499;

/** The refusal of a body that did not arrive within `timeoutMs`. */
function lateRefusal(timeoutMs: number): Refusal {
  return { status: 408, message: `Request Timeout: the body did not arrive within ${timeoutMs} ms` };
}

/** A `Request` as the core reads it. */
export class FetchRequestIn implements HttpRequestIn {
  readonly method: string;
  readonly target: string;

  constructor(readonly raw: Request) {
    this.method = raw.method;
    this.target = targetOf(raw.url);
  }

  /** `host`, which a `Request` made in code does not carry, falls back to the URL's authority. */
  header(name: string): string | undefined {
    const value = this.raw.headers.get(name);
    if (value !== null) return value;
    return name === 'host' ? authorityOf(this.raw.url) : undefined;
  }

  /**
   * The body as UTF-8 text read from `request.body` without buffering past the cap: 413 past
   * `maxBytes` (a declared `content-length` over it is refused before reading), 408 past
   * `timeoutMs`, 400 when the body could not be read.
   */
  async text(maxBytes: number, timeoutMs: number, deadlines: DeadlineSet): Promise<{ text: string } | Refusal> {
    const tooLarge: Refusal = { status: 413, message: `Payload Too Large: the body is over ${maxBytes} bytes` };
    const declared = Number(this.raw.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > maxBytes) return tooLarge;
    // A declared length is the runtime's to hold the body to: read it whole (on a fetch adapter
    // over node:http, a stream reader costs twice the CPU of the whole request).
    if (Number.isFinite(declared)) return this.whole(maxBytes, timeoutMs, deadlines, tooLarge);
    const body = this.raw.body;
    if (!body) return { text: '' };
    const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
    let late = false;
    const deadline: Deadline = {
      due: Infinity,
      expire: () => {
        late = true;
        reader.cancel().catch(() => undefined);
      },
    };
    deadlines.add(deadline, timeoutMs);
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (late) break;
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          reader.cancel().catch(() => undefined);
          return tooLarge;
        }
        chunks.push(value);
      }
    } catch {
      if (!late) return { status: 400, message: 'Bad Request: the body could not be read' };
    } finally {
      deadlines.delete(deadline);
    }
    if (late) return lateRefusal(timeoutMs);
    return { text: decode(chunks, size) };
  }

  /** The body of a declared length, read at once with `Request.text()`, under the same limits. */
  private whole(
    maxBytes: number,
    timeoutMs: number,
    deadlines: DeadlineSet,
    tooLarge: Refusal,
  ): Promise<{ text: string } | Refusal> {
    return new Promise((resolve) => {
      const deadline: Deadline = { due: Infinity, expire: () => resolve(lateRefusal(timeoutMs)) };
      deadlines.add(deadline, timeoutMs);
      this.raw.text().then(
        (text) => {
          deadlines.delete(deadline);
          // A string's UTF-8 length is at least its length and at most three times it.
          const over =
            text.length > maxBytes || (text.length * 3 > maxBytes && encoder.encode(text).byteLength > maxBytes);
          resolve(over ? tooLarge : { text });
        },
        () => {
          deadlines.delete(deadline);
          resolve({ status: 400, message: 'Bad Request: the body could not be read' });
        },
      );
    });
  }
}

/** The response of one request: resolves `response` when the core sends or opens it. */
export class FetchSink implements ResponseSink {
  /** Resolves with the `Response` once its status and headers are known. */
  readonly response: Promise<Response>;
  private resolve!: (response: Response) => void;
  private extra: Record<string, string> | undefined;
  private stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  private ended = false;
  private gone = false;
  private isStarted = false;
  private readonly listeners = new Set<() => void>();
  /** The keep-alive of the SSE stream this response opened, while it runs. */
  private beat: KeepAliveBeat | undefined;

  /** `keepAlive`: where an SSE stream this response opens is kept alive; none: never. */
  constructor(
    signal?: AbortSignal,
    private readonly keepAlive?: SseKeepAlive,
  ) {
    this.response = new Promise((resolve) => (this.resolve = resolve));
    if (signal) {
      if (signal.aborted) this.left();
      else signal.addEventListener('abort', () => this.left(), { once: true });
    }
  }

  get done(): boolean {
    return this.ended || this.gone;
  }

  get started(): boolean {
    return this.isStarted;
  }

  send(status: number, headers: Readonly<Record<string, string>>, body?: string): void {
    if (this.isStarted) return;
    this.isStarted = true;
    this.ended = true;
    this.resolve(
      new Response(body === undefined || noBody(status) ? null : body, { status, headers: this.with(headers) }),
    );
  }

  open(status: number, headers: Readonly<Record<string, string>>): void {
    if (this.isStarted) return;
    this.isStarted = true;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.stream = controller;
      },
      cancel: () => this.left(),
    });
    this.resolve(new Response(stream, { status, headers: this.with(headers) }));
    if (this.keepAlive && isEventStream(headers)) this.beat = this.keepAlive.watch(this);
  }

  write(chunk: string): void {
    if (this.done || !this.stream) return;
    try {
      this.stream.enqueue(encoder.encode(chunk));
      this.beat?.wrote();
    } catch {
      this.left();
    }
  }

  end(): void {
    if (this.done) return;
    this.ended = true;
    this.beat?.ended();
    try {
      this.stream?.close();
    } catch {
      // Already closed by the runtime.
    }
  }

  abort(): void {
    if (this.done) return;
    this.ended = true;
    this.beat?.ended();
    if (this.stream) this.stream.error(new Error('the response was broken off'));
    else this.resolve(Response.error());
  }

  setHeader(name: string, value: string): void {
    if (!this.isStarted) (this.extra ??= {})[name] = value;
  }

  onClose(listener: () => void): Disposer {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The client went away before the response ended: the listeners are told, and a response not
   * yet made resolves as 499 (nobody reads it; the runtime's promise must not hang).
   */
  private left(): void {
    if (this.done) return;
    this.gone = true;
    this.beat?.ended();
    for (const listener of [...this.listeners]) listener();
    this.listeners.clear();
    if (!this.isStarted) {
      this.isStarted = true;
      this.resolve(new Response(null, { status: CLIENT_CLOSED }));
    }
  }

  private with(headers: Readonly<Record<string, string>>): Record<string, string> {
    return this.extra ? { ...headers, ...this.extra } : headers;
  }
}

/** The request target (path and query) of an absolute request URL. */
function targetOf(url: string): string {
  const start = pathStart(url);
  if (start === url.length) return '/';
  const hash = url.indexOf('#', start);
  const target = hash === -1 ? url.slice(start) : url.slice(start, hash);
  return target.startsWith('/') ? target : `/${target}`;
}

/** The `host[:port]` of an absolute URL. */
function authorityOf(url: string): string | undefined {
  const scheme = url.indexOf('://');
  if (scheme === -1) return undefined;
  const authority = url.slice(scheme + 3, pathStart(url));
  const at = authority.lastIndexOf('@');
  return at === -1 ? authority : authority.slice(at + 1);
}

/** Where the path (or the query, or the fragment) of an absolute URL starts. */
function pathStart(url: string): number {
  const scheme = url.indexOf('://');
  const from = scheme === -1 ? 0 : scheme + 3;
  for (let i = from; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x23) return i; // '/', '?', '#'
  }
  return url.length;
}

/** Statuses whose response carries no body. */
function noBody(status: number): boolean {
  return status === 204 || status === 205 || status === 304;
}

function decode(chunks: readonly Uint8Array[], size: number): string {
  if (chunks.length === 1) return new TextDecoder().decode(chunks[0]);
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(all);
}

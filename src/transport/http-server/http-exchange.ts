/**
 * The server end of HTTP as two small interfaces, so one core serves every runtime: what the
 * core reads of a request ({@link HttpRequestIn}) and where it writes the response
 * ({@link ResponseSink}). Each runtime has a thin edge that implements them: Node's
 * `IncomingMessage`/`ServerResponse` (written straight to the socket), and the web's
 * `Request` → `Response` (Deno, Bun, Workers, any framework that speaks `fetch`). Nothing here
 * knows MCP methods, sessions or eras.
 */
import type { DeadlineSet } from '../../protocol/deadline-set.js';
import type { Disposer } from '../../protocol/transport.js';

/** Why a request is refused before it runs: the status and a message that names the header (never its value). */
export interface Refusal {
  status: number;
  message: string;
}

/** The network facts of a request, for observability, when the runtime knows them. */
export interface HttpPeer {
  readonly localAddress?: string;
  readonly localPort?: number;
  readonly remoteAddress?: string;
  readonly remotePort?: number;
}

/** What the core reads of one HTTP request. */
export interface HttpRequestIn {
  /** Upper-case, as sent (`POST`). */
  readonly method: string;
  /** The request target as sent: path and query (`/mcp?x=1`). */
  readonly target: string;
  /** A header's first value, or undefined; `name` is lower-case. */
  header(name: string): string | undefined;
  /**
   * The body as UTF-8 text, read under a byte cap and a time limit (one timer for all bodies:
   * `deadlines`): a refusal with 413 past `maxBytes`, 408 past `timeoutMs`, 400 when the client
   * broke off. Called at most once.
   */
  text(maxBytes: number, timeoutMs: number, deadlines: DeadlineSet): Promise<{ text: string } | Refusal>;
  /** Addresses, when the runtime knows them. */
  readonly peer?: HttpPeer;
}

/**
 * Where the core writes one response: `send` once (a whole answer), or `open` once, then any
 * number of `write`s, then `end` (a stream: SSE). Header names are lower-case. After the
 * response ended or the client went away every call does nothing.
 */
export interface ResponseSink {
  /**
   * The whole response: `body` (UTF-8), or none. With a body the sink sets `content-length`, and
   * may add it to `headers` itself: pass an object made for this response (never a shared one).
   */
  send(status: number, headers: Readonly<Record<string, string>>, body?: string): void;
  /** Starts a streamed response; its status line and headers go out now. */
  open(status: number, headers: Readonly<Record<string, string>>): void;
  /** Writes one chunk of an opened response (SSE frames: `sse-writer.ts`). */
  write(chunk: string): void;
  /** Ends an opened response. */
  end(): void;
  /** Breaks the response off (a failure after its headers went out): the client sees it cut short. */
  abort(): void;
  /** Adds a header to whatever response goes out next (a `DPoP-Nonce`, the CORS headers). */
  setHeader(name: string, value: string): void;
  /** True once the response ended or the client went away. */
  readonly done: boolean;
  /** True once the status line and headers went out (`send` or `open` was called). */
  readonly started: boolean;
  /** Called once when the client goes away before the response ended. */
  onClose(listener: () => void): Disposer;
}

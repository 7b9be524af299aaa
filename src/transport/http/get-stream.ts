/**
 * The legacy (2025-03-26 … 2025-11-25) standalone GET stream: an SSE stream the server may use
 * for messages unrelated to any request. Optional on both sides: 400/404/405 mean the server has
 * none, which is not an error. When the server closes it, the client polls: it reconnects after
 * the last `retry` with `Last-Event-ID` (2025-11-25 "priming event then close").
 */
import { errorMessage } from '../../protocol/errors.js';
import type { LiteResponse } from './http-engine.js';
import { discard, mediaType, pumpSse } from './http-body.js';
import { SseDecoder } from './sse-decoder.js';
import { sleep } from './sleep.js';

/** Failed opens in a row before the stream is given up. */
const MAX_FAILURES = 8;
/** Ceiling of the backoff between failed opens. */
const MAX_BACKOFF_MS = 30_000;

/** What a {@link GetStream} needs from its transport. */
export interface GetStreamHooks {
  open(lastEventId: string | undefined, signal: AbortSignal): Promise<LiteResponse>;
  event(type: string, data: string): void;
  diagnostic(kind: string, message: string): void;
  defaultRetryMs: number;
  maxEventChars: number;
  /** Aborting it stops the stream (the transport's lifetime). */
  parent: AbortSignal;
}

/** One standalone GET stream, kept open (reconnecting) until {@link GetStream.stop} or the parent signal. */
export class GetStream {
  private readonly hooks: GetStreamHooks;
  private readonly controller = new AbortController();
  private readonly signal: AbortSignal;

  constructor(hooks: GetStreamHooks) {
    this.hooks = hooks;
    this.signal = AbortSignal.any([hooks.parent, this.controller.signal]);
  }

  /** Stops the stream and any pending reconnect. Idempotent. */
  stop(): void {
    this.controller.abort();
  }

  /** Runs until stopped, until the server says it has no GET stream, or after repeated failures. Never rejects. */
  async run(): Promise<void> {
    let lastEventId: string | undefined;
    let retryMs: number | undefined;
    let failures = 0;
    while (!this.signal.aborted) {
      let response: LiteResponse;
      try {
        response = await this.hooks.open(lastEventId, this.signal);
      } catch (error) {
        if (this.signal.aborted) return;
        if (!(await this.backoff(++failures, `GET stream failed: ${errorMessage(error)}`))) return;
        continue;
      }
      const { statusCode: status, body } = response;
      if (status === 400 || status === 404 || status === 405) {
        discard(body);
        this.hooks.diagnostic('no-get-stream', `the server offers no GET stream (HTTP ${status})`);
        return;
      }
      if (status < 200 || status >= 300 || mediaType(response.headers) !== 'text/event-stream') {
        discard(body);
        if (status === 401 || status === 403) {
          this.hooks.diagnostic('get-stream-failed', `GET stream refused (HTTP ${status})`);
          return;
        }
        if (!(await this.backoff(++failures, `GET stream answered HTTP ${status}`))) return;
        continue;
      }
      failures = 0;
      const decoder = new SseDecoder(
        {
          event: (event) => this.hooks.event(event.event, event.data),
          retry: (ms) => {
            retryMs = ms;
          },
          oversize: (chars) => this.hooks.diagnostic('oversize', `dropped a GET-stream event of ${chars} characters`),
        },
        { maxEventChars: this.hooks.maxEventChars, ...(lastEventId !== undefined ? { lastEventId } : {}) },
      );
      const stopped = (): boolean => this.signal.aborted;
      const onAbort = (): void => void body.destroy();
      this.signal.addEventListener('abort', onAbort, { once: true });
      await pumpSse(body, decoder, stopped, false);
      this.signal.removeEventListener('abort', onAbort);
      lastEventId = decoder.lastEventId;
      if (!(await sleep(retryMs ?? this.hooks.defaultRetryMs, this.signal))) return;
    }
  }

  private async backoff(failures: number, message: string): Promise<boolean> {
    if (failures > MAX_FAILURES) {
      this.hooks.diagnostic('get-stream-failed', `${message}; gave up after ${MAX_FAILURES} attempts`);
      return false;
    }
    this.hooks.diagnostic('get-stream-retry', message);
    return sleep(Math.min(MAX_BACKOFF_MS, this.hooks.defaultRetryMs * 2 ** (failures - 1)), this.signal);
  }
}

/**
 * Live export of spans to an OTLP/HTTP receiver (`POST {endpoint}/v1/traces`, JSON body from
 * {@link otlpTraceRequest}): what `--otlp-endpoint` runs beside the traced traffic.
 *
 * Contracts:
 * - Never in the traffic's way: {@link OtlpHttpExporter.push} only queues; batches go out one at
 *   a time in the background (every `maxBatch` spans, or `flushIntervalMs` after the first span
 *   queued), each bounded by `requestTimeoutMs`. Nothing here throws or rejects.
 * - Bounded: at most `maxQueue` spans wait; beyond that, and for every batch the receiver did not
 *   take (an error, a status other than 2xx, a timeout), spans are dropped and counted. The first
 *   failure is reported once through `onNote`; {@link OtlpHttpExporter.close} reports the count.
 * - `close(graceMs)` sends what is queued and returns within `graceMs` (default 2 s) even when
 *   the receiver hangs: whatever is still in flight then is aborted and counted as dropped.
 * - Notes name the endpoint with credentials redacted and never a header value.
 */
import http from 'node:http';
import https from 'node:https';
import { redactUrl } from '../../util/redact.js';
import type { McpSpan } from './mcp-span.js';
import { otlpTraceRequest } from './otlp-json.js';

export interface OtlpExporterOptions {
  /** The receiver: a URL with a path is used as is; one without (`http://host:4318`) gets `/v1/traces`. */
  endpoint: string;
  /** Sent with every request (e.g. an API key); never printed. */
  headers?: Record<string, string>;
  /** Spans per request (default 256). */
  maxBatch?: number;
  /** How long a partial batch waits for more (default 1000 ms). */
  flushIntervalMs?: number;
  /** Spans waiting at most (default 4096); more are dropped. */
  maxQueue?: number;
  /** How long one request may take (default 5000 ms). */
  requestTimeoutMs?: number;
  /** Where notes go (the CLI: stderr). */
  onNote?: (note: string) => void;
}

/** The traces URL of an endpoint: `/v1/traces` appended when it has no path. */
export function tracesUrl(endpoint: string): URL {
  const url = new URL(endpoint);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`an OTLP endpoint is an http: or https: URL, not ${url.protocol}`);
  if (url.pathname === '' || url.pathname === '/') url.pathname = '/v1/traces';
  return url;
}

export class OtlpHttpExporter {
  /** Where spans go. */
  readonly url: URL;
  private readonly shown: string;
  private readonly headers: Record<string, string>;
  private readonly maxBatch: number;
  private readonly flushIntervalMs: number;
  private readonly maxQueue: number;
  private readonly requestTimeoutMs: number;
  private readonly note: (note: string) => void;
  private readonly agent: http.Agent;
  private readonly requests = new Set<http.ClientRequest>();
  private queue: McpSpan[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private closed = false;
  private failureNoted = false;
  private counts = { exported: 0, dropped: 0 };

  /** Throws a `TypeError` when `endpoint` is not an http(s) URL. */
  constructor(options: OtlpExporterOptions) {
    this.url = tracesUrl(options.endpoint);
    this.shown = redactUrl(this.url);
    this.headers = { ...options.headers };
    this.maxBatch = options.maxBatch ?? 256;
    this.flushIntervalMs = options.flushIntervalMs ?? 1_000;
    this.maxQueue = options.maxQueue ?? 4_096;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 5_000;
    this.note = options.onNote ?? (() => {});
    this.agent =
      this.url.protocol === 'https:' ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  }

  /** Spans exported (the receiver answered 2xx) and dropped so far. */
  get stats(): { exported: number; dropped: number; queued: number } {
    return { ...this.counts, queued: this.queue.length };
  }

  /** Queues `spans` for export; drops (and counts) what does not fit or comes after close. */
  push(spans: readonly McpSpan[]): void {
    if (spans.length === 0) return;
    if (this.closed) {
      this.counts.dropped += spans.length;
      return;
    }
    const room = Math.max(0, this.maxQueue - this.queue.length);
    if (spans.length > room) this.drop(spans.length - room, `more than ${this.maxQueue} spans waiting`);
    this.queue.push(...spans.slice(0, room));
    if (this.queue.length >= this.maxBatch) this.kick();
    else this.arm();
  }

  /**
   * Sends what is queued and stops; resolves within `graceMs` whatever the receiver does, then
   * notes how many spans were dropped, if any. Idempotent.
   */
  async close(graceMs = 2_000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.disarm();
    const deadline = performance.now() + graceMs;
    while (this.inFlight !== undefined || this.queue.length > 0) {
      const left = deadline - performance.now();
      if (left <= 0) break;
      this.kick();
      await raceTimeout(this.inFlight, left);
    }
    if (this.queue.length > 0) this.drop(this.queue.splice(0).length, 'still queued at exit');
    for (const request of this.requests) request.destroy(new Error(`not answered within ${graceMs} ms of exit`));
    await this.inFlight;
    this.agent.destroy();
    if (this.counts.dropped > 0)
      this.note(`${this.counts.dropped} span(s) not exported to ${this.shown} (${this.counts.exported} exported)`);
  }

  private arm(): void {
    if (this.timer !== undefined || this.inFlight !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.kick();
    }, this.flushIntervalMs);
    // Spans waiting never keep the process alive: close() sends them.
    this.timer.unref();
  }

  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Starts the next batch unless one is in flight. */
  private kick(): void {
    if (this.inFlight !== undefined || this.queue.length === 0) return;
    this.disarm();
    const batch = this.queue.splice(0, this.maxBatch);
    this.inFlight = this.send(batch).then(() => {
      this.inFlight = undefined;
      if (this.closed) return;
      if (this.queue.length >= this.maxBatch) this.kick();
      else if (this.queue.length > 0) this.arm();
    });
  }

  /** POSTs one batch; resolves (never rejects) when it was taken, refused or given up. */
  private async send(batch: McpSpan[]): Promise<void> {
    const body = JSON.stringify(otlpTraceRequest(batch));
    let outcome = await this.post(body);
    // A kept-alive socket the receiver had closed meanwhile: Node's advice is to try once more.
    if (outcome.staleSocket && !this.closed) outcome = await this.post(body);
    if (outcome.failure === undefined) this.counts.exported += batch.length;
    else this.drop(batch.length, outcome.failure);
  }

  /** One POST: its failure, if any, and whether it failed on a reused socket before any answer. */
  private post(body: string): Promise<{ failure?: string; staleSocket?: boolean }> {
    const client = this.url.protocol === 'https:' ? https : http;
    return new Promise((resolve) => {
      let settled = false;
      const settle = (failure?: string, staleSocket = false) => {
        if (settled) return;
        settled = true;
        this.requests.delete(request);
        resolve(failure === undefined ? {} : { failure, staleSocket });
      };
      const request = client.request(this.url, {
        method: 'POST',
        agent: this.agent,
        timeout: this.requestTimeoutMs,
        headers: { ...this.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      this.requests.add(request);
      request.on('timeout', () => request.destroy(new Error(`no answer within ${this.requestTimeoutMs} ms`)));
      request.on('error', (error: NodeJS.ErrnoException) =>
        settle(error.message, request.reusedSocket && error.code === 'ECONNRESET'),
      );
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        response.resume();
        response.on('error', (error) => settle(error.message));
        response.on('end', () => settle(status >= 200 && status < 300 ? undefined : `answered HTTP ${status}`));
        response.on('close', () => settle(response.complete ? undefined : 'the answer was cut off'));
      });
      request.end(body);
    });
  }

  private drop(count: number, reason: string): void {
    this.counts.dropped += count;
    if (this.failureNoted) return;
    this.failureNoted = true;
    this.note(`OTLP export to ${this.shown} failed (${reason}); spans are dropped while it fails`);
  }
}

/** Waits for `promise` or `ms`, whichever comes first; the timer never outlives the wait. */
async function raceTimeout(promise: Promise<void> | undefined, ms: number): Promise<void> {
  if (promise === undefined) return;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

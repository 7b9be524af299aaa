/**
 * A small OTLP/HTTP receiver on 127.0.0.1 (port 0) for tests: it takes `POST /v1/traces` and
 * `POST /v1/metrics` with JSON bodies (gzip too), keeps what they carried, and answers `200 {}`.
 * No collector can be installed here (see ../shared/research/observability.md); this is the
 * ~50 lines that stand in for one. `hang: true` makes it take requests and never answer (an
 * endpoint that hangs); `status` answers with another status instead of 200; `cors` lets a browser
 * page on another origin export to it (what a collector's `cors.allowed_origins` does).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { onTestFinished } from 'vitest';

/** An OTLP/JSON attribute value. `intValue` is a decimal string or a number, as senders differ. */
export interface ReceivedValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: ReceivedValue[] };
}
export interface ReceivedKeyValue {
  key: string;
  value: ReceivedValue;
}

/** One span as received, with its resource's and scope's facts beside it. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: ReceivedKeyValue[];
  status?: { code?: number; message?: string };
  resource: ReceivedKeyValue[];
  scope: { name?: string; version?: string };
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:PORT` (no path: OTLP senders add `/v1/traces`). */
  url: string;
  /** Every span received so far, in arrival order. */
  spans(): ReceivedSpan[];
  /** Every `resourceMetrics[]` item received so far. */
  metrics(): unknown[];
  /** Requests received (path and lower-case headers), answered or not. */
  requests(): Array<{ path: string; headers: http.IncomingHttpHeaders }>;
  /** The spans once `predicate(spans)` holds; rejects after `timeoutMs` (default 15 s), naming what came. */
  waitForSpans(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  /** Stops listening and drops every connection (hanging ones too). Idempotent. */
  close(): Promise<void>;
}

export interface OtlpReceiverOptions {
  /** Take requests and never answer them. */
  hang?: boolean;
  /** Answer with this status (default 200). */
  status?: number;
  /** Answer CORS preflights and allow every origin, as a collector with `cors.allowed_origins: ['*']`. */
  cors?: boolean;
}

/** Attributes as a plain object (`intValue` as a number). */
export function attributesOf(list: readonly ReceivedKeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) {
    if (value.stringValue !== undefined) out[key] = value.stringValue;
    else if (value.intValue !== undefined) out[key] = Number(value.intValue);
    else if (value.doubleValue !== undefined) out[key] = value.doubleValue;
    else if (value.boolValue !== undefined) out[key] = value.boolValue;
    else out[key] = value;
  }
  return out;
}

interface TraceBody {
  resourceSpans?: Array<{
    resource?: { attributes?: ReceivedKeyValue[] };
    scopeSpans?: Array<{ scope?: ReceivedSpan['scope']; spans?: Array<Omit<ReceivedSpan, 'resource' | 'scope'>> }>;
  }>;
}

/** A receiver; the caller closes it (see {@link startOtlpReceiver} for one closed with the test). */
export async function listenOtlpReceiver(options: OtlpReceiverOptions = {}): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const metrics: unknown[] = [];
  const requests: Array<{ path: string; headers: http.IncomingHttpHeaders }> = [];
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    if (options.cors) {
      res.setHeader('access-control-allow-origin', '*');
      if (req.method === 'OPTIONS') {
        res
          .writeHead(204, {
            'access-control-allow-methods': 'POST',
            'access-control-allow-headers': req.headers['access-control-request-headers'] ?? 'content-type',
            'access-control-max-age': '600',
          })
          .end();
        return;
      }
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', headers: req.headers });
      if (req.method !== 'POST' || (req.url !== '/v1/traces' && req.url !== '/v1/metrics')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      let body: unknown;
      try {
        const raw = Buffer.concat(chunks);
        const text = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
        body = JSON.parse(text);
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"not JSON"}');
        return;
      }
      if (req.url === '/v1/traces') {
        for (const resourceSpans of (body as TraceBody).resourceSpans ?? [])
          for (const scopeSpans of resourceSpans.scopeSpans ?? [])
            for (const span of scopeSpans.spans ?? [])
              spans.push({
                ...span,
                resource: resourceSpans.resource?.attributes ?? [],
                scope: scopeSpans.scope ?? {},
              });
      } else metrics.push(...((body as { resourceMetrics?: unknown[] }).resourceMetrics ?? []));
      for (const wake of waiters) wake();
      if (options.hang) return;
      res.writeHead(options.status ?? 200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => [...spans],
    metrics: () => [...metrics],
    requests: () => [...requests],
    waitForSpans(predicate, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(spans)) return;
          finish();
          resolve([...spans]);
        };
        const timer = setTimeout(() => {
          finish();
          reject(
            new Error(
              `the OTLP receiver did not get the awaited spans within ${timeoutMs} ms; it has ${spans.length}: ${spans.map((s) => s.name).join(', ')}`,
            ),
          );
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}

/** {@link listenOtlpReceiver} for one test (call it inside the test): closed when the test finishes. */
export async function startOtlpReceiver(options?: OtlpReceiverOptions): Promise<OtlpReceiver> {
  const receiver = await listenOtlpReceiver(options);
  onTestFinished(() => receiver.close());
  return receiver;
}

/**
 * The live OTLP/HTTP exporter on its own, with the spans of a recorded trace and a real receiver:
 * it sends in batches, keeps a bounded queue, counts what it drops and says so once, and its
 * close gives up on a receiver that hangs.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OtlpHttpExporter, tracesUrl } from '../src/inspect/export/otlp-http-exporter.js';
import { spansOfTrace } from '../src/inspect/export/trace-spans.js';
import { readTrace } from '../src/inspect/trace/read-trace.js';
import { ROOT } from './support/cli.js';
import { startOtlpReceiver } from './support/otlp-receiver.js';

async function recordedSpans(count: number) {
  const { records } = await readTrace(path.join(ROOT, 'spec-fixtures/traces/clean-legacy.jsonl'));
  const spans = spansOfTrace(records).flatMap((session) => session.spans);
  expect(spans.length).toBeGreaterThanOrEqual(count);
  return spans.slice(0, count);
}

describe('OtlpHttpExporter', () => {
  it('sends full batches at once and the rest at close, every span exactly once', async () => {
    const receiver = await startOtlpReceiver();
    const spans = await recordedSpans(25);
    const notes: string[] = [];
    const exporter = new OtlpHttpExporter({
      endpoint: receiver.url,
      maxBatch: 10,
      flushIntervalMs: 60_000,
      onNote: (note) => notes.push(note),
    });
    exporter.push(spans);
    await receiver.waitForSpans((all) => all.length === 20);
    await exporter.close();
    expect(receiver.requests().map((r) => r.path)).toEqual(['/v1/traces', '/v1/traces', '/v1/traces']);
    expect(receiver.spans().map((s) => s.spanId)).toEqual(spans.map((s) => s.spanId));
    expect(exporter.stats).toEqual({ exported: 25, dropped: 0, queued: 0 });
    expect(notes).toEqual([]);
  });

  it('drops what does not fit its queue, notes the first failure once and the count at close', async () => {
    const receiver = await startOtlpReceiver({ hang: true });
    const notes: string[] = [];
    const exporter = new OtlpHttpExporter({
      endpoint: receiver.url,
      maxQueue: 10,
      maxBatch: 100,
      flushIntervalMs: 60_000,
      onNote: (note) => notes.push(note),
    });
    exporter.push(await recordedSpans(25));
    expect(exporter.stats).toEqual({ exported: 0, dropped: 15, queued: 10 });
    // The receiver never answers the last batch: close gives up on it after its grace.
    await exporter.close(300);
    expect(exporter.stats).toEqual({ exported: 0, dropped: 25, queued: 0 });
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(
      /^OTLP export to http:\/\/127\.0\.0\.1:\d+\/v1\/traces failed \(more than 10 spans waiting\)/,
    );
    expect(notes[1]).toMatch(/^25 span\(s\) not exported to http:\/\/127\.0\.0\.1:\d+\/v1\/traces \(0 exported\)$/);
    exporter.push(await recordedSpans(1));
    expect(exporter.stats.dropped).toBe(26);
  });

  it('counts a batch the receiver refuses as dropped, naming the status', async () => {
    const receiver = await startOtlpReceiver({ status: 503 });
    const notes: string[] = [];
    const exporter = new OtlpHttpExporter({ endpoint: receiver.url, onNote: (note) => notes.push(note) });
    exporter.push(await recordedSpans(3));
    await exporter.close();
    expect(exporter.stats).toEqual({ exported: 0, dropped: 3, queued: 0 });
    expect(notes[0]).toMatch(/failed \(answered HTTP 503\)/);
  });

  it('posts to /v1/traces when the endpoint has no path, and to the given path otherwise', () => {
    expect(tracesUrl('http://127.0.0.1:4318').href).toBe('http://127.0.0.1:4318/v1/traces');
    expect(tracesUrl('http://127.0.0.1:4318/').href).toBe('http://127.0.0.1:4318/v1/traces');
    expect(tracesUrl('https://otel.example/api/otlp/traces').href).toBe('https://otel.example/api/otlp/traces');
    expect(() => tracesUrl('ftp://otel.example')).toThrow(/http: or https:/);
    expect(() => tracesUrl('not a url')).toThrow();
  });
});

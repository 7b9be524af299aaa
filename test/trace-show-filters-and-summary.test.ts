/**
 * What `mcpwire trace show` builds on: readTrace (bad lines reported by number, other format
 * versions skipped with a note, files and text alike), filterTrace (method with `*`, id, server,
 * errors only; batches by their items) and summarizeTrace/formatSummary (per server and method:
 * counts, errors, latency percentiles, bytes each way; aligned plain text).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isMcpError } from '../src/protocol/errors.js';
import { filterTrace, matchesFilter, parseTrace, readTrace } from '../src/inspect/trace/read-trace.js';
import type { TraceRecord } from '../src/observe/trace-record.js';
import { formatSummary, latencyStats, summarizeTrace } from '../src/inspect/trace/trace-summary.js';

const TRACES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../spec-fixtures/traces');

/** A record with the fields every record has; `extra` sets the rest. */
function rec(
  server: string,
  dir: 'out' | 'in',
  kind: TraceRecord['kind'],
  extra: Partial<TraceRecord> = {},
): TraceRecord {
  return { v: 1, ts: '2026-08-01T00:00:00.000Z', t: 0, server, dir, kind, bytes: 0, ...extra };
}

describe('readTrace', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-trace-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a recorded file: every line a record, lines numbered from 1', async () => {
    const { records, lines, problems } = await readTrace(path.join(TRACES, 'clean-modern.jsonl'));
    expect(problems).toEqual([]);
    expect(lines).toEqual(records.map((_, i) => i + 1));
    expect(records[0]).toMatchObject({ v: 1, server: 'modern', kind: 'event', event: 'spawn' });
  });

  it('reports bad lines by number and keeps reading; blank lines and CRLF are fine', async () => {
    const good = JSON.stringify(rec('fs', 'out', 'notification', { method: 'notifications/initialized' }));
    const text = [
      good,
      '',
      '{"v":1,"server":"fs"',
      '[1,2]',
      JSON.stringify({ ...rec('fs', 'in', 'event'), v: 2 }),
      JSON.stringify({ server: 'fs' }),
      JSON.stringify({ ...rec('fs', 'in', 'event'), dir: 'sideways' }),
      `${good}\r`,
      '',
    ].join('\n');
    const fromText = await readTrace({ text });
    const file = path.join(dir, 'mixed.jsonl');
    writeFileSync(file, text);
    const fromFile = await readTrace(file);
    for (const result of [fromText, fromFile, parseTrace(text)]) {
      expect(result.records).toHaveLength(2);
      expect(result.lines).toEqual([1, 8]);
      expect(result.problems.map((p) => [p.line, p.kind])).toEqual([
        [3, 'invalid-json'],
        [4, 'not-a-record'],
        [5, 'other-version'],
        [6, 'not-a-record'],
        [7, 'not-a-record'],
      ]);
    }
    expect(fromText.problems[2]!.message).toBe('record of format version 2 skipped (this reader knows version 1)');
    expect(fromText.problems[4]!.message).toBe('field "dir" must be "out" or "in"');
  });

  it('rejects with INVALID_ARGUMENT for a file that cannot be read, and with the reason when aborted', async () => {
    const missing = path.join(dir, 'missing.jsonl');
    const error = await readTrace(missing).catch((e: unknown) => e);
    expect(isMcpError(error, 'INVALID_ARGUMENT')).toBe(true);
    expect((error as Error).message).toContain(missing);
    const reason = new Error('stop');
    await expect(
      readTrace(path.join(TRACES, 'clean-legacy.jsonl'), { signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
  });
});

describe('filterTrace', () => {
  const records: TraceRecord[] = [
    rec('fs', 'out', 'request', {
      id: 1,
      method: 'tools/call',
      message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'a' } },
    }),
    rec('fs', 'in', 'response', {
      id: 1,
      method: 'tools/call',
      message: { jsonrpc: '2.0', id: 1, result: { content: [], isError: true } },
    }),
    rec('git', 'out', 'request', {
      id: '1',
      method: 'tools/list',
      message: { jsonrpc: '2.0', id: '1', method: 'tools/list' },
    }),
    rec('git', 'in', 'error', {
      id: '1',
      method: 'tools/list',
      message: { jsonrpc: '2.0', id: '1', error: { code: -32601, message: 'no' } },
    }),
    rec('git', 'out', 'batch', {
      message: [{ jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: 'x' } }],
    }),
    rec('git', 'in', 'invalid', { raw: 'junk' }),
    rec('git', 'in', 'event', { event: 'exit', detail: { code: 0 } }),
  ];
  const indices = (filter: Parameters<typeof filterTrace>[1]) =>
    filterTrace(records, filter).map((r) => records.indexOf(r));

  it('selects by exact method, or a pattern with *', () => {
    expect(indices({ method: 'tools/call' })).toEqual([0, 1]);
    expect(indices({ method: 'tools/*' })).toEqual([0, 1, 2, 3]);
    expect(indices({ method: 'resources/*' })).toEqual([4]);
    expect(indices({ method: 'tools.call' })).toEqual([]);
  });

  it('selects by id as text, by server, and by trouble', () => {
    expect(indices({ id: 1 })).toEqual([0, 1, 2, 3]);
    expect(indices({ id: '7' })).toEqual([4]);
    expect(indices({ server: 'fs' })).toEqual([0, 1]);
    expect(indices({ errors: true })).toEqual([1, 3, 5]);
    expect(indices({ errors: true, server: 'git', method: 'tools/list' })).toEqual([3]);
    expect(indices({})).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('offers the same test as a predicate', () => {
    expect(records.filter(matchesFilter({ server: 'git', errors: true }))).toEqual([records[3], records[5]]);
  });

  it('finds the errors of a real trace, and not the refused era probe (negotiation)', async () => {
    const { records: legacy } = await readTrace(path.join(TRACES, 'clean-legacy.jsonl'));
    const errors = filterTrace(legacy, { errors: true });
    expect(errors.map((r) => [r.kind, r.method])).toEqual([
      ['response', 'tools/call'],
      ['error', 'resources/read'],
    ]);
  });
});

describe('summarizeTrace', () => {
  const records: TraceRecord[] = [
    rec('fs', 'out', 'event', { t: 0, event: 'spawn' }),
    ...[4, 1, 3, 2, 10].flatMap((latency, i) => [
      rec('fs', 'out', 'request', { t: 1 + i, id: i, method: 'tools/call', bytes: 100 }),
      rec('fs', 'in', i === 4 ? 'error' : 'response', {
        t: 1 + i,
        id: i,
        method: 'tools/call',
        bytes: 50,
        latencyMs: latency,
      }),
    ]),
    rec('fs', 'in', 'notification', { t: 8, method: 'notifications/progress', bytes: 30 }),
    rec('fs', 'in', 'response', { t: 9, id: 99, bytes: 20, protocolVersion: '2025-11-25' }),
    rec('git', 'out', 'request', { t: 10, id: 1, method: 'tools/list', bytes: 40 }),
    rec('git', 'in', 'response', {
      t: 12,
      id: 1,
      method: 'tools/list',
      bytes: 2048,
      latencyMs: 0.5,
      message: { jsonrpc: '2.0', id: 1, result: { tools: [] } },
    }),
    rec('git', 'in', 'invalid', { t: 13, bytes: 7, raw: 'garbage' }),
  ];

  it('counts, errors, latency and bytes per server and method', () => {
    const summary = summarizeTrace(records);
    expect(summary.records).toBe(records.length);
    expect(summary.spanMs).toBe(13);
    expect(summary.servers.map((s) => s.server)).toEqual(['fs', 'git']);
    const [fs, git] = summary.servers;
    expect(fs).toMatchObject({ revision: '2025-11-25', frames: 12, events: 1, errors: 1, bytesOut: 500, bytesIn: 300 });
    expect(fs!.methods).toEqual([
      {
        method: 'tools/call',
        count: 5,
        errors: 1,
        bytesOut: 500,
        bytesIn: 250,
        latency: { count: 5, min: 1, p50: 3, p95: 10, max: 10, mean: 4 },
      },
      { method: 'notifications/progress', count: 1, errors: 0, bytesOut: 0, bytesIn: 30 },
      { method: '(unmatched)', count: 0, errors: 0, bytesOut: 0, bytesIn: 20 },
    ]);
    expect(git!.methods.map((m) => [m.method, m.count, m.bytesIn])).toEqual([
      ['(invalid)', 1, 7],
      ['tools/list', 1, 2048],
    ]);
    expect(git!.latency).toEqual({ count: 1, min: 0.5, p50: 0.5, p95: 0.5, max: 0.5, mean: 0.5 });
  });

  it('uses nearest-rank percentiles', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(latencyStats(samples)).toEqual({ count: 100, min: 1, p50: 50, p95: 95, max: 100, mean: 50.5 });
    expect(latencyStats([])).toBeUndefined();
  });

  it('formats aligned plain-text lines', () => {
    const lines = formatSummary(summarizeTrace(records));
    expect(lines).toEqual([
      'server  method                  count  errors     min     p50     p95     max    mean   out      in',
      'fs      tools/call                  5       1  1.00ms  3.00ms  10.0ms  10.0ms  4.00ms  500B    250B',
      'fs      notifications/progress      1       0       -       -       -       -       -    0B     30B',
      'fs      (unmatched)                 0       0       -       -       -       -       -    0B     20B',
      'fs      (all)                       6       1  1.00ms  3.00ms  10.0ms  10.0ms  4.00ms  500B    300B',
      'git     (invalid)                   1       0       -       -       -       -       -    0B      7B',
      'git     tools/list                  1       0  0.50ms  0.50ms  0.50ms  0.50ms  0.50ms   40B  2.0KiB',
      'git     (all)                       2       0  0.50ms  0.50ms  0.50ms  0.50ms  0.50ms   40B  2.0KiB',
      'fs: revision 2025-11-25, 12 frames, 1 event',
      'git: revision unknown, 3 frames, 0 events',
      '16 records over 13.0ms',
    ]);
    // Every table row is as wide as the header; no colour codes.
    const table = lines.slice(0, 8);
    expect(new Set(table.map((l) => l.length)).size).toBe(1);
    expect(lines.join('\n')).not.toMatch(/\u001b\[/);
  });

  it('summarises a recorded trace of real traffic', async () => {
    const { records: modern } = await readTrace(path.join(TRACES, 'clean-modern.jsonl'));
    const [server] = summarizeTrace(modern).servers;
    expect(server).toMatchObject({ server: 'modern', revision: '2026-07-28' });
    const call = server!.methods.find((m) => m.method === 'tools/call')!;
    expect(call.count).toBe(13);
    expect(call.errors).toBe(1); // the `fails` tool: isError
    expect(call.latency!.count).toBe(13);
    expect(call.latency!.min).toBeLessThanOrEqual(call.latency!.p50);
    expect(call.latency!.p95).toBeLessThanOrEqual(call.latency!.max);
    expect(call.bytesOut).toBeGreaterThan(0);
    expect(call.bytesIn).toBeGreaterThan(0);
  });
});

/**
 * The era probe is negotiation, not an error (issue 25, item 2), in traces whose recorder did not
 * mark it (older files, other recorders): a `server/discover` refused with an error (over stdio
 * -32601; over HTTP a 400 whose error has id null, or a status alone) or left unanswered, then
 * `initialize`. The reader recognises it: not in error counts, `--errors`, the report's error
 * list or `status=error` rows, nor in per-method error rates; shown as `negotiation`. A real
 * error to `server/discover` with no `initialize` after it stays an error.
 */
import { describe, expect, it } from 'vitest';
import { buildReport } from '../src/inspect/report/report-model.js';
import { filterTrace, parseTrace } from '../src/inspect/trace/read-trace.js';
import { summarizeTrace } from '../src/inspect/trace/trace-summary.js';
import { latencyTable } from '../src/inspect/trace/trace-stats.js';
import { pairCalls } from '../src/inspect/trace/trace-calls.js';
import type { TraceHttp, TraceRecord } from '../src/observe/trace-record.js';

const START = Date.UTC(2026, 10, 27, 10, 0, 0);

/** An unmarked recording of one session: what an older mcpwire or another recorder wrote. */
function session(name: string, frames: Array<[dir: 'out' | 'in', message: Record<string, unknown>, http?: TraceHttp]>) {
  return frames.map(([dir, message, http], i): TraceRecord => {
    const kind =
      'method' in message ? ('id' in message ? 'request' : 'notification') : 'error' in message ? 'error' : 'response';
    const id = message.id;
    return {
      v: 1,
      ts: new Date(START + i * 10).toISOString(),
      t: i * 10,
      server: name,
      session: name,
      dir,
      kind,
      bytes: 10,
      ...(typeof id === 'number' ? { id } : {}),
      ...(typeof message.method === 'string' ? { method: message.method } : {}),
      message: { jsonrpc: '2.0', ...message },
      ...(http ? { http } : {}),
    };
  });
}

const discover = { id: 1, method: 'server/discover', params: {} };
const initialize = { id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25' } };
const initialized = { id: 2, result: { protocolVersion: '2025-11-25', capabilities: {} } };
const post = (status?: number): TraceHttp => ({
  method: 'POST',
  url: 'http://127.0.0.1:1/mcp',
  ...(status ? { status } : {}),
});

/** Three legacy sessions that refuse or ignore the probe, and one real error without a handshake after it. */
function trace(): string {
  const records = [
    ...session('stdio-legacy', [
      ['out', discover],
      ['in', { id: 1, error: { code: -32601, message: 'Method not found' } }],
      ['out', initialize],
      ['in', initialized],
    ]),
    ...session('http-legacy', [
      ['out', discover, post()],
      ['in', { id: null, error: { code: -32000, message: 'Bad Request: Server not initialized' } }, post(400)],
      ['out', initialize, post()],
      ['in', initialized, post(200)],
    ]),
    ...session('silent-legacy', [
      ['out', discover],
      ['out', initialize],
      ['in', initialized],
    ]),
    ...session('broken-modern', [
      ['out', discover],
      ['in', { id: 1, error: { code: -32603, message: 'Internal error' } }],
    ]),
  ];
  return records.map((r) => JSON.stringify(r)).join('\n');
}

describe('reading a trace whose recorder did not mark the era probe', () => {
  it('marks the refused or ignored probe as negotiation, and matches the error with id null to it', () => {
    const { records } = parseTrace(trace());
    const probes = records.filter((r) => r.method === 'server/discover' || r.answers !== undefined);
    expect(probes.map((r) => [r.server, r.kind, r.negotiation ?? false])).toEqual([
      ['stdio-legacy', 'request', true],
      ['stdio-legacy', 'error', true],
      ['http-legacy', 'request', true],
      ['http-legacy', 'error', true],
      ['silent-legacy', 'request', true],
      ['broken-modern', 'request', false],
      ['broken-modern', 'error', false],
    ]);
    expect(records.find((r) => r.server === 'http-legacy' && r.kind === 'error')).toMatchObject({
      answers: 1,
      method: 'server/discover',
    });
    const { calls, orphans } = pairCalls(records);
    expect(orphans).toEqual([]);
    expect(calls.filter((c) => c.method === 'server/discover').map((c) => [c.server, c.status])).toEqual([
      ['stdio-legacy', 'negotiation'],
      ['http-legacy', 'negotiation'],
      ['silent-legacy', 'negotiation'],
      ['broken-modern', 'error'],
    ]);
  });

  it('leaves negotiation out of error counts, --errors, error rates and the error list; the report shows it apart', () => {
    const { records } = parseTrace(trace());
    expect(filterTrace(records, { errors: true }).map((r) => r.server)).toEqual(['broken-modern']);
    const summary = summarizeTrace(records);
    expect(summary.servers.map((s) => [s.server, s.errors])).toEqual([
      ['stdio-legacy', 0],
      ['http-legacy', 0],
      ['silent-legacy', 0],
      ['broken-modern', 1],
    ]);
    expect(summary.servers[1]!.methods.map((m) => m.method)).not.toContain('(unmatched)');

    const rates = latencyTable(pairCalls(records).calls).methods.filter((m) => m.method === 'server/discover');
    expect(rates.map((m) => [m.server, m.errors, m.errorRate, m.unanswered, m.negotiation])).toEqual([
      ['stdio-legacy', 0, 0, 0, 1],
      ['http-legacy', 0, 0, 0, 1],
      ['silent-legacy', 0, 0, 0, 1],
      ['broken-modern', 1, 1, 0, 0],
    ]);

    const report = buildReport(records, 'unmarked.jsonl');
    expect(report.summary).toMatchObject({ errors: 1, negotiation: 3, open: 0, orphans: 0, duplicates: 0 });
    // The page's error list and its status=error filter take the rows whose status is `error`.
    expect(report.errors.map((i) => report.lanes[report.rows[i]!.lane]!.server)).toEqual(['broken-modern']);
    const silent = report.rows.find((r) => r.k === 'call' && r.m === 'server/discover' && r.lane === 2)!;
    // Ignored: its bar ends where the client moved on (initialize), not at the end of the lane.
    expect(silent).toMatchObject({ st: 'negotiation', ge: 10 });
    expect(silent.d).toBeUndefined();
  });
});

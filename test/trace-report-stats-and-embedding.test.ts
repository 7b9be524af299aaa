/**
 * The figures behind `trace report` and `trace show --json`: nearest-rank percentiles, error
 * rates per method and per tool, the pairing of requests and answers by session, id and
 * direction (orphans, duplicate ids, late answers, progress and cancels tied to their call);
 * and the page itself: its data survives any string (a `</script>` breakout, U+2028) as data,
 * and its policy admits exactly its own script.
 */
import { createHash } from 'node:crypto';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { embedJson } from '../src/inspect/report/embed-json.js';
import { PAGE_SCRIPT } from '../src/inspect/report/page-script.js';
import { renderReport } from '../src/inspect/report/report-html.js';
import { buildReport } from '../src/inspect/report/report-model.js';
import { pairCalls } from '../src/inspect/trace/trace-calls.js';
import { latencyTable, nearestRank } from '../src/inspect/trace/trace-stats.js';
import type { TraceRecord } from '../src/observe/trace-record.js';

let clock = 0;
/** A record of session `s1` of server `fs` at the next millisecond, with `message` as its frame. */
function frame(dir: 'out' | 'in', message: Record<string, unknown>, extra: Partial<TraceRecord> = {}): TraceRecord {
  clock += 1;
  const kind =
    'method' in message ? ('id' in message ? 'request' : 'notification') : 'error' in message ? 'error' : 'response';
  return {
    v: 1,
    ts: new Date(Date.UTC(2026, 10, 27, 10, 0, 0) + clock).toISOString(),
    t: clock,
    server: 'fs',
    session: 's1',
    dir,
    kind,
    bytes: JSON.stringify(message).length,
    ...(typeof message.id === 'number' || typeof message.id === 'string' ? { id: message.id } : {}),
    ...(typeof message.method === 'string' ? { method: message.method } : {}),
    message: { jsonrpc: '2.0', ...message },
    ...extra,
  };
}
const call = (id: number | string, name: string, meta: Record<string, unknown> = {}) =>
  frame('out', { id, method: 'tools/call', params: { name, arguments: {}, _meta: meta } });
const ok = (id: number | string, latencyMs: number, result: Record<string, unknown> = { content: [] }) =>
  frame('in', { id, result }, { latencyMs, method: 'tools/call' });

describe('nearest-rank percentiles', () => {
  it('takes the smallest value with at least p% of the values at or below it', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([50, 90, 99, 100].map((p) => nearestRank(hundred, p))).toEqual([50, 90, 99, 100]);
    expect([50, 90, 99].map((p) => nearestRank([1, 2, 3, 4], p))).toEqual([2, 4, 4]);
    expect([50, 90, 99].map((p) => nearestRank([7], p))).toEqual([7, 7, 7]);
    expect(nearestRank([], 50)).toBeUndefined();
  });
});

describe('the latency table', () => {
  it('per method and per tool: n, p50/p90/p99/max over answered calls, error rate, unanswered', () => {
    clock = 0;
    const records: TraceRecord[] = [];
    // ten echo calls answered in 1..10 ms, the tenth with isError; two reads: one error, one unanswered.
    for (let i = 1; i <= 10; i++)
      records.push(call(i, 'echo'), ok(i, i, i === 10 ? { content: [], isError: true } : {}));
    records.push(frame('out', { id: 20, method: 'resources/read', params: { uri: 'file:///a' } }));
    records.push(frame('in', { id: 20, error: { code: -32002, message: 'Resource not found' } }, { latencyMs: 3 }));
    records.push(frame('out', { id: 21, method: 'resources/read', params: { uri: 'file:///b' } }));
    const table = latencyTable(pairCalls(records).calls);
    expect(table.methods).toEqual([
      {
        server: 'fs',
        name: 'tools/call',
        method: 'tools/call',
        n: 10,
        p50: 5,
        p90: 9,
        p99: 10,
        max: 10,
        errors: 1,
        errorRate: 0.1,
        unanswered: 0,
        negotiation: 0,
      },
      {
        server: 'fs',
        name: 'resources/read',
        method: 'resources/read',
        n: 1,
        p50: 3,
        p90: 3,
        p99: 3,
        max: 3,
        errors: 1,
        errorRate: 1,
        unanswered: 1,
        negotiation: 0,
      },
    ]);
    expect(table.tools).toEqual([expect.objectContaining({ name: 'echo', method: 'tools/call', n: 10, errors: 1 })]);
  });
});

describe('pairing requests and answers', () => {
  it('pairs by session, id and direction; flags orphans, duplicate ids and late answers; ties progress and cancels', () => {
    clock = 0;
    const records: TraceRecord[] = [
      call(1, 'slow', { progressToken: 'p1', traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }),
      // The server's own request with the same id travels the other way: a different call.
      frame('in', { id: 1, method: 'sampling/createMessage', params: {} }),
      frame('in', { method: 'notifications/progress', params: { progressToken: 'p1', progress: 1 } }),
      frame('out', { id: 1, result: { role: 'assistant' } }),
      ok(1, 4),
      // Another session of the same server reuses id 1: not an answer to the first.
      frame('in', { id: 1, result: {} }, { session: 's2' }),
      call(2, 'never'),
      frame('out', { method: 'notifications/cancelled', params: { requestId: 2 } }),
      call(3, 'late'),
      frame('out', { method: 'notifications/cancelled', params: { requestId: 3 } }),
      ok(3, 9),
      call(4, 'twice'),
      call(4, 'twice'),
      ok(4, 1),
    ];
    const { calls, orphans, noteOf } = pairCalls(records);
    const [slow, sampling, never, late, first4, second4] = calls;
    expect(slow).toMatchObject({ dir: 'out', tool: 'slow', status: 'ok', latencyMs: 4, answer: 4 });
    expect(slow!.traceparent).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    expect(slow!.notes).toEqual([2]);
    expect(sampling).toMatchObject({ dir: 'in', method: 'sampling/createMessage', status: 'ok', answer: 3 });
    expect(orphans).toEqual([{ record: 5 }]);
    expect(never).toMatchObject({ status: 'cancelled', cancel: 7 });
    expect(never!.latencyMs).toBeUndefined();
    expect(late).toMatchObject({ status: 'ok', late: true, latencyMs: 9 });
    expect(first4!.duplicate).toBeUndefined();
    expect(second4).toMatchObject({ duplicate: true, status: 'open' });
    expect(first4).toMatchObject({ status: 'ok' });
    expect(noteOf.get(7)).toBe(2);
  });

  it('pairs the items of batches, each answer with its own request; latency from the records’ clocks', () => {
    clock = 0;
    const batch = (dir: 'out' | 'in', items: Array<Record<string, unknown>>, t: number): TraceRecord => ({
      ...frame(dir, {}),
      t,
      kind: 'batch',
      message: items.map((item) => ({ jsonrpc: '2.0', ...item })),
    });
    const records = [
      batch(
        'out',
        [{ id: 1, method: 'ping' }, { method: 'notifications/initialized' }, { id: 2, method: 'tools/list' }],
        10,
      ),
      batch(
        'in',
        [
          { id: 2, result: { tools: [] } },
          { id: 1, result: {} },
          { id: 3, result: {} },
        ],
        14.5,
      ),
    ];
    const { calls, orphans } = pairCalls(records);
    expect(calls).toMatchObject([
      { method: 'ping', request: 0, requestItem: 0, answer: 1, answerItem: 1, latencyMs: 4.5, status: 'ok' },
      { method: 'tools/list', request: 0, requestItem: 2, answer: 1, answerItem: 0, latencyMs: 4.5, status: 'ok' },
    ]);
    expect(orphans).toEqual([{ record: 1, item: 2 }]);
    const report = buildReport(records, 'batch.jsonl');
    expect(report.rows.map((r) => [r.k, r.m])).toEqual([
      ['call', 'ping'],
      ['call', 'tools/list'],
      ['note', 'notifications/initialized'],
      ['orphan', '(orphan answer)'],
    ]);
  });

  it('classifies answers by the MCP conventions: JSON-RPC codes, tool_error, the server rule for calls it served', () => {
    clock = 0;
    const records: TraceRecord[] = [
      call(1, 'x'),
      frame('in', { id: 1, error: { code: -32602, message: 'Unknown tool: x' } }),
      call(2, 'fails'),
      ok(2, 1, { content: [], isError: true }),
      frame('in', { id: 7, method: 'roots/list' }),
      frame('out', { id: 7, error: { code: -32601, message: 'Method not found' } }),
    ];
    const [unknown, fails, roots] = pairCalls(records).calls;
    expect(unknown).toMatchObject({
      status: 'error',
      errorType: '-32602',
      statusCode: '-32602',
      errorMessage: 'Unknown tool: x',
    });
    expect(fails).toMatchObject({ status: 'error', errorType: 'tool_error' });
    // Served by the client (a request from the server): a client fault is recorded, not an error.type.
    expect(roots).toMatchObject({ status: 'error', statusCode: '-32601' });
    expect(roots!.errorType).toBeUndefined();
  });
});

describe('the report model', () => {
  it('puts every session of a file on one time axis, rows in time order with notes pointing at their call', () => {
    clock = 0;
    const first = [call(1, 'slow', { progressToken: 7 })];
    const other = frame('out', { id: 1, method: 'tools/list' }, { server: 'git', session: 'g1' });
    const progress = frame('in', { method: 'notifications/progress', params: { progressToken: 7, progress: 1 } });
    const records: TraceRecord[] = [
      ...first,
      other,
      progress,
      ok(1, 3),
      frame('in', { id: 9, result: {} }),
      { ...progress, t: 10, kind: 'invalid', message: undefined, raw: '{"half":' },
      { ...progress, t: 11, kind: 'event', message: undefined, method: undefined, event: 'exit', detail: { code: 1 } },
    ];
    const report = buildReport(records, 'two.jsonl');
    expect(report.lanes.map((l) => [l.server, l.session])).toEqual([
      ['fs', 1],
      ['git', 2],
    ]);
    expect(report.rows.map((r) => [r.k, r.m])).toEqual([
      ['call', 'tools/call'],
      ['call', 'tools/list'],
      ['note', 'notifications/progress'],
      ['orphan', '(orphan answer)'],
      ['invalid', '(invalid)'],
      ['event', 'exit'],
    ]);
    for (let i = 1; i < report.rows.length; i++)
      expect(report.rows[i]!.t).toBeGreaterThanOrEqual(report.rows[i - 1]!.t);
    const note = report.rows[2]!;
    expect(report.rows[note.parent!]).toMatchObject({ m: 'tools/call', tool: 'slow', d: 3, nt: [note.t] });
    expect(report.rows[1]).toMatchObject({ st: 'open', lane: 1 });
    expect(report.summary).toMatchObject({ servers: [{ name: 'fs' }, { name: 'git' }], sessions: 2, requests: 2 });
    expect(report.summary).toMatchObject({ notifications: 1, orphans: 1, invalid: 1, events: 1, open: 1 });
    expect(report.errors.map((i) => report.rows[i]!.k)).toEqual(['invalid']);
  });
});

describe('the page', () => {
  const hostile = '</script><img src=x onerror=alert(1)><!-- \u2028\u2029 & <script>alert(2)</script>';

  it('embeds any string as data: no <, >, & or line separators in the text, and it parses back unchanged', () => {
    const value = { text: hostile, nested: [{ [hostile]: hostile }], redacted: 'Bearer ***' };
    const text = embedJson(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text).toContain('\\u003c/script\\u003e');
    expect(JSON.parse(text)).toEqual(value);
  });

  it('a report of a hostile trace has exactly its two script elements, data that reads back, and its script’s hash in the policy', () => {
    clock = 0;
    const records = [call(1, 'echo'), ok(1, 2, { content: [{ type: 'text', text: hostile }] })];
    const html = renderReport(records, 'hostile</title>.jsonl');
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    const data = /<script type="application\/json" id="mcpwire-data">([^<]*)<\/script>/.exec(html)![1]!;
    const parsed = JSON.parse(data) as ReturnType<typeof buildReport>;
    expect(parsed).toEqual(JSON.parse(JSON.stringify(buildReport(records, 'hostile</title>.jsonl'))));
    expect(JSON.stringify(parsed.records[1]!.message)).toContain(JSON.stringify(hostile).slice(1, -1));
    const script = /<script>([\s\S]*)<\/script>/.exec(html)![1]!;
    expect(script).toBe(PAGE_SCRIPT);
    const hash = createHash('sha256').update(script).digest('base64');
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)![1]!;
    expect(policy).toBe(
      `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${hash}'; img-src data:; base-uri 'none'; form-action 'none'`,
    );
    // The page's script compiles (it runs in the real-browser test).
    expect(() => new Script(PAGE_SCRIPT)).not.toThrow();
  });
});

/**
 * The spans of a recorded session (mcpwire's client on the scripted stdio server): a request
 * that carries a W3C `traceparent` in `params._meta` joins that trace under that parent; the
 * others share one trace id derived from the session; a timed-out call is `timeout`, one open at
 * the close is `connection_closed`, one the trace ends without answering `unanswered`; and spans
 * built live record by record (what
 * `--otlp-endpoint` sends) are the spans the export builds from the file.
 */
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { exportTrace } from '../src/inspect/export/export-trace.js';
import type { McpSpan } from '../src/inspect/export/mcp-span.js';
import type { OtlpTraceRequest } from '../src/inspect/export/otlp-json.js';
import { parseTraceparent } from '../src/inspect/export/span-ids.js';
import { CONNECTION_CLOSED_ERROR, UNANSWERED_ERROR } from '../src/inspect/export/session-spans.js';
import { LiveSpans, spansOfTrace } from '../src/inspect/export/trace-spans.js';
import type { TraceRecord } from '../src/observe/trace-record.js';
import { ATTR, TIMEOUT_ERROR } from '../src/util/mcp-semconv.js';
import { SCRIPTED } from './support/cli.js';
import { until } from './support/wait.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

async function recordSession(): Promise<TraceRecord[]> {
  const records: TraceRecord[] = [];
  const client = await McpClient.connect(
    { command: process.execPath, args: [SCRIPTED] },
    { name: 'scripted', trace: { sink: (record) => records.push(record) } },
  );
  try {
    await client.request('tools/call', {
      name: 'echo',
      arguments: { text: 'traced' },
      _meta: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` },
    });
    await client.callTool('echo', { text: 'plain' });
    await expect(client.callTool('never-answer', {}, { timeoutMs: 300 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    await until(() => records.some((r) => r.method === 'notifications/cancelled'), {
      what: 'the timeout’s cancel notice',
    });
    const left = client.request('tools/call', { name: 'never-answer', arguments: {} }).catch(() => undefined);
    await until(() => records.filter((r) => r.kind === 'request' && r.method === 'tools/call').length === 4, {
      what: 'the unanswered call on the wire',
    });
    await client.close();
    await left;
  } finally {
    await client.close();
  }
  return records;
}

describe('spans of a recorded session', () => {
  it('join the caller’s trace from _meta.traceparent, classify timeouts and calls left open, and match live', async () => {
    const records = await recordSession();
    const [session] = spansOfTrace(records);
    const spans = session!.spans;
    const calls = spans.filter((s) => s.name === 'tools/call echo');
    expect(calls).toHaveLength(2);
    const [traced, plain] = calls as [McpSpan, McpSpan];
    expect(traced).toMatchObject({ traceId: TRACE_ID, parentSpanId: PARENT_ID, kind: 'client' });
    expect(plain.traceId).not.toBe(TRACE_ID);
    expect(plain.parentSpanId).toBeUndefined();
    // Every span without a traceparent is in the session's one trace.
    expect(new Set(spans.filter((s) => s !== traced).map((s) => s.traceId)).size).toBe(1);

    const [timedOut, open] = spans.filter((s) => s.name === 'tools/call never-answer') as [McpSpan, McpSpan];
    expect(timedOut.attributes[ATTR.errorType]).toBe(TIMEOUT_ERROR);
    expect(timedOut.status).toMatchObject({ error: true, message: expect.stringMatching(/timed out/) });
    expect(open.attributes[ATTR.errorType]).toBe(CONNECTION_CLOSED_ERROR);
    // It ends with the session (its close), after everything else.
    expect(open.endMs).toBeGreaterThan(open.startMs);
    for (const span of spans) expect(open.endMs).toBeGreaterThanOrEqual(span.endMs);

    // A trace cut off before the answer and the close: the call ends at the last record, unanswered.
    const cut = records.findIndex(
      (r) => r.dir === 'out' && r.kind === 'request' && String(r.id) === open.attributes[ATTR.requestId],
    );
    const [partial] = spansOfTrace(records.slice(0, cut + 1));
    const unanswered = partial!.spans.find((s) => s.spanId === open.spanId)!;
    expect(unanswered.attributes[ATTR.errorType]).toBe(UNANSWERED_ERROR);
    expect(unanswered.endMs).toBeGreaterThanOrEqual(unanswered.startMs);

    // Live, record by record, the same spans come out.
    const live = new LiveSpans();
    const streamed = records.flatMap((record) => live.add(record));
    streamed.push(...live.finish());
    const key = (s: McpSpan) => `${s.spanId} ${s.name} ${JSON.stringify(s.attributes)} ${s.startMs} ${s.endMs}`;
    expect(streamed.map(key).sort()).toEqual(spans.map(key).sort());

    // The OTLP document carries the traceparent's ids as given.
    const otlp = exportTrace(records, 'otlp-json').document as OtlpTraceRequest;
    const written = otlp.resourceSpans[0]!.scopeSpans[0]!.spans.find((s) => s.spanId === traced.spanId)!;
    expect(written).toMatchObject({ traceId: TRACE_ID, parentSpanId: PARENT_ID, kind: 3 });
  });
});

describe('parseTraceparent', () => {
  it('reads version-00 values and refuses malformed or all-zero ids', () => {
    expect(parseTraceparent(`00-${TRACE_ID}-${PARENT_ID}-01`)).toEqual({ traceId: TRACE_ID, parentSpanId: PARENT_ID });
    expect(parseTraceparent(`01-${TRACE_ID}-${PARENT_ID}-01-later`)).toEqual({
      traceId: TRACE_ID,
      parentSpanId: PARENT_ID,
    });
    for (const bad of [
      `00-${TRACE_ID}-${PARENT_ID}-01-extra`,
      `ff-${TRACE_ID}-${PARENT_ID}-01`,
      `00-${'0'.repeat(32)}-${PARENT_ID}-01`,
      `00-${TRACE_ID}-${'0'.repeat(16)}-01`,
      `00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01`,
      'not a traceparent',
      42,
    ])
      expect(parseTraceparent(bad), String(bad)).toBeUndefined();
  });
});

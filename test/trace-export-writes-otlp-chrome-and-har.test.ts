/**
 * `mcpwire trace export` on a real trace: four sessions (stdio and HTTP, both eras, a proxy run
 * among them; an `isError` tool, a JSON-RPC error, progress, a server→client request and
 * cancelled calls), exported by the built CLI in each format and checked for shape: OTLP/JSON
 * (hex ids, parents that resolve, kinds, the conventions' attribute names and error rules),
 * the Trace Event Format (lanes, sorted events, durations), HAR 1.2 (every required field).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChromeTrace } from '../src/inspect/export/chrome-trace.js';
import type { Har } from '../src/inspect/export/har.js';
import type { OtlpTraceRequest } from '../src/inspect/export/otlp-json.js';
import { CONNECTION_CLOSED_ERROR } from '../src/inspect/export/session-spans.js';
import type { TraceRecord } from '../src/observe/trace-record.js';
import { ATTR, CANCELLED_ERROR, EXECUTE_TOOL, TOOL_ERROR } from '../src/util/mcp-semconv.js';
import { requireBuiltCli, runCli } from './support/cli.js';
import { recordMixedTrace } from './support/mixed-trace.js';
import { attributesOf, type ReceivedKeyValue } from './support/otlp-receiver.js';
import { readJsonl } from './support/jsonl.js';

let dir: string;
let trace: string;
let recorded = false;

beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-export-'));
  trace = path.join(dir, 'mixed.jsonl');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Records the mixed trace once (inside the first test that needs it: its kits close with that test). */
async function mixedTrace(): Promise<string> {
  if (!recorded) {
    await recordMixedTrace(trace);
    recorded = true;
  }
  return trace;
}

function records(): TraceRecord[] {
  return readJsonl<TraceRecord>(trace);
}

async function exported<T>(format: string, ...extra: string[]): Promise<T> {
  const out = path.join(dir, `${format}${extra.join('')}.json`);
  const run = await runCli(['trace', 'export', await mixedTrace(), '--format', format, '-o', out, ...extra]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain(out);
  return JSON.parse(readFileSync(out, 'utf8')) as T;
}

interface FlatSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  start: bigint;
  end: bigint;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string };
  server: unknown;
}

function flatten(request: OtlpTraceRequest): FlatSpan[] {
  return request.resourceSpans.flatMap((resource) => {
    const server = attributesOf(resource.resource.attributes)['mcpwire.server.name'];
    return resource.scopeSpans.flatMap((scope) => {
      expect(scope.scope.name).toBe('mcpwire');
      expect(scope.scope.version).toMatch(/^\d+\.\d+\.\d+/);
      return scope.spans.map((span) => ({
        ...span,
        start: BigInt(span.startTimeUnixNano),
        end: BigInt(span.endTimeUnixNano),
        attributes: attributesOf(span.attributes as ReceivedKeyValue[]),
        server,
      }));
    });
  });
}

describe('trace export --format otlp-json', () => {
  it('gives one span per request and notification, with valid ids, resolving parents and the conventions’ names', async () => {
    const spans = flatten(await exported<OtlpTraceRequest>('otlp-json'));
    const frames = records().filter((r) => r.kind === 'request' || r.kind === 'notification');
    expect(spans).toHaveLength(frames.length);
    const ids = new Set(spans.map((s) => s.spanId));
    expect(ids.size).toBe(spans.length);
    const known = new Set<string>(Object.values(ATTR));
    for (const span of spans) {
      expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
      if (span.parentSpanId !== undefined) expect(ids.has(span.parentSpanId), span.name).toBe(true);
      expect(span.end >= span.start, span.name).toBe(true);
      expect([2, 3]).toContain(span.kind);
      for (const key of Object.keys(span.attributes)) expect(known.has(key), key).toBe(true);
      expect(span.name.startsWith(span.attributes[ATTR.methodName] as string)).toBe(true);
      // ERROR exactly when error.type is set, else UNSET (as mcpwire/otel leaves it).
      expect(span.status.code).toBe(span.attributes[ATTR.errorType] === undefined ? 0 : 2);
    }
    // One trace per session: four sessions, four trace ids.
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(4);
    expect(new Set(spans.map((s) => s.server)).size).toBe(4);
  });

  it('classifies outcomes by the client rule and tells CLIENT from SERVER spans', async () => {
    const spans = flatten(await exported<OtlpTraceRequest>('otlp-json'));
    const legacy = spans.filter((s) => s.server === 'stdio-legacy');
    const byName = (name: string) => legacy.find((s) => s.name === name)!;
    expect(byName('tools/call echo')).toMatchObject({ kind: 3, status: { code: 0 } });
    expect(byName('tools/call echo').attributes).toMatchObject({
      [ATTR.methodName]: 'tools/call',
      [ATTR.toolName]: 'echo',
      [ATTR.operationName]: EXECUTE_TOOL,
      [ATTR.protocolVersion]: '2025-11-25',
      [ATTR.networkTransport]: 'pipe',
      [ATTR.requestId]: expect.stringMatching(/^\d+$/),
    });
    expect(byName('tools/call fails').attributes[ATTR.errorType]).toBe(TOOL_ERROR);
    expect(byName('tools/call no-such-tool').attributes).toMatchObject({
      [ATTR.errorType]: expect.stringMatching(/^-32\d{3}$/),
      [ATTR.statusCode]: expect.stringMatching(/^-32\d{3}$/),
    });
    expect(byName('tools/call no-such-tool').status.message).toBeTruthy();
    expect(byName('tools/call never-answer').attributes[ATTR.errorType]).toBe(CANCELLED_ERROR);
    // The server→client request is handled by the recording side: a SERVER span.
    expect(byName('sampling/createMessage')).toMatchObject({ kind: 2, status: { code: 0 } });
    // Progress is a received notification, child of the call it reports on.
    const slow = byName('tools/call slow');
    const progress = legacy.filter((s) => s.name === 'notifications/progress');
    expect(progress.length).toBeGreaterThan(0);
    for (const p of progress) expect(p).toMatchObject({ kind: 2, parentSpanId: slow.spanId, traceId: slow.traceId });
    // The cancel notice is a sent notification, child of what it cancelled.
    expect(legacy.find((s) => s.name === 'notifications/cancelled')).toMatchObject({
      kind: 3,
      parentSpanId: byName('tools/call never-answer').spanId,
    });
    // Every call was answered or cancelled; a 2026 client's change feed ends cancelled as it closes.
    expect(spans.filter((s) => s.attributes[ATTR.errorType] === CONNECTION_CLOSED_ERROR)).toEqual([]);
    const feeds = spans.filter((s) => s.name === 'subscriptions/listen');
    expect(feeds.length).toBeGreaterThan(0);
    for (const feed of feeds) expect(feed.attributes[ATTR.errorType]).toBe(CANCELLED_ERROR);
  });

  it('carries the HTTP facts: server address and port, mcp.session.id on legacy sessions only, both eras', async () => {
    const spans = flatten(await exported<OtlpTraceRequest>('otlp-json'));
    const proxied = spans.filter((s) => typeof s.server === 'string' && /^127\.0\.0\.1:\d+$/.test(s.server));
    const modern = spans.filter((s) => s.server === 'http-modern');
    const call = (list: FlatSpan[], name: string) => list.find((s) => s.name === name)!;
    expect(call(proxied, 'tools/call echo').attributes).toMatchObject({
      [ATTR.networkTransport]: 'tcp',
      [ATTR.networkProtocolName]: 'http',
      [ATTR.serverAddress]: '127.0.0.1',
      [ATTR.serverPort]: expect.any(Number),
      [ATTR.sessionId]: expect.any(String),
      [ATTR.protocolVersion]: '2025-11-25',
    });
    expect(call(proxied, 'tools/call fails').attributes[ATTR.errorType]).toBe(TOOL_ERROR);
    // Legacy HTTP cancels with its own POST: the proxy saw it.
    expect(call(proxied, 'tools/call hold').attributes[ATTR.errorType]).toBe(CANCELLED_ERROR);
    expect(call(modern, 'tools/call echo').attributes).toMatchObject({
      [ATTR.protocolVersion]: '2026-07-28',
      [ATTR.serverAddress]: '127.0.0.1',
    });
    for (const span of modern) expect(span.attributes[ATTR.sessionId]).toBeUndefined();
    for (const span of spans.filter((s) => s.server === 'stdio-modern')) {
      expect(span.attributes[ATTR.networkTransport]).toBe('pipe');
      expect(span.attributes[ATTR.serverAddress]).toBeUndefined();
    }
    expect(
      call(
        spans.filter((s) => s.server === 'stdio-modern'),
        'tools/call crash',
      ).attributes[ATTR.errorType],
    ).toBe(TOOL_ERROR);
  });

  it('is the same document every time, and adds tool arguments and results only with --include-payloads', async () => {
    const first = await exported<OtlpTraceRequest>('otlp-json');
    const again = await exported<OtlpTraceRequest>('otlp-json', '--include-payloads');
    const strip = (spans: FlatSpan[]) =>
      spans.map(({ attributes, ...span }) => ({
        ...span,
        attributes: Object.fromEntries(
          Object.entries(attributes).filter(([key]) => !key.startsWith('gen_ai.tool.call')),
        ),
      }));
    expect(strip(flatten(again))).toEqual(strip(flatten(first)));
    const plain = flatten(first).find((s) => s.server === 'stdio-legacy' && s.name === 'tools/call echo')!;
    expect(plain.attributes[ATTR.toolArguments]).toBeUndefined();
    const echo = flatten(again).find((s) => s.server === 'stdio-legacy' && s.name === 'tools/call echo')!;
    expect(JSON.parse(echo.attributes[ATTR.toolArguments] as string)).toEqual({ text: 'hello' });
    expect(JSON.parse(echo.attributes[ATTR.toolResult] as string)).toMatchObject({
      content: [{ type: 'text', text: 'hello' }],
    });
  });

  it('writes to stdout without -o, or with -o -', async () => {
    const file = await mixedTrace();
    for (const extra of [[], ['-o', '-']]) {
      const run = await runCli(['trace', 'export', file, '--format', 'otlp-json', ...extra]);
      expect(run.code, run.stderr).toBe(0);
      expect((JSON.parse(run.stdout) as OtlpTraceRequest).resourceSpans).toHaveLength(4);
    }
  });
});

describe('trace export --format chrome-trace', () => {
  it('names a process per server and a thread per session, with sorted events and no negative duration', async () => {
    const document = await exported<ChromeTrace>('chrome-trace');
    const events = document.traceEvents;
    const meta = events.filter((e) => e.ph === 'M');
    const processes = meta.filter((e) => e.name === 'process_name');
    expect(processes.map((e) => e.args?.name)).toEqual([
      'stdio-legacy',
      'stdio-modern',
      expect.any(String),
      'http-modern',
    ]);
    // One per session: the four client sessions and the proxy's own (its listen and close).
    expect(meta.filter((e) => e.name === 'thread_name')).toHaveLength(5);
    const timed = events.filter((e) => e.ph !== 'M');
    for (let i = 1; i < timed.length; i++) expect(timed[i]!.ts).toBeGreaterThanOrEqual(timed[i - 1]!.ts);
    const complete = timed.filter((e) => e.ph === 'X');
    expect(complete.length).toBe(records().filter((r) => r.kind === 'request').length);
    for (const event of complete) {
      expect(event.dur).toBeGreaterThanOrEqual(0);
      expect(event.ts).toBeGreaterThanOrEqual(0);
      expect(processes.some((p) => p.pid === event.pid)).toBe(true);
    }
    expect(complete.find((e) => e.name === 'tools/call fails')?.args).toMatchObject({ [ATTR.errorType]: TOOL_ERROR });
    const instants = timed.filter((e) => e.ph === 'i');
    expect(instants.map((e) => e.name)).toEqual(
      expect.arrayContaining(['spawn', 'exit', 'notifications/progress', 'notifications/cancelled']),
    );
    for (const event of instants) expect(event.s).toBe('t');
    expect(document.otherData.startedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});

describe('trace export --format har', () => {
  it('writes HAR 1.2 with every required field for the HTTP exchanges, bodies as recorded', async () => {
    const har = await exported<Har>('har');
    expect(har.log).toMatchObject({ version: '1.2', creator: { name: 'mcpwire', version: expect.any(String) } });
    const entries = har.log.entries;
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      expect(Number.isNaN(Date.parse(entry.startedDateTime))).toBe(false);
      expect(entry.time).toBeGreaterThanOrEqual(0);
      expect(entry.request).toMatchObject({
        method: expect.stringMatching(/^(GET|POST|DELETE)$/),
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/),
        httpVersion: expect.any(String),
        cookies: [],
        headers: expect.any(Array),
        queryString: [],
        headersSize: -1,
        bodySize: expect.any(Number),
      });
      expect(entry.response).toMatchObject({
        status: expect.any(Number),
        statusText: expect.any(String),
        httpVersion: expect.any(String),
        cookies: [],
        headers: expect.any(Array),
        content: { size: expect.any(Number), mimeType: expect.any(String) },
        redirectURL: '',
        headersSize: -1,
        bodySize: expect.any(Number),
      });
      expect(entry.cache).toEqual({});
      for (const key of ['send', 'wait', 'receive'] as const) expect(entry.timings[key]).toBeGreaterThanOrEqual(0);
      for (const header of [...entry.request.headers, ...entry.response.headers])
        expect(header).toEqual({ name: expect.any(String), value: expect.any(String) });
    }
    // Only the HTTP sessions take part: every POST of a tools/call has its answer.
    const calls = entries.filter((e) => e.request.postData?.text.includes('"tools/call"'));
    expect(calls.length).toBe(
      records().filter((r) => r.http && r.kind === 'request' && r.method === 'tools/call').length,
    );
    const echo = calls.find((e) => e.request.postData!.text.includes('"echo"'))!;
    expect(echo.response.status).toBe(200);
    expect(echo.response.content.text).toContain('"hello"');
    expect(echo.request.postData!.mimeType).toBe('application/json');
    // The legacy session's notifications went out on POSTs answered 202.
    expect(entries.some((e) => e.response.status === 202)).toBe(true);
  });

  it('refuses a trace without HTTP traffic, naming the file', async () => {
    const stdioOnly = path.join(dir, 'stdio-only.jsonl');
    const lines = records()
      .filter((r) => r.server.startsWith('stdio-'))
      .map((r) => `${JSON.stringify(r)}\n`);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(stdioOnly, lines.join(''));
    const run = await runCli(['trace', 'export', stdioOnly, '--format', 'har', '-o', path.join(dir, 'no.har')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(stdioOnly);
    expect(run.stderr).toMatch(/no HTTP traffic/);
  });
});

describe('trace export usage', () => {
  it('names the formats when --format is missing or unknown', async () => {
    const file = await mixedTrace();
    const missing = await runCli(['trace', 'export', file]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/--format otlp-json\|chrome-trace\|har/);
    const unknown = await runCli(['trace', 'export', file, '--format', 'pdf']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/unknown export format "pdf"/);
  });
});

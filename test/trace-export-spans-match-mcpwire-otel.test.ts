/**
 * The spans `trace export` makes of a recorded session are the spans `mcpwire/otel` emitted live
 * for that same session (the real OpenTelemetry SDK in memory, mcpwire's client tracing to a
 * record sink at the same time): the same names, kinds and attributes; and where the client put
 * its span's context in `params._meta.traceparent`, the exported span joins that trace as the
 * live span's child.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import type { McpSpan } from '../src/inspect/export/mcp-span.js';
import { spansOfTrace } from '../src/inspect/export/trace-spans.js';
import { createHttpHandler, McpServer } from '../src/server/index.js';
import type { TraceRecord } from '../src/observe/trace-record.js';
import { ATTR } from '../src/util/mcp-semconv.js';
import { SCRIPTED } from './support/cli.js';
import { instrumented } from './support/otel-sdk.js';

const otel = instrumented();

function comparable(span: McpSpan | ReadableSpan): { name: string; kind: string; attributes: Record<string, unknown> } {
  if ('spanContext' in span)
    return {
      name: span.name,
      kind: span.kind === SpanKind.CLIENT ? 'client' : 'server',
      attributes: { ...span.attributes },
    };
  return { name: span.name, kind: span.kind, attributes: { ...span.attributes } };
}

/** Runs `tour` with a client that both records and is instrumented; returns the records and the live spans. */
async function session(
  target: { command: string; args: string[] } | { url: string },
  options: { era?: 'legacy' },
  tour: (client: McpClient) => Promise<void>,
): Promise<{ records: TraceRecord[]; live: ReadableSpan[] }> {
  otel.exporter.reset();
  const records: TraceRecord[] = [];
  const client = await McpClient.connect(target, {
    ...options,
    name: 'compared',
    trace: { sink: (record) => records.push(record) },
    handlers: {
      sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm', stopReason: 'endTurn' }),
    },
  });
  try {
    await tour(client);
  } finally {
    await client.close();
  }
  return { records, live: otel.spans() };
}

function expectSameSpans(records: TraceRecord[], all: ReadableSpan[]): void {
  // Only the client's side: an in-process kit's SERVER spans carry the client's address.
  const live = all.filter((span) => span.attributes[ATTR.clientAddress] === undefined);
  const exported = spansOfTrace(records).flatMap((s) => s.spans);
  const key = (s: { name: string; kind: string; attributes: Record<string, unknown> }) =>
    `${s.kind} ${s.name} ${String(s.attributes[ATTR.requestId] ?? '')}`;
  const liveByKey = new Map(live.map((span) => [key(comparable(span)), span]));
  expect(exported.map((s) => key(comparable(s))).sort()).toEqual([...liveByKey.keys()].sort());
  const differences: string[] = [];
  for (const span of exported) {
    const twin = liveByKey.get(key(comparable(span)))!;
    const a = comparable(span).attributes;
    const b = comparable(twin).attributes;
    for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (a[name] !== b[name])
        differences.push(`${key(comparable(span))}: ${name} exported ${String(a[name])} live ${String(b[name])}`);
    }
    // Where a message carried its sender's context: what the client sent joins as the child of
    // the live span; what it received has the live span's parent (the peer's span).
    if (span.parentSpanId !== undefined) {
      const parent = span.kind === 'client' ? twin.spanContext().spanId : twin.parentSpanContext?.spanId;
      if (span.traceId !== twin.spanContext().traceId) differences.push(`${span.name}: another trace`);
      if (span.parentSpanId !== parent) differences.push(`${span.name}: another parent`);
    }
  }
  // Every request the client sent carried its context.
  for (const span of exported.filter((s) => s.kind === 'client' && s.type === 'request'))
    expect(span.parentSpanId, span.name).toBeDefined();
  expect(differences).toEqual([]);
}

describe('exported spans and mcpwire/otel', () => {
  it('agree on a legacy stdio session: calls, an isError, a JSON-RPC error, a server→client request', async () => {
    const { records, live } = await session({ command: process.execPath, args: [SCRIPTED] }, {}, async (client) => {
      await client.callTool('echo', { text: 'hi' });
      await client.callTool('fails', {});
      await client.callTool('no-such-tool', {}).catch(() => undefined);
      await client.callTool('ask-sampling', { prompt: 'hi' });
    });
    expectSameSpans(records, live);
  });

  it('agree on a legacy HTTP session with its session id and on a 2026-07-28 one', async () => {
    const server = new McpServer({ name: 'kit', version: '1.0.0' });
    server.registerTool({
      name: 'echo',
      inputSchema: { type: 'object' },
      handler: () => ({ content: [{ type: 'text', text: 'echo' }] }),
    });
    const handler = createHttpHandler(server, { path: '/mcp' });
    const listener = http.createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/mcp`;
    try {
      for (const options of [{ era: 'legacy' as const }, {}]) {
        const { records, live } = await session({ url }, options, async (client) => {
          await client.callTool('echo', {});
        });
        expectSameSpans(records, live);
      }
    } finally {
      await handler.close({ graceMs: 1_000 });
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
      await server.close();
    }
  });
});

/**
 * `mcpwire/otel` with the real OpenTelemetry SDK (in memory): a CLIENT span for what is sent and
 * a SERVER span for what is handled, named and attributed as OpenTelemetry's MCP conventions say
 * (`src/util/mcp-semconv.ts`, v1.41.1), the server's span the child of the client's through
 * `params._meta`, the caller's active span the client span's parent, errors classified by the
 * conventions' client and server rules, the four duration histograms with their buckets, and tool
 * content only when opted in, redacted. mcpwire's client and a kit server on an in-memory pair.
 */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { ToolError } from '../src/server/index.js';
import { ATTR, DURATION_BUCKETS, METRIC } from '../src/util/mcp-semconv.js';
import { connectKitClient } from './support/kit-memory.js';
import { holdingServer } from './support/kit-servers.js';
import { instrumented } from './support/otel-sdk.js';
import { eventually } from './support/wait.js';

const otel = instrumented({ captureContent: true, secrets: ['s3cr3t-value'] });

/** A kit server whose tools succeed, fail as tools, hold until aborted, and open a span of their own. */
function kit() {
  const { server, held } = holdingServer('observed');
  server.registerTool({
    name: 'echo',
    inputSchema: { type: 'object' },
    handler: (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
  });
  server.registerTool({
    name: 'refuse',
    inputSchema: { type: 'object' },
    handler: () => {
      throw new ToolError('not_found', 'no such city');
    },
  });
  server.registerTool({
    name: 'nested',
    inputSchema: { type: 'object' },
    handler: () => {
      // User code inside the handler: its span is a child of the SERVER span.
      trace.getTracer('user').startActiveSpan('user work', (span) => span.end());
      return { content: [] };
    },
  });
  server.registerPrompt({
    name: 'greet',
    get: () => ({ messages: [] }),
  });
  server.registerResource({
    uri: 'memo://broken',
    name: 'broken',
    read: () => {
      throw new Error('the disk is on fire');
    },
  });
  return { server, held };
}

/** The one finished span of `kind` named `name` (waits for it: a server span ends after its answer). */
async function span(name: string, kind: SpanKind): Promise<ReadableSpan> {
  return eventually(() => otel.spans(name).find((s) => s.kind === kind), {
    what: `the ${SpanKind[kind]} span "${name}"`,
  });
}

function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

describe('mcpwire/otel', () => {
  it("gives a tool call a CLIENT span in the caller's trace and a SERVER span that is its child", async () => {
    otel.exporter.reset();
    const { server } = kit();
    const client = await connectKitClient(server, { era: 'legacy' });
    const tracer = otel.tracerProvider.getTracer('agent');
    await tracer.startActiveSpan('agent turn', async (turn) => {
      await client.callTool('echo', { city: 'Oslo' });
      turn.end();
    });

    const turn = otel.spans('agent turn')[0]!;
    const sent = await span('tools/call echo', SpanKind.CLIENT);
    const handled = await span('tools/call echo', SpanKind.SERVER);
    expect(sent.spanContext().traceId).toBe(turn.spanContext().traceId);
    expect(parentOf(sent)).toBe(turn.spanContext().spanId);
    expect(handled.spanContext().traceId).toBe(sent.spanContext().traceId);
    expect(parentOf(handled)).toBe(sent.spanContext().spanId);

    for (const s of [sent, handled]) {
      expect(s.attributes).toMatchObject({
        [ATTR.methodName]: 'tools/call',
        [ATTR.toolName]: 'echo',
        [ATTR.operationName]: 'execute_tool',
        [ATTR.protocolVersion]: client.protocolVersion,
        [ATTR.requestId]: expect.any(String),
      });
      expect(s.attributes[ATTR.sessionId]).toBeUndefined(); // no HTTP session on a pair
      expect(s.attributes[ATTR.errorType]).toBeUndefined();
      expect(s.status.code).toBe(SpanStatusCode.UNSET);
    }
    expect(sent.attributes[ATTR.requestId]).toBe(handled.attributes[ATTR.requestId]);
    // Content was opted in: the arguments and the result, as JSON.
    expect(JSON.parse(sent.attributes[ATTR.toolArguments] as string)).toEqual({ city: 'Oslo' });
    expect(sent.attributes[ATTR.toolResult]).toContain('Oslo');
    // Other methods are spans too, named by the method alone; the handshake's notification as well.
    expect((await span('initialize', SpanKind.CLIENT)).attributes[ATTR.methodName]).toBe('initialize');
    await span('notifications/initialized', SpanKind.SERVER);
  });

  it('runs the handler inside its SERVER span', async () => {
    otel.exporter.reset();
    const { server } = kit();
    const client = await connectKitClient(server);
    await client.callTool('nested', {});
    const handled = await span('tools/call nested', SpanKind.SERVER);
    const user = await eventually(() => otel.spans('user work')[0], { what: 'the span the handler opened' });
    expect(parentOf(user)).toBe(handled.spanContext().spanId);
  });

  it('classifies an isError result as tool_error on both sides', async () => {
    otel.exporter.reset();
    const { server } = kit();
    const client = await connectKitClient(server);
    const result = await client.callTool('refuse', {});
    expect(result.isError).toBe(true);
    for (const kind of [SpanKind.CLIENT, SpanKind.SERVER]) {
      const s = await span('tools/call refuse', kind);
      expect(s.attributes[ATTR.errorType]).toBe('tool_error');
      expect(s.status.code).toBe(SpanStatusCode.ERROR);
      expect(s.attributes[ATTR.toolResult]).toBeUndefined(); // a result is recorded only on success
    }
  });

  it("classifies a JSON-RPC error by each side's rule: the client's failure, the server's only when it is the server's fault", async () => {
    otel.exporter.reset();
    const { server } = kit();
    const client = await connectKitClient(server);
    // An unknown prompt: invalid params, the client's fault.
    await expect(client.getPrompt('nope', {})).rejects.toMatchObject({ code: 'SERVER_ERROR' });
    const sentPrompt = await span('prompts/get nope', SpanKind.CLIENT);
    const handledPrompt = await span('prompts/get nope', SpanKind.SERVER);
    const code = sentPrompt.attributes[ATTR.statusCode] as string;
    expect(['-32602', '-32002']).toContain(code);
    expect(sentPrompt.attributes[ATTR.errorType]).toBe(code);
    expect(sentPrompt.status.code).toBe(SpanStatusCode.ERROR);
    expect(handledPrompt.attributes[ATTR.statusCode]).toBe(code);
    expect(handledPrompt.attributes[ATTR.errorType]).toBeUndefined();
    expect(handledPrompt.status.code).toBe(SpanStatusCode.UNSET);

    // A resource whose reader throws: an internal error, the server's fault on both sides.
    await expect(client.readResource('memo://broken')).rejects.toMatchObject({ code: 'SERVER_ERROR' });
    for (const kind of [SpanKind.CLIENT, SpanKind.SERVER]) {
      const s = await span('resources/read', kind);
      expect(s.attributes[ATTR.resourceUri]).toBe('memo://broken');
      expect(s.attributes[ATTR.errorType]).toBe(s.attributes[ATTR.statusCode]);
      expect(s.status.code).toBe(SpanStatusCode.ERROR);
      expect(s.status.message).toEqual(expect.any(String));
    }
  });

  it('classifies a timeout and a cancel, and the server span of the call the client gave up on', async () => {
    otel.exporter.reset();
    const { server, held } = kit();
    const client = await connectKitClient(server, { era: 'legacy' });
    await expect(client.callTool('hold', {}, { timeoutMs: 50 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const timedOut = await span('tools/call hold', SpanKind.CLIENT);
    expect(timedOut.attributes[ATTR.errorType]).toBe('timeout');
    expect(timedOut.status.code).toBe(SpanStatusCode.ERROR);
    // The client's cancel notice ends the server's handling: no answer, error.type cancelled.
    const abandoned = await span('tools/call hold', SpanKind.SERVER);
    expect(abandoned.attributes[ATTR.errorType]).toBe('cancelled');
    await span('notifications/cancelled', SpanKind.CLIENT);

    otel.exporter.reset();
    const abort = new AbortController();
    const call = client.callTool('hold', {}, { signal: abort.signal });
    await held();
    abort.abort();
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
    const cancelled = await span('tools/call hold', SpanKind.CLIENT);
    expect(cancelled.attributes[ATTR.errorType]).toBe('cancelled');
  });

  it('redacts captured content: credential-like keys and configured secrets become ***', async () => {
    otel.exporter.reset();
    const { server } = kit();
    const client = await connectKitClient(server);
    await client.callTool('echo', { password: 'hunter2', note: 'key is s3cr3t-value here', api_key: 'abc123' });
    const sent = await span('tools/call echo', SpanKind.CLIENT);
    const text = sent.attributes[ATTR.toolArguments] as string;
    expect(JSON.parse(text)).toEqual({ password: '***', note: 'key is *** here', api_key: '***' });
    // A configured secret is scrubbed wherever it appears (the echoed result too); key-based
    // redaction applies to keys only, so the result's text (the echo) keeps what it says.
    for (const s of otel.spans()) expect(JSON.stringify(s.attributes)).not.toMatch(/s3cr3t-value/);
  });

  it("records the four duration histograms in seconds with the conventions' buckets", async () => {
    const { server } = kit();
    const client = await connectKitClient(server, { era: 'legacy' });
    await client.callTool('echo', {});
    await client.close();
    await server.close();
    const points = await eventually(
      async () => {
        const all = await otel.histograms();
        const names = new Set(all.map((p) => p.name));
        return Object.values(METRIC).every((name) => names.has(name)) ? all : undefined;
      },
      { what: 'all four histograms' },
    );
    for (const point of points) {
      expect(point.unit).toBe('s');
      expect(point.boundaries).toEqual(DURATION_BUCKETS);
    }
    const calls = points.filter(
      (p) => p.name === METRIC.clientOperationDuration && p.attributes[ATTR.toolName] === 'echo',
    );
    expect(calls.length).toBeGreaterThan(0);
    expect(calls[0]!.attributes[ATTR.methodName]).toBe('tools/call');
    // No high-cardinality attribute on a metric.
    for (const point of points) {
      expect(point.attributes[ATTR.requestId]).toBeUndefined();
      expect(point.attributes[ATTR.sessionId]).toBeUndefined();
    }
    const sessions = points.filter((p) => p.name === METRIC.clientSessionDuration);
    expect(sessions.some((p) => p.attributes[ATTR.protocolVersion] === client.protocolVersion)).toBe(true);
  });
});

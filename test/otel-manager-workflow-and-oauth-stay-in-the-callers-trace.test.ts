/**
 * What mcpwire does for a caller stays in the caller's trace, with no tracing code but
 * `instrument()`: the manager's tool calls and the workflow step (over a real kit server child on
 * stdio), and an OAuth login's HTTP exchanges (undici's own spans, from the real
 * `@opentelemetry/instrumentation-undici`, against a real loopback authorization server). Over
 * HTTP, undici's span of a request is a child of the MCP CLIENT span, and the server's MCP span is
 * parented on `params._meta`, with the ambient (HTTP server) span linked, not made its parent.
 */
import { context, SpanKind, trace } from '@opentelemetry/api';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../src/auth/token-store.js';
import { PROCESS_HTTP_ROUTES } from '../src/client/http-routes.js';
import { McpClient } from '../src/client/mcp-client.js';
import { McpManager } from '../src/manager/mcp-manager.js';
import { McpStepRunner } from '../src/manager/workflow-step.js';
import { createHttpHandler, McpServer } from '../src/server/index.js';
import { startAutoApprovingOAuth, type AutoApprovingOAuth } from './support/auto-approving-oauth.js';
import { KIT_STDIO_SERVER } from './support/kit-stdio.js';
import { instrumented } from './support/otel-sdk.js';
import { eventually } from './support/wait.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const otel = instrumented();
const undici = new UndiciInstrumentation();
undici.setTracerProvider(otel.tracerProvider);
undici.enable();
afterAll(() => undici.disable());

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
  PROCESS_HTTP_ROUTES.clear();
});

const tracer = () => otel.tracerProvider.getTracer('agent');
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/** Runs `work` inside a new active span named `name`; resolves with that span's context. */
async function inSpan(name: string, work: () => Promise<unknown>): Promise<{ traceId: string; spanId: string }> {
  return tracer().startActiveSpan(name, async (span) => {
    try {
      await work();
      return span.spanContext();
    } finally {
      span.end();
    }
  });
}

function clientCall(name: string): Promise<ReadableSpan> {
  return eventually(() => otel.spans(name).find((s) => s.kind === SpanKind.CLIENT), {
    what: `the CLIENT span ${name}`,
  });
}

describe("mcpwire's work for a caller stays in the caller's trace", () => {
  it("the manager's tool call is a child of the caller's span, though its server connected before", async () => {
    otel.exporter.reset();
    const manager = McpManager.create({
      servers: [{ name: 'kit', transport: 'stdio', command: process.execPath, args: [KIT_STDIO_SERVER] }],
    });
    cleanup.push(() => manager.disconnectAll());
    await manager.connectAll(); // outside any span of the caller
    const turn = await inSpan('agent turn', () => manager.callTool('mcp__kit__echo', { text: 'hi' }));
    const call = await clientCall('tools/call echo');
    expect(call.spanContext().traceId).toBe(turn.traceId);
    expect(parentOf(call)).toBe(turn.spanId);
  });

  it("the workflow step (its server started inside the step) is a child of the caller's span", async () => {
    otel.exporter.reset();
    const runner = new McpStepRunner();
    cleanup.push(() => runner.reset());
    const step = {
      server: { name: 'kit', command: [process.execPath, KIT_STDIO_SERVER] },
      tool: 'echo',
      resultKey: 'r',
    };
    const run = await inSpan('workflow run', () => runner.run({ ...step, arguments: { text: 'hi' } }, {}));
    const call = await clientCall('tools/call echo');
    expect(call.spanContext().traceId).toBe(run.traceId);
    expect(parentOf(call)).toBe(run.spanId);
    // The connect the step made (discovery or handshake) is in the trace too, under the step's caller.
    const mcp = otel.spans().filter((s) => s.kind === SpanKind.CLIENT && s.attributes['mcp.method.name']);
    expect(mcp.length).toBeGreaterThan(1);
    for (const span of mcp) expect(parentOf(span)).toBe(run.spanId);
  });

  it("an OAuth login's HTTP exchanges and the connect's MCP spans sit in the caller's trace", async () => {
    otel.exporter.reset();
    const oauth: AutoApprovingOAuth = await startAutoApprovingOAuth();
    cleanup.push(() => oauth.close());
    let client: McpClient | undefined;
    let browser: string | undefined;
    const login = await inSpan('agent login', async () => {
      client = await McpClient.connect(
        {
          url: oauth.url,
          auth: {
            store: new MemoryTokenStore(),
            // The user clicks "allow": a browser of its own, in a trace of its own.
            onAuthorizationUrl: (url) =>
              void tracer().startActiveSpan('browser', { root: true }, (span) => {
                browser = span.spanContext().traceId;
                return fetch(url)
                  .then((r) => r.text())
                  .finally(() => span.end());
              }),
          },
        },
        { name: 'tracker' },
      );
    });
    cleanup.push(() => client?.close());
    expect(oauth.issued).toHaveLength(1);
    const initialize = await clientCall('initialize');
    expect(initialize.spanContext().traceId).toBe(login.traceId);
    // undici's spans of the login: discovery, registration and the token exchange, all in the trace.
    const exchanges = await eventually(
      () => {
        const http = otel.spans().filter((s) => s.kind === SpanKind.CLIENT && s.attributes['http.request.method']);
        const token = http.find((s) => String(s.attributes['url.full']).endsWith('/token'));
        return token ? http : undefined;
      },
      { what: "undici's span of the token request" },
    );
    const ours = exchanges.filter((s) => s.spanContext().traceId !== browser);
    expect(ours.map((s) => new URL(String(s.attributes['url.full'])).pathname)).toEqual(
      expect.arrayContaining(['/register', '/token', '/mcp']),
    );
    for (const span of ours) expect(span.spanContext().traceId).toBe(login.traceId);
  });

  it("over HTTP, undici's span is the MCP span's child, and the server's MCP span links the ambient HTTP span", async () => {
    otel.exporter.reset();
    const server = new McpServer({ name: 'linked', version: '1', logger: () => undefined });
    server.registerTool({ name: 'echo', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
    const handler = createHttpHandler(server, { path: '/mcp' });
    // What an HTTP server instrumentation does: the request handled inside an HTTP SERVER span.
    const listener = http.createServer((req, res) => {
      const span = otel.tracerProvider.getTracer('http').startSpan(`HTTP ${req.method}`, { kind: SpanKind.SERVER });
      res.once('close', () => span.end());
      context.with(trace.setSpan(context.active(), span), () => void handler(req, res));
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    cleanup.push(async () => {
      await handler.close({ graceMs: 1_000 });
      await server.close();
      listener.closeAllConnections();
      await new Promise((resolve) => listener.close(resolve));
    });
    const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/mcp`;
    const client = await McpClient.connect({ url }, { era: 'modern' });
    cleanup.push(() => client.close());
    await inSpan('agent turn', () => client.callTool('echo', {}));

    const sent = await clientCall('tools/call echo');
    const handled = await eventually(() => otel.spans('tools/call echo').find((s) => s.kind === SpanKind.SERVER), {
      what: 'the SERVER span',
    });
    const post = await eventually(
      () =>
        otel
          .spans()
          .find(
            (s) =>
              s.kind === SpanKind.CLIENT &&
              s.attributes['http.request.method'] === 'POST' &&
              parentOf(s) === sent.spanContext().spanId,
          ),
      { what: "undici's POST span under the MCP CLIENT span" },
    );
    expect(post.spanContext().traceId).toBe(sent.spanContext().traceId);
    expect(parentOf(handled)).toBe(sent.spanContext().spanId);
    const ambient = handled.links.map((link) => link.context.spanId);
    const httpSpan = await eventually(
      () => otel.spans('HTTP POST').find((s) => ambient.includes(s.spanContext().spanId)),
      { what: 'the linked HTTP SERVER span' },
    );
    expect(parentOf(handled)).not.toBe(httpSpan.spanContext().spanId);
  });
});

/**
 * A browser page's script (bundled by esbuild, platform browser, for Chromium): the
 * OpenTelemetry web SDK (`WebTracerProvider`, its default context manager and W3C propagator),
 * spans batched to an OTLP/HTTP JSON exporter at the collector named by the page's URL
 * (`?collector=http://127.0.0.1:PORT`), `mcpwire/otel`'s `instrument()` on that provider, and an
 * MCP exchange between mcpwire's client and a kit server on an in-memory pair: connect, a tool
 * call inside the page's own span, a tool error, close. `window.otelRun` resolves once the spans
 * are flushed, with what the page saw (or the error's message).
 */
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor, WebTracerProvider } from '@opentelemetry/sdk-trace-web';
import { McpClient } from '../../src/client/mcp-client.js';
import { instrument } from '../../src/otel/index.js';
import { McpServer, ToolError } from '../../src/server/neutral.js';
import { createLinkedPair } from '../../src/transport/memory.js';

/** What the page reports back to the test. */
export interface OtelPageRun {
  /** The span the page opened around its tool call: its trace and span id. */
  turn?: { traceId: string; spanId: string };
  echoed?: string;
  refusedIsError?: boolean;
  error?: string;
}

/** The page's globals this script touches (the project's lib has no DOM types). */
const page = globalThis as unknown as { location: { href: string }; otelRun: Promise<OtelPageRun> };

async function run(): Promise<OtelPageRun> {
  const collector = new URL(page.location.href).searchParams.get('collector');
  if (!collector) throw new Error('the page needs ?collector=');
  const provider = new WebTracerProvider({
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${collector}/v1/traces` }))],
  });
  provider.register(); // the web SDK's context manager and W3C propagation, globally
  const dispose = instrument({ tracerProvider: provider, captureContent: true });

  const server = new McpServer({ name: 'web-kit', version: '0.0.1' });
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
  const [clientEnd, serverEnd] = createLinkedPair();
  server.connect(serverEnd);
  const report: OtelPageRun = {};
  try {
    const client = await McpClient.connect(clientEnd, { era: 'legacy' });
    const tracer = provider.getTracer('page');
    await tracer.startActiveSpan('page turn', async (turn) => {
      const { traceId, spanId } = turn.spanContext();
      report.turn = { traceId, spanId };
      try {
        const echoed = await client.callTool('echo', { city: 'Oslo' });
        report.echoed = (echoed.content[0] as { text?: string } | undefined)?.text;
      } finally {
        turn.end();
      }
    });
    report.refusedIsError = (await client.callTool('refuse', {})).isError === true;
    await client.close();
  } finally {
    await server.close();
    dispose();
    await provider.forceFlush();
    await provider.shutdown();
    trace.disable();
  }
  return report;
}

page.otelRun = run().catch((error: unknown) => ({ error: error instanceof Error ? error.stack : String(error) }));

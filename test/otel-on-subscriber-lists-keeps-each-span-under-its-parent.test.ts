/**
 * `mcpwire/otel` where the runtime has no `node:diagnostics_channel` (a browser, a Worker, Node
 * before 20.16): mcpwire's channels are subscriber lists, and `instrument()` still makes the MCP
 * span the active one where the work runs — the CLIENT span under the caller's span, the SERVER
 * span under the CLIENT span (through `params._meta`), and a span the tool handler opens under the
 * SERVER span, after the server's own awaits (the list channel's bound store entered the context,
 * carried by the AsyncLocalStorage context manager). The modules are loaded fresh with
 * `process.getBuiltinModule` hiding `node:diagnostics_channel`, so the Node channels stay silent.
 */
import diagnostics from 'node:diagnostics_channel';
import { SpanKind, trace } from '@opentelemetry/api';
import { expect, it, vi } from 'vitest';

const original = Object.getOwnPropertyDescriptor(process, 'getBuiltinModule')!;
const builtin = process.getBuiltinModule.bind(process);
process.getBuiltinModule = (id: string) => (id === 'node:diagnostics_channel' ? undefined : builtin(id));
vi.resetModules();
const [{ instrumented }, { connectKitClient }, { McpServer }, { MCP_CHANNELS }, { eventually }] = await Promise.all([
  import('./support/otel-sdk.js'),
  import('./support/kit-memory.js'),
  import('../src/server/index.js'),
  import('../src/observe/channels.js'),
  import('./support/wait.js'),
]);
const { tracingChannel } = await import('../src/observe/tracing-channel.js');
Object.defineProperty(process, 'getBuiltinModule', original);

const otel = instrumented();

it('keeps the caller, CLIENT, SERVER and handler spans in one chain on subscriber lists', async () => {
  // instrument() subscribed to the lists, not to Node's channels of the same names.
  expect(tracingChannel(MCP_CHANNELS.sendRequest).hasSubscribers).toBe(true);
  expect(diagnostics.tracingChannel(MCP_CHANNELS.sendRequest).hasSubscribers).toBe(false);

  const server = new McpServer({ name: 'lists', version: '0.0.1' });
  server.registerTool({
    name: 'nested',
    inputSchema: { type: 'object' },
    handler: async () => {
      await Promise.resolve();
      trace.getTracer('user').startActiveSpan('user work', (span) => span.end());
      return { content: [] };
    },
  });
  const client = await connectKitClient(server);
  await otel.tracerProvider.getTracer('agent').startActiveSpan('agent turn', async (turn) => {
    await client.callTool('nested', {});
    turn.end();
  });

  const span = (name: string, kind: SpanKind) =>
    eventually(() => otel.spans(name).find((s) => s.kind === kind), { what: `the ${SpanKind[kind]} span "${name}"` });
  const turn = await span('agent turn', SpanKind.INTERNAL);
  const sent = await span('tools/call nested', SpanKind.CLIENT);
  const handled = await span('tools/call nested', SpanKind.SERVER);
  const user = await span('user work', SpanKind.INTERNAL);
  expect(sent.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
  expect(handled.parentSpanContext?.spanId).toBe(sent.spanContext().spanId);
  expect(user.parentSpanContext?.spanId).toBe(handled.spanContext().spanId);
  expect(new Set([turn, sent, handled, user].map((s) => s.spanContext().traceId)).size).toBe(1);
});

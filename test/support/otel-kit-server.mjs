#!/usr/bin/env node
// A kit server (`mcpwire/server` from dist/) with OpenTelemetry set up (otel-node.mjs): `echo
// {text}`. Over its own stdio, or with `--http` on 127.0.0.1:0 at `/mcp` (prints `{"port":N}`).
// Flushes its spans before it exits: when stdin ends (stdio) or on SIGTERM (HTTP).
import http from 'node:http';
import { createHttpHandler, McpServer, StdioServerTransport } from 'mcpwire/server';
import { startTelemetry } from './otel-node.mjs';

const telemetry = startTelemetry('kit-server');
const server = new McpServer({ name: 'kit-otel', version: '0.0.1', logger: () => undefined });
server.registerTool({
  name: 'echo',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  handler: ({ text }) => ({ content: [{ type: 'text', text }] }),
});

if (process.argv.includes('--http')) {
  const handler = createHttpHandler(server, { path: '/mcp' });
  const listener = http.createServer((req, res) => handler(req, res));
  listener.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: listener.address().port })}\n`));
  process.once('SIGTERM', async () => {
    await handler.close({ graceMs: 1_000 });
    listener.closeAllConnections();
    listener.close();
    await telemetry.shutdown();
    process.exit(0);
  });
} else {
  const session = server.connect(new StdioServerTransport());
  await session.closed;
  await telemetry.shutdown();
}

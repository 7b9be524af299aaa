#!/usr/bin/env node
// One `echo {text}` tool over stdio on the server named by argv[2]: `mcpwire` (the kit, from
// dist/), `sdk-v1` (@modelcontextprotocol/sdk McpServer) or `sdk-v2` (@modelcontextprotocol/server).
// Started by bench/server/run.mjs; logs nothing.
import { mcpwireEchoServer, sdkV2EchoFactory } from './echo-tool.mjs';

const which = process.argv[2];
if (which === 'mcpwire' || which === 'mcpwire-otel' || which === 'mcpwire-base') {
  // mcpwire-otel: instrument() on (bench/otel-setup.mjs); mcpwire-base: a baseline build (MCPWIRE_BASE_DIST).
  const { setUpOtel, baseDist } = await import('../otel-setup.mjs');
  if (which === 'mcpwire-otel') await setUpOtel();
  const kit = await import(which === 'mcpwire-base' ? new URL('server/index.js', baseDist()).href : 'mcpwire/server');
  mcpwireEchoServer(kit).connect(new kit.StdioServerTransport());
} else if (which === 'sdk-v1') {
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { z } = await import('zod');
  const server = new McpServer({ name: 'echo', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  await server.connect(new StdioServerTransport());
} else if (which === 'sdk-v2') {
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  serveStdio(await sdkV2EchoFactory());
} else {
  process.stderr.write('usage: echo-servers.mjs mcpwire|sdk-v1|sdk-v2\n');
  process.exit(2);
}

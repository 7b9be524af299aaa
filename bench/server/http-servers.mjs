#!/usr/bin/env node
// One `echo {text}` tool over Streamable HTTP at http://127.0.0.1:PORT/mcp on the server named by
// argv[2], each served statelessly on plain node:http (no framework), and prints {"port":N} on
// stdout once listening. Started by bench/server/run.mjs and kit.mjs; logs nothing.
//   raw      the floor: the body read, bench/responses.mjs's hand-written answer (JSON.parse,
//            the id spliced into a fixed result), written with writeHead + end
//   mcpwire  the kit's createHttpHandler (from dist/), `sessions: false`
//   sdk-v1   @modelcontextprotocol/sdk McpServer + StreamableHTTPServerTransport in the stateless
//            shape its docs show (simpleStatelessStreamableHttp: a new server and transport per
//            POST, `sessionIdGenerator: undefined`, closed when the response closes)
//   sdk-v2   @modelcontextprotocol/server createMcpHandler (legacy: 'stateless') behind the same
//            node:http → fetch Request adapter as spec-fixtures/servers/modern/v2-server.mjs
//            (@modelcontextprotocol/node, its own adapter, is not installed)
import { createServer } from 'node:http';
import { mcpwireEchoServer, sdkV2EchoHandler } from './echo-tool.mjs';

const which = process.argv[2];
let handle;
if (which === 'raw') {
  const { handle: answer } = await import('../responses.mjs');
  handle = (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const out = answer(Buffer.concat(chunks).toString('utf8'));
      if (out === '') return void res.writeHead(202).end();
      const body = out.slice(0, -1);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  };
} else if (which === 'mcpwire' || which === 'mcpwire-otel' || which === 'mcpwire-base') {
  // mcpwire-otel: instrument() on (bench/otel-setup.mjs); mcpwire-base: a baseline build (MCPWIRE_BASE_DIST).
  const { setUpOtel, baseDist } = await import('../otel-setup.mjs');
  if (which === 'mcpwire-otel') await setUpOtel();
  const kit = await import(which === 'mcpwire-base' ? new URL('server/index.js', baseDist()).href : 'mcpwire/server');
  handle = kit.createHttpHandler(mcpwireEchoServer(kit), { path: '/mcp', sessions: false });
} else if (which === 'sdk-v1') {
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const { z } = await import('zod');
  const getServer = () => {
    const server = new McpServer({ name: 'echo', version: '1.0.0' });
    server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
      content: [{ type: 'text', text }],
    }));
    return server;
  };
  handle = async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const server = getServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    res.on('close', () => {
      transport.close();
      server.close();
    });
    await transport.handleRequest(req, res);
  };
} else if (which === 'sdk-v2') {
  const handler = await sdkV2EchoHandler();
  handle = async (req, res) => {
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
    const response = await handler.fetch(
      new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
        signal: abort.signal,
      }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return void res.end();
    for await (const chunk of response.body) res.write(chunk);
    res.end();
  };
} else {
  process.stderr.write('usage: http-servers.mjs raw|mcpwire|mcpwire-base|mcpwire-otel|sdk-v1|sdk-v2\n');
  process.exit(2);
}
const listener = createServer((req, res) => {
  if (!req.url.startsWith('/mcp')) return void res.writeHead(404).end();
  Promise.resolve(handle(req, res)).catch(() => {
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});
listener.keepAliveTimeout = 60_000;
listener.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: listener.address().port })}\n`));

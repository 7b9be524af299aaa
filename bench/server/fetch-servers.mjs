#!/usr/bin/env node
// One `echo {text}` tool as a web-standard fetch handler, `(Request) => Promise<Response>`, at
// http://127.0.0.1:PORT/mcp, served by the runtime this runs on, stateless; prints {"port":N} on
// stdout once listening, or {"missing":"why"} when this build has no such server. Started by
// bench/server/kit.mjs; logs nothing.
//   node bench/server/fetch-servers.mjs <which>               @hono/node-server's serve() (node:http)
//   deno run -A bench/server/fetch-servers.mjs <which>        Deno.serve
//   bun bench/server/fetch-servers.mjs <which>                Bun.serve
// <which>:
//   raw      the floor: `await request.text()`, bench/responses.mjs's hand-written answer (the id
//            spliced into a fixed result), `new Response(body, { headers })`
//   mcpwire  the kit's createFetchHandler (`mcpwire/server`, from dist/), `sessions: false`
//   sdk-v2   @modelcontextprotocol/server 2.4 createMcpHandler (`legacy: 'stateless'`), its `fetch`
import { mcpwireEchoServer, sdkV2EchoHandler } from './echo-tool.mjs';

const which = globalThis.Deno ? globalThis.Deno.args[0] : process.argv[2];
const exit = () => (globalThis.Deno ? globalThis.Deno.exit(0) : process.exit(0));
const say = (value) => {
  const line = `${JSON.stringify(value)}\n`;
  if (globalThis.Deno) globalThis.Deno.stdout.writeSync(new TextEncoder().encode(line));
  else process.stdout.write(line);
};

let fetch;
if (which === 'raw') {
  const { handle } = await import('../responses.mjs');
  const headers = { 'content-type': 'application/json' };
  fetch = async (request) => {
    if (request.method !== 'POST') return new Response(null, { status: 405 });
    const out = handle(await request.text());
    return out === '' ? new Response(null, { status: 202 }) : new Response(out.slice(0, -1), { headers });
  };
} else if (which === 'mcpwire') {
  const kit = await import('mcpwire/server');
  if (typeof kit.createFetchHandler !== 'function') {
    say({ missing: 'createFetchHandler is not in this build' });
    exit();
  }
  const handler = kit.createFetchHandler(mcpwireEchoServer(kit), { path: '/mcp', sessions: false });
  fetch = (request) => handler(request);
} else if (which === 'sdk-v2') {
  const handler = await sdkV2EchoHandler();
  fetch = (request) => handler.fetch(request);
} else {
  say({ missing: `usage: fetch-servers.mjs raw|mcpwire|sdk-v2 (got ${which})` });
  exit();
}

const hostname = '127.0.0.1';
if (globalThis.Deno) {
  globalThis.Deno.serve({ port: 0, hostname, onListen: ({ port }) => say({ port }) }, fetch);
} else if (globalThis.Bun) {
  const served = globalThis.Bun.serve({ port: 0, hostname, idleTimeout: 60, fetch });
  say({ port: served.port });
} else {
  const { serve } = await import('@hono/node-server');
  const listener = serve({ fetch, port: 0, hostname }, ({ port }) => say({ port }));
  listener.keepAliveTimeout = 60_000;
}

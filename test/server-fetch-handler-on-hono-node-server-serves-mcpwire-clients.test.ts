/**
 * `createFetchHandler` served over real loopback HTTP by `@hono/node-server` (node:http turned
 * into `Request` → `Response`), driven by mcpwire's own client in both eras: 2026-07-28 with
 * progress and a cancel the tool sees, and a legacy session.
 */
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createFetchHandler, McpServer, type McpFetchHandler } from '../src/server/index.js';
import { connectClient } from './support/client.js';
import { holdingServer, registerProgressAdd } from './support/kit-servers.js';
import { until, within } from './support/wait.js';

/** `server` behind `createFetchHandler` on `@hono/node-server` at 127.0.0.1, port 0; closed when the test ends. */
async function serveOnHono(server: McpServer): Promise<{ url: string; handler: McpFetchHandler }> {
  const handler = createFetchHandler(server, { path: '/mcp' });
  let listening!: (info: AddressInfo) => void;
  const ready = new Promise<AddressInfo>((resolve) => (listening = resolve));
  const listener: ServerType = serve({ fetch: handler, port: 0, hostname: '127.0.0.1' }, listening);
  const { port } = await within(ready, { what: 'the hono listener to listen' });
  onTestFinished(async () => {
    await handler.close({ graceMs: 1000 });
    (listener as Server).closeAllConnections();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    await server.close();
  });
  return { url: `http://127.0.0.1:${port}/mcp`, handler };
}

/** The holding server (`hold` runs until its call is aborted) with an `add` tool that reports progress. */
function kitServer(): ReturnType<typeof holdingServer> {
  const kit = holdingServer('hono-kit');
  const { server } = kit;
  registerProgressAdd(server);
  return kit;
}

describe('createFetchHandler on @hono/node-server', () => {
  it("serves mcpwire's client on 2026-07-28: progress, and a cancel the tool sees", async () => {
    const { server, held, aborted } = kitServer();
    const { url, handler } = await serveOnHono(server);
    const client = await connectClient({ url });
    expect(client.era).toBe('modern');
    const progress: number[] = [];
    const result = await client.callTool('add', { a: 2, b: 5 }, { onProgress: (p) => progress.push(p.progress) });
    expect(result.content).toEqual([{ type: 'text', text: '7' }]);
    expect(progress).toEqual([1, 2]);

    const controller = new AbortController();
    const call = client.callTool('hold', {}, { signal: controller.signal });
    await held();
    controller.abort();
    await expect(call).rejects.toThrow();
    await aborted();
    // What stays in flight is the client's listen stream only.
    await until(() => handler.inFlight === handler.openListens, { what: 'the cancelled call to end' });
  });

  it("serves mcpwire's client in a legacy session", async () => {
    const { server } = kitServer();
    const { url } = await serveOnHono(server);
    const client = await connectClient({ url }, { era: 'legacy' });
    expect(client.era).toBe('legacy');
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['hold', 'add']);
    const progress: number[] = [];
    const result = await client.callTool('add', { a: 1, b: 1 }, { onProgress: (p) => progress.push(p.progress) });
    expect(result.content).toEqual([{ type: 'text', text: '2' }]);
    expect(progress).toEqual([1, 2]);
  });
});

/**
 * What `createHttpHandler` does when a framework's body parser read the request before it: behind
 * Express's `express.json()` the kit takes the parsed body (`req.body`) and serves as if it had
 * read the stream; where the stream was read and nothing was left on the request (Fastify's own
 * JSON parser in front of a hijacked route) it refuses at once with a 500 that says why, and
 * nothing runs; it never waits for a body that will not come.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import express from 'express';
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { expect, it, onTestFinished } from 'vitest';
import { createHttpHandler } from '../src/server/index.js';
import { connectClient } from './support/client.js';
import { initializeMessage, legacyInit, modernInit, type WireInit } from './support/fetch-wire.js';
import { mountedServer } from './support/mounted-server.js';

async function post(url: string, init: WireInit): Promise<{ status: number; text: string }> {
  const response = await fetch(url, init);
  return { status: response.status, text: await response.text() };
}

it('behind express.json() serves from the parsed body: SDK v1 with a session and a 2026 call', async () => {
  const served = mountedServer('behind-express-json');
  // A long body wait: were the kit to wait for the already-read stream, the test would time out.
  const handler = createHttpHandler(served.server, { path: '/mcp', bodyTimeoutMs: 120_000 });
  const app = express();
  app.use(express.json());
  app.all('/mcp', handler);
  const listener = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => listener.once('listening', () => resolve()));
  onTestFinished(async () => {
    await handler.close({ graceMs: 1_000 });
    listener.closeAllConnections();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    await served.server.close();
  });
  const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/mcp`;

  const v1 = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
  const transport = new TransportV1(new URL(url));
  await v1.connect(transport);
  onTestFinished(() => v1.close());
  expect(transport.sessionId).toMatch(/\S/);
  expect((await v1.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).structuredContent).toEqual({ sum: 3 });

  const modern = await connectClient({ url }, { era: 'modern' });
  expect((await modern.callTool('add', { a: 2, b: 2 })).structuredContent).toEqual({ sum: 4 });
  expect(served.calls).toBe(2);
});

it("behind Fastify's own JSON parser refuses at once with a 500 that says why, and runs nothing", async () => {
  const served = mountedServer('behind-fastify-json');
  const handler = createHttpHandler(served.server, { path: '/mcp', bodyTimeoutMs: 120_000 });
  const app = Fastify();
  app.all('/mcp', (request, reply) => {
    reply.hijack();
    handler(request.raw, reply.raw);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  onTestFinished(async () => {
    await handler.close({ graceMs: 1_000 });
    app.server.closeAllConnections();
    await app.close();
    await served.server.close();
  });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp`;

  const refused = await post(url, legacyInit(initializeMessage('raw')));
  expect(refused.status).toBe(500);
  expect(refused.text).toMatch(/body was already read/);
  const call = await post(url, modernInit('tools/call', { name: 'count', arguments: {} }));
  expect(call.status).toBe(500);
  expect(served.calls).toBe(0);
});

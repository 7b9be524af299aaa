/**
 * The kit's Streamable HTTP handler on a real listener, driven by mcpwire's client (modern, and
 * legacy with and without sessions) and by the official SDK v1 and v2 clients.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { describe, expect, it, onTestFinished } from 'vitest';
import { McpServer, ToolError } from '../src/server/index.js';
import { connectClient } from './support/client.js';
import { startKitHttp } from './support/kit-http.js';
import { eventually } from './support/wait.js';

function kitServer(): McpServer {
  const server = new McpServer({ name: 'kit-http', version: '3.0.0', logger: () => undefined });
  server.registerTool({
    name: 'add',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
    handler: ({ a, b }, context) => {
      context.progress(1, 2);
      context.progress(2, 2);
      return { structuredContent: { sum: a + b } };
    },
  });
  server.registerTool({
    name: 'fail',
    inputSchema: { type: 'object' },
    handler: () => {
      throw new ToolError('NOPE', 'It did not work.');
    },
  });
  return server;
}

describe("mcpwire's client over HTTP", () => {
  it('detects the modern era and calls tools, progress streamed over SSE', async () => {
    const kit = await startKitHttp(kitServer());
    const client = await connectClient({ url: kit.url });
    expect(client.era).toBe('modern');
    expect((await client.listTools()).map((t) => t.name)).toEqual(['add', 'fail']);
    const progress: number[] = [];
    const result = await client.callTool('add', { a: 2, b: 3 }, { onProgress: (p) => progress.push(p.progress) });
    expect(result.structuredContent).toEqual({ sum: 5 });
    expect(progress).toEqual([1, 2]);
    expect((await client.callTool('fail', {})).structuredContent).toEqual({
      success: false,
      error: { code: 'NOPE', message: 'It did not work.' },
    });
  });

  it.each([true, false])('speaks the legacy era (sessions: %s)', async (sessions) => {
    const kit = await startKitHttp(kitServer(), { path: '/mcp', sessions });
    const client = await connectClient({ url: kit.url }, { era: 'legacy' });
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect((await client.callTool('add', { a: 1, b: 1 })).structuredContent).toEqual({ sum: 2 });
    // The envelope does not fit add's outputSchema, so it travels as text only.
    const invalid = await client.callTool('add', { a: 'x', b: 1 });
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent).toBeUndefined();
    expect(JSON.parse((invalid.content[0] as { text: string }).text)).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', paths: ['/a'] },
    });
  });
});

describe('the official SDK clients over HTTP', () => {
  it('SDK v1 (legacy, with a session) lists and calls, errors included', async () => {
    const kit = await startKitHttp(kitServer());
    const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
    await client.connect(new TransportV1(new URL(kit.url)));
    onTestFinished(() => client.close());
    expect(client.getServerVersion()).toMatchObject({ name: 'kit-http', version: '3.0.0' });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['add', 'fail']);
    expect((await client.callTool({ name: 'add', arguments: { a: 4, b: 5 } })).structuredContent).toEqual({ sum: 9 });
    expect(await client.callTool({ name: 'fail', arguments: {} })).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'NOPE' } },
    });
    expect(kit.listener.listening).toBe(true);
  });

  it('SDK v2 lists and calls', async () => {
    const kit = await startKitHttp(kitServer());
    const client = new ClientV2({ name: 'sdk-v2', version: '2.0.0' });
    await client.connect(new TransportV2(new URL(kit.url)));
    onTestFinished(() => client.close());
    expect((await client.listTools()).tools.map((t: { name: string }) => t.name)).toEqual(['add', 'fail']);
    expect((await client.callTool({ name: 'add', arguments: { a: 40, b: 2 } })).structuredContent).toEqual({ sum: 42 });
  });
});

describe('legacy sessions', () => {
  it('tell list_changed on the GET stream, which ends when the client closes', async () => {
    const server = kitServer();
    const kit = await startKitHttp(server);
    const client = await connectClient({ url: kit.url }, { era: 'legacy' });
    let changes = 0;
    client.on('toolsChanged', () => changes++);
    // The client opens its GET stream after the handshake; a change before that would be lost.
    await eventually(() => (kit.handler.openStreams === 1 ? true : undefined), { what: 'the GET stream to be open' });
    const dispose = server.registerTool({ name: 'late', inputSchema: { type: 'object' }, handler: () => ({}) });
    await eventually(() => (changes > 0 ? true : undefined), { what: 'list_changed on the GET stream' });
    expect((await client.listTools({ refresh: true })).map((t) => t.name)).toContain('late');
    dispose();
    await client.close();
    // The client's close ends its GET stream (and its session).
    await eventually(() => (kit.handler.openStreams === 0 ? true : undefined), {
      what: 'the session and its stream to end',
    });
  });
});

/**
 * The kit mounted in each framework as its users mount it (Hono and a Next.js-style route on
 * `createFetchHandler`, Express and Fastify on `createHttpHandler`), each on a real listener,
 * serves the same clients the same way: the official SDK v1 client with a legacy session (its GET
 * stream hears `list_changed`, its DELETE ends the session), and the SDK v2 and mcpwire clients on
 * 2026-07-28 with progress and a cancel that reaches the tool's signal.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { connectClient } from './support/client.js';
import { MOUNTS, type Mount, type MountedEndpoint } from './support/mounts.js';
import { until, within } from './support/wait.js';

async function start(mount: Mount): Promise<MountedEndpoint> {
  const endpoint = await mount.start();
  onTestFinished(() => endpoint.close());
  return endpoint;
}

/** A fetch that records each request's `MCP-Protocol-Version` (what era the client spoke). */
function recordingVersions(): { fetch: typeof fetch; versions: Array<string | null> } {
  const versions: Array<string | null> = [];
  return {
    versions,
    fetch: (input, init) => {
      versions.push(new Headers(init?.headers).get('mcp-protocol-version'));
      return fetch(input, init);
    },
  };
}

describe.each(MOUNTS)('the kit on $name', (mount) => {
  it('serves SDK v1 a legacy session: calls, list_changed on its GET stream, and DELETE ends it', async () => {
    const endpoint = await start(mount);
    const transport = new TransportV1(new URL(endpoint.url));
    const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
    await client.connect(transport);
    onTestFinished(() => client.close());
    const sessionId = transport.sessionId;
    expect(sessionId).toMatch(/\S/);
    expect(client.getServerVersion()?.name).toMatch(/^on-/);
    const progress: number[] = [];
    const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }, CallToolResultSchema, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(sum.structuredContent).toEqual({ sum: 5 });
    expect(progress).toEqual([1, 2]);

    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    // The client opens its GET stream after the handshake; a change before that would be lost.
    await until(() => endpoint.handler.openStreams === 1, { what: "SDK v1's GET stream open" });
    const dispose = endpoint.served.server.registerTool({
      name: 'late',
      inputSchema: { type: 'object' },
      handler: () => ({ content: [] }),
    });
    onTestFinished(dispose);
    await until(() => changes > 0, { what: 'list_changed on the GET stream' });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('late');

    await transport.terminateSession();
    await until(() => endpoint.handler.openStreams === 0, { what: 'the session and its GET stream ended' });
    const after = await fetch(endpoint.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId!,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
    });
    await after.body?.cancel();
    expect(after.status).toBe(404);
  });

  it('serves SDK v2 on 2026-07-28: progress, and a cancel aborts the tool', async () => {
    const endpoint = await start(mount);
    const wire = recordingVersions();
    const client = new ClientV2(
      { name: 'sdk-v2', version: '2.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new TransportV2(new URL(endpoint.url), { fetch: wire.fetch }));
    onTestFinished(() => client.close());
    const progress: number[] = [];
    const sum = await client.callTool(
      { name: 'add', arguments: { a: 40, b: 2 } },
      { onprogress: (p: { progress: number }) => progress.push(p.progress) },
    );
    expect(sum.structuredContent).toEqual({ sum: 42 });
    expect(progress).toEqual([1, 2]);

    const controller = new AbortController();
    const held = client.callTool(
      { name: 'hold', arguments: {} },
      { signal: controller.signal, onprogress: () => controller.abort() },
    );
    await expect(within(held, { what: "SDK v2's cancelled call to settle" })).rejects.toThrow();
    await until(() => endpoint.served.aborts === 1, { what: "the hold tool's signal aborted" });
    expect(new Set(wire.versions)).toEqual(new Set(['2026-07-28']));
    await until(() => endpoint.handler.inFlight === endpoint.handler.openListens, {
      what: 'nothing but listen streams left in flight',
    });
  });

  it("serves mcpwire's client on 2026-07-28: progress, and a cancel aborts the tool", async () => {
    const endpoint = await start(mount);
    const client = await connectClient({ url: endpoint.url }, { era: 'modern' });
    expect(client.protocolVersion).toBe('2026-07-28');
    const progress: number[] = [];
    const sum = await client.callTool('add', { a: 1, b: 1 }, { onProgress: (p) => progress.push(p.progress) });
    expect(sum.structuredContent).toEqual({ sum: 2 });
    expect(progress).toEqual([1, 2]);

    const controller = new AbortController();
    const held = client.callTool('hold', {}, { signal: controller.signal, onProgress: () => controller.abort() });
    await expect(within(held, { what: 'the cancelled call to settle' })).rejects.toMatchObject({ code: 'CANCELLED' });
    await until(() => endpoint.served.aborts === 1, { what: "the hold tool's signal aborted" });
    await until(() => endpoint.handler.inFlight === endpoint.handler.openListens, {
      what: 'nothing but listen streams left in flight',
    });
  });
});

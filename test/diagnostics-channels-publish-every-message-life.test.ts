/**
 * mcpwire's diagnostics channels (docs/observability.md): every request and notification sent,
 * every one handled, and every connection's life, in both roles, each one event object through
 * `start`, `end`, (`error`), `asyncStart`, `asyncEnd`, with the facts a subscriber needs. Over an
 * in-memory pair and a real loopback HTTP listener, both eras. A subscriber's propagation fields
 * ride in `params._meta` to the peer, and a handler runs in the stores bound to `start`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient, McpError, MCP_CHANNELS } from '../src/index.js';
import type { McpHandleRequestEvent, McpSendRequestEvent, McpSessionEvent } from '../src/index.js';
import { startKitHttp } from './support/kit-http.js';
import { connectKitClient } from './support/kit-memory.js';
import { holdingServer } from './support/kit-servers.js';
import { eventually } from './support/wait.js';

type Phase = 'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error';
const PHASES: Phase[] = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'];
/** The phases of a message life that ends in an error, in the order they are published. */
const FAILED_LIFE: Phase[] = ['start', 'end', 'error', 'asyncStart', 'asyncEnd'];

/** Every event of every mcpwire channel, in order, with its channel and phase; unsubscribed after each test. */
function record(): Array<{ channel: string; phase: Phase; event: Record<string, unknown> }> {
  const seen: Array<{ channel: string; phase: Phase; event: Record<string, unknown> }> = [];
  for (const name of Object.values(MCP_CHANNELS)) {
    const channel = diagnostics.tracingChannel(name);
    const handlers = Object.fromEntries(
      PHASES.map((phase) => [phase, (event: unknown) => seen.push({ channel: name, phase, event: event as never })]),
    ) as never;
    channel.subscribe(handlers);
    unsubscribers.push(() => channel.unsubscribe(handlers));
  }
  return seen;
}

const unsubscribers: Array<() => void> = [];
afterEach(() => {
  for (const off of unsubscribers.splice(0)) off();
  // Nothing stays subscribed: the next test (and the engine's fast path) starts from no subscriber.
  for (const name of Object.values(MCP_CHANNELS)) expect(diagnostics.tracingChannel(name).hasSubscribers).toBe(false);
});

/** A kit server with `echo`, `fails` (throws) and `hold` (runs until aborted; `held` resolves when it runs). */
function kit(store?: AsyncLocalStorage<string>, seenInHandler?: string[]) {
  const { server, held } = holdingServer('observed');
  server.registerTool({
    name: 'echo',
    inputSchema: { type: 'object' },
    handler: (args) => {
      if (store) seenInHandler?.push(store.getStore() ?? 'no store');
      return { content: [{ type: 'text', text: JSON.stringify(args) }] };
    },
  });
  return { server, held };
}

/** The phases one event object went through on `channel`, in order. */
function lifeOf(seen: ReturnType<typeof record>, channel: string, event: unknown): Phase[] {
  return seen.filter((e) => e.channel === channel && e.event === event).map((e) => e.phase);
}

describe('diagnostics channels', () => {
  it("carry a tool call's whole life on both sides, with its facts, over an in-memory pair", async () => {
    const seen = record();
    const { server } = kit();
    const client = await connectKitClient(server, { name: 'observed-server', era: 'legacy' });
    await client.callTool('echo', { a: 1 });

    const sent = seen.find((e) => e.channel === MCP_CHANNELS.sendRequest && e.event.method === 'tools/call')!
      .event as unknown as McpSendRequestEvent;
    expect(lifeOf(seen, MCP_CHANNELS.sendRequest, sent)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(sent).toMatchObject({ method: 'tools/call', toolName: 'echo', promptName: undefined });
    expect(sent.connection).toMatchObject({ role: 'client', peer: 'observed-server', transport: 'memory' });
    expect(sent.protocolVersion).toBe(client.protocolVersion);
    expect(sent.result).toMatchObject({ content: [{ type: 'text', text: '{"a":1}' }] });

    const handled = seen.find((e) => e.channel === MCP_CHANNELS.handleRequest && e.event.method === 'tools/call')!
      .event as unknown as McpHandleRequestEvent;
    await eventually(() => lifeOf(seen, MCP_CHANNELS.handleRequest, handled).includes('asyncEnd'), {
      what: 'the handled call to end',
    });
    expect(lifeOf(seen, MCP_CHANNELS.handleRequest, handled)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(handled).toMatchObject({ method: 'tools/call', id: sent.id, toolName: 'echo' });
    expect(handled.connection).toMatchObject({ role: 'server', transport: 'memory' });
    expect(handled.answer).toMatchObject({ id: sent.id, result: { content: [{ type: 'text' }] } });

    // The legacy handshake's notification, sent by the client and handled by the server.
    expect(
      seen.some((e) => e.channel === MCP_CHANNELS.sendNotification && e.event.method === 'notifications/initialized'),
    ).toBe(true);
    expect(
      seen.some((e) => e.channel === MCP_CHANNELS.handleNotification && e.event.method === 'notifications/initialized'),
    ).toBe(true);
  });

  it('carry propagation fields to the peer in params._meta, and run the handler in the stores bound to start', async () => {
    record();
    const handleStart = diagnostics.tracingChannel<unknown, McpHandleRequestEvent>(MCP_CHANNELS.handleRequest).start;
    const sendStart = diagnostics.channel(`tracing:${MCP_CHANNELS.sendRequest}:start`);
    const inject = (event: unknown): void => {
      const e = event as McpSendRequestEvent;
      if (e.method === 'tools/call') e.meta.traceparent = `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`;
    };
    sendStart.subscribe(inject);
    unsubscribers.push(() => sendStart.unsubscribe(inject));
    const store = new AsyncLocalStorage<string>();
    handleStart.bindStore(store, (event) => `handling ${event.method}`);
    unsubscribers.push(() => handleStart.unbindStore(store));
    const inHandler: string[] = [];
    const { server } = kit(store, inHandler);
    const client = await connectKitClient(server);

    const handled: McpHandleRequestEvent[] = [];
    const onHandled = (event: unknown): void => void handled.push(event as McpHandleRequestEvent);
    handleStart.subscribe(onHandled);
    unsubscribers.push(() => handleStart.unsubscribe(onHandled));
    await client.callTool('echo', { a: 1 });

    const call = handled.find((e) => e.method === 'tools/call')!;
    expect(call.meta).toMatchObject({ traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` });
    // The tool's arguments reached it unchanged, and the handler saw the bound store.
    expect(inHandler).toEqual(['handling tools/call']);
  });

  it('end a cancelled call with its error on both sides, the handled one with no answer', async () => {
    const seen = record();
    const { server, held } = kit();
    const client = await connectKitClient(server);
    const abort = new AbortController();
    const call = client.callTool('hold', {}, { signal: abort.signal });
    await held();
    abort.abort(new Error('the user gave up'));
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });

    const sent = seen.find((e) => e.channel === MCP_CHANNELS.sendRequest && e.event.toolName === 'hold')!
      .event as unknown as McpSendRequestEvent;
    expect(lifeOf(seen, MCP_CHANNELS.sendRequest, sent)).toEqual(FAILED_LIFE);
    expect(sent.error).toBeInstanceOf(McpError);
    expect((sent.error as McpError).code).toBe('CANCELLED');

    const handled = seen.find((e) => e.channel === MCP_CHANNELS.handleRequest && e.event.toolName === 'hold')!
      .event as unknown as McpHandleRequestEvent;
    await eventually(() => lifeOf(seen, MCP_CHANNELS.handleRequest, handled).includes('asyncEnd'), {
      what: 'the cancelled call to end on the server',
    });
    expect(lifeOf(seen, MCP_CHANNELS.handleRequest, handled)).toEqual(FAILED_LIFE);
    expect(handled.answer).toBeUndefined();
    expect((handled.error as McpError).code).toBe('CANCELLED');
    // The cancel notice is a notification of its own.
    expect(
      seen.some((e) => e.channel === MCP_CHANNELS.sendNotification && e.event.method === 'notifications/cancelled'),
    ).toBe(true);
  });

  it('end an unknown method with its error answer, and a session with the connection', async () => {
    const seen = record();
    const { server } = kit();
    const client = await connectKitClient(server);
    await expect(client.request('no/such/method' as never, {} as never)).rejects.toMatchObject({ rpcCode: -32601 });
    const handled = seen.find((e) => e.channel === MCP_CHANNELS.handleRequest && e.event.method === 'no/such/method')!
      .event as unknown as McpHandleRequestEvent;
    expect(lifeOf(seen, MCP_CHANNELS.handleRequest, handled)).toEqual(FAILED_LIFE);
    expect(handled.answer).toMatchObject({ error: { code: -32601 } });

    const sessions = seen.filter((e) => e.channel === MCP_CHANNELS.session && e.phase === 'start').map((e) => e.event);
    expect(sessions.map((e) => (e as unknown as McpSessionEvent).connection.role).sort()).toEqual(['client', 'server']);
    await client.close();
    await eventually(() => sessions.every((event) => lifeOf(seen, MCP_CHANNELS.session, event).includes('asyncEnd')), {
      what: 'both sessions to end',
    });
    for (const event of sessions) expect((event as unknown as McpSessionEvent).error).toBeUndefined();
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`give HTTP facts on both sides over a loopback listener (${era})`, async () => {
      const seen = record();
      const { server } = kit();
      const http = await startKitHttp(server, { path: '/mcp' });
      const client = await McpClient.connect({ url: http.url }, { era });
      try {
        await client.callTool('echo', { a: 1 });
      } finally {
        await client.close();
      }
      const sent = seen.find((e) => e.channel === MCP_CHANNELS.sendRequest && e.event.method === 'tools/call')!
        .event as unknown as McpSendRequestEvent;
      expect(sent.connection).toMatchObject({
        role: 'client',
        transport: 'http',
        serverAddress: '127.0.0.1',
        serverPort: http.port,
      });
      expect(sent.protocolVersion).toBe(client.protocolVersion);
      if (era === 'legacy') expect(sent.connection.sessionId).toEqual(expect.any(String));
      const handled = seen.find((e) => e.channel === MCP_CHANNELS.handleRequest && e.event.method === 'tools/call')!
        .event as unknown as McpHandleRequestEvent;
      expect(handled.connection).toMatchObject({
        role: 'server',
        transport: 'http',
        serverPort: http.port,
        clientAddress: '127.0.0.1',
      });
      expect(handled.protocolVersion).toBe(client.protocolVersion);
      if (era === 'legacy') expect(handled.connection.sessionId).toBe(sent.connection.sessionId);
      else expect(handled.connection.sessionId).toBeUndefined();
    });
  }
});

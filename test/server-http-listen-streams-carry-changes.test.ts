/**
 * The 2026 change feed over the kit's Streamable HTTP handler on a real listener (127.0.0.1:0):
 * `subscriptions/listen` is a POST whose SSE response stays open. mcpwire's client hears a tool
 * registered after connect and a subscribed resource's update; on raw POSTs, the ack leaves out
 * what the server does not support, closing the response (the cancel) leaves nothing registered,
 * the handler's close ends listens with the completion result at once, and the handler bounds
 * how many it keeps.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../src/server/index.js';
import { connectClient } from './support/client.js';
import { startKitHttp, type KitHttp } from './support/kit-http.js';
import { changeFeedServer } from './support/kit-servers.js';
import { until, within } from './support/wait.js';

const REVISION = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': REVISION, 'io.modelcontextprotocol/clientCapabilities': {} };
const SUB = 'io.modelcontextprotocol/subscriptionId';

type Message = {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown> & { _meta?: Record<string, unknown> };
  result?: Record<string, unknown>;
};

const kitServer = (): McpServer => changeFeedServer('kit-listen-http');

/** What the server has registered for change notices: a closed listen leaves its share behind if it leaks. */
function listenerCounts(server: McpServer): number[] {
  const { tools, prompts, resources, changes } = server.core;
  return [tools.listenerCount, prompts.changes.listenerCount, resources.changes.listenerCount, changes.listenerCount];
}

/** One raw listen POST: its status, the messages of its SSE stream as they come, and how it ended. */
async function rawListen(
  kit: KitHttp,
  id: unknown,
  notifications: Record<string, unknown>,
  accept = 'application/json, text/event-stream',
) {
  const controller = new AbortController();
  aborts.push(controller);
  const response = await fetch(kit.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept,
      'mcp-protocol-version': REVISION,
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: { _meta: META, notifications },
    }),
    signal: controller.signal,
  });
  const messages: Message[] = [];
  let ended = false;
  const reading = (async () => {
    if (!response.headers.get('content-type')?.includes('text/event-stream')) {
      messages.push((await response.json()) as Message);
      return;
    }
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('\n');
        if (data !== '') messages.push(JSON.parse(data) as Message);
      }
    }
  })().then(
    () => void (ended = true),
    () => void (ended = true), // aborted by the test: the cancel
  );
  return { status: response.status, messages, cancel: () => controller.abort(), reading, isEnded: () => ended };
}

const aborts: AbortController[] = [];
afterEach(() => {
  for (const controller of aborts.splice(0)) controller.abort();
});

describe('the kit HTTP handler serves subscriptions/listen', () => {
  it("mcpwire's client hears a tool registered after connect and a subscribed resource's update", async () => {
    const server = kitServer();
    const kit = await startKitHttp(server);
    const client = await connectClient({ url: kit.url });
    expect(client.era).toBe('modern');
    expect(client.capabilities).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
    });
    await until(() => kit.handler.openListens === 1, { what: "the client's listen stream" });
    let toolsChanged = 0;
    client.on('toolsChanged', () => toolsChanged++);
    server.registerTool({ name: 'late', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
    await until(() => toolsChanged >= 1, { what: 'the toolsChanged event' });
    expect((await client.listTools()).map((t) => t.name)).toEqual(['echo', 'late']);

    const updates: string[] = [];
    client.on('resourceUpdated', (p) => updates.push(p.uri));
    await client.subscribeResource('test://doc');
    // The client replaces its stream with one naming the URI: both URIs change until the new
    // stream carries an update; only the subscribed one ever reaches the client.
    await until(
      () => {
        server.notifyResourceUpdated('test://other');
        server.notifyResourceUpdated('test://doc');
        return updates.length >= 1;
      },
      { what: 'the resourceUpdated event' },
    );
    expect(new Set(updates)).toEqual(new Set(['test://doc']));
  });

  it('acknowledges only what the server supports, and stamps each change with the listen id', async () => {
    const server = kitServer(); // no prompts: promptsListChanged is not offered
    const kit = await startKitHttp(server);
    const listen = await rawListen(kit, 'feed-1', {
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ['test://doc'],
    });
    expect(listen.status).toBe(200);
    await until(() => listen.messages.length >= 1, { what: 'the acknowledgment' });
    expect(listen.messages[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: {
        _meta: { [SUB]: 'feed-1' },
        notifications: { toolsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ['test://doc'] },
      },
    });
    server.registerTool({ name: 'late', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
    server.notifyResourceUpdated('test://doc');
    await until(() => listen.messages.length >= 3, { what: 'two change notices' });
    expect(listen.messages.slice(1)).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'test://doc', _meta: { [SUB]: 'feed-1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [SUB]: 'feed-1' } } },
    ]);
  });

  it('a listen whose response the client closes gets nothing more and leaves nothing registered', async () => {
    const server = kitServer();
    const before = listenerCounts(server);
    const kit = await startKitHttp(server);
    const withHandler = listenerCounts(server);
    const listen = await rawListen(kit, 1, {
      toolsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ['test://doc'],
    });
    await until(() => listen.messages.length >= 1, { what: 'the acknowledgment' });
    expect(listenerCounts(server)).not.toEqual(withHandler);
    listen.cancel();
    await within(listen.reading, { what: 'the stream closed' });
    await until(() => kit.handler.openListens === 0 && kit.handler.inFlight === 0, {
      what: 'the listen ended on the server',
    });
    expect(listenerCounts(server)).toEqual(withHandler);
    await kit.close();
    expect(listenerCounts(server)).toEqual(before);
  });

  it("the handler's close ends every listen with the completion result at once and leaves nothing running", async () => {
    const server = kitServer();
    const before = listenerCounts(server);
    const kit = await startKitHttp(server);
    const first = await rawListen(kit, 1, { toolsListChanged: true });
    const second = await rawListen(kit, 'two', { resourceSubscriptions: ['test://doc'] });
    await until(() => first.messages.length >= 1 && second.messages.length >= 1, { what: 'both acknowledgments' });
    expect(kit.handler.openListens).toBe(2);
    // A grace far longer than the test's bound: a listen must not hold it.
    await within(kit.handler.close({ graceMs: 60_000 }), { timeoutMs: 10_000, what: "the handler's close" });
    await within(Promise.all([first.reading, second.reading]), { what: 'both streams ended' });
    const serverInfo = { name: 'kit-listen-http', version: '0.0.1' };
    expect(first.messages.at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { resultType: 'complete', _meta: { [SUB]: 1, 'io.modelcontextprotocol/serverInfo': serverInfo } },
    });
    expect(second.messages.at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 'two',
      result: { resultType: 'complete', _meta: { [SUB]: 'two', 'io.modelcontextprotocol/serverInfo': serverInfo } },
    });
    expect(kit.handler.openListens).toBe(0);
    expect(kit.handler.inFlight).toBe(0);
    expect(listenerCounts(server)).toEqual(before);
  });

  it('bounds the open listens (503 past maxListens) and needs an SSE answer (406)', async () => {
    const kit = await startKitHttp(kitServer(), { path: '/mcp', maxListens: 2 });
    const held = [
      await rawListen(kit, 1, { toolsListChanged: true }),
      await rawListen(kit, 2, { toolsListChanged: true }),
    ];
    await until(() => held.every((l) => l.messages.length >= 1), { what: 'two acknowledgments' });
    const third = await rawListen(kit, 3, { toolsListChanged: true });
    expect(third.status).toBe(503);
    await third.reading;
    expect(third.messages[0]).toMatchObject({ id: 3, error: { code: -32603 } });
    held[0]!.cancel();
    await until(() => kit.handler.openListens === 1, { what: 'the cancelled listen gone' });
    const fourth = await rawListen(kit, 4, { toolsListChanged: true });
    expect(fourth.status).toBe(200);
    const jsonOnly = await rawListen(kit, 5, { toolsListChanged: true }, 'application/json');
    expect(jsonOnly.status).toBe(406);
    await jsonOnly.reading;
    expect(jsonOnly.messages[0]).toMatchObject({ id: 5, error: { code: -32600 } });
  });
});

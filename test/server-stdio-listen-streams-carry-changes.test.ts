/**
 * The 2026 change feed over stdio: a kit server in a child process (test/support/kit-listen-server.mjs,
 * on dist/: `npm run build` first) serves `subscriptions/listen`. mcpwire's client hears a tool
 * registered after connect and a subscribed resource's update; on the raw pipe, each listen is
 * acknowledged with what the server supports, its notifications carry its id, a cancelled listen
 * gets nothing more, and closing the server (or ending stdin) ends listens with the completion
 * result and the process leaves.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { connectClient } from './support/client.js';
import { KIT_LISTEN_SERVER, startKitStdio } from './support/kit-stdio.js';
import { waitUntilGone } from './support/processes.js';
import { until } from './support/wait.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const SUB = 'io.modelcontextprotocol/subscriptionId';

type Message = {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown> & { _meta?: Record<string, unknown> };
  result?: Record<string, unknown> & { _meta?: Record<string, unknown> };
  error?: unknown;
};

/** The fixture on a raw pipe: every line it writes, parsed; `send` adds `jsonrpc: '2.0'`. */
function rawServer(): {
  child: ChildProcessWithoutNullStreams;
  lines: Message[];
  send: (message: Record<string, unknown>) => void;
  exited: Promise<number | null>;
} {
  const raw = startKitStdio(KIT_LISTEN_SERVER);
  return {
    child: raw.child,
    lines: raw.messages,
    send: (message) => raw.write({ jsonrpc: '2.0', ...message }),
    exited: raw.ended.then((end) => end.code),
  };
}

const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  id,
  method: 'tools/call',
  params: { _meta: META, name, arguments: args },
});
const listen = (id: unknown, notifications: Record<string, unknown>) => ({
  id,
  method: 'subscriptions/listen',
  params: { _meta: META, notifications },
});
const stampedWith = (lines: Message[], id: unknown) =>
  lines.filter((m) => m.method !== undefined && m.params?._meta?.[SUB] === id);

describe('a kit server over stdio serves subscriptions/listen', () => {
  it("mcpwire's client hears a tool registered after connect and a subscribed resource's update", async () => {
    const client = await connectClient({ command: process.execPath, args: [KIT_LISTEN_SERVER] });
    expect(client.era).toBe('modern');
    expect(client.capabilities).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
    });
    expect((await client.listTools()).map((t) => t.name)).not.toContain('late');
    let toolsChanged = 0;
    client.on('toolsChanged', () => toolsChanged++);
    const updates: string[] = [];
    client.on('resourceUpdated', (p) => updates.push(p.uri));
    await client.callTool('add_tool', { name: 'late' });
    await until(() => toolsChanged >= 1, { what: 'the toolsChanged event' });
    expect((await client.listTools()).map((t) => t.name)).toContain('late');
    await client.subscribeResource('test://doc');
    // The new listen naming the URI goes down the pipe before the call, and the server reads in order.
    await client.callTool('touch', { uri: 'test://doc' });
    await until(() => updates.length >= 1, { what: 'the resourceUpdated event' });
    expect(updates).toEqual(['test://doc']);
  });

  it('acknowledges what it supports, stamps each listen with its id, and a cancelled listen gets nothing more', async () => {
    const { lines, send } = rawServer();
    send(listen('a', { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ['test://doc'] }));
    send(listen(7, { toolsListChanged: true }));
    await until(() => lines.filter((m) => m.method === 'notifications/subscriptions/acknowledged').length === 2, {
      what: 'two acknowledgments',
    });
    // No prompts here: promptsListChanged is left out of the ack.
    expect(stampedWith(lines, 'a')[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true, resourceSubscriptions: ['test://doc'] } },
    });
    expect(stampedWith(lines, 'a')[0]!.params!.notifications).not.toHaveProperty('promptsListChanged');
    expect(stampedWith(lines, 7)[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true } },
    });

    send(call(1, 'add_tool', { name: 'x' }));
    send(call(2, 'touch', { uri: 'test://doc' }));
    await until(() => lines.some((m) => m.id === 2), { what: 'the touch answered' });
    await until(() => stampedWith(lines, 'a').length === 3 && stampedWith(lines, 7).length === 2, {
      what: 'the changes on both listens',
    });
    // The two calls run side by side: their notices may come in either order.
    const [ack, ...changes] = stampedWith(lines, 'a');
    expect(ack!.method).toBe('notifications/subscriptions/acknowledged');
    expect(changes.map((m) => m.method).sort()).toEqual([
      'notifications/resources/updated',
      'notifications/tools/list_changed',
    ]);
    expect(changes.find((m) => m.method === 'notifications/resources/updated')!.params).toMatchObject({
      uri: 'test://doc',
    });
    expect(stampedWith(lines, 7).map((m) => m.method)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/tools/list_changed',
    ]);

    send({ method: 'notifications/cancelled', params: { requestId: 'a', reason: 'done' } });
    send(call(3, 'add_tool', { name: 'y' }));
    send(call(4, 'touch', { uri: 'test://doc' }));
    await until(() => lines.some((m) => m.id === 4) && stampedWith(lines, 7).length === 3, {
      what: 'the later changes on listen 7',
    });
    expect(stampedWith(lines, 'a')).toHaveLength(3);
    expect(lines.filter((m) => m.id === 'a')).toEqual([]);
  });

  it('closing the server ends every listen with the completion result, and the process leaves', async () => {
    const { child, lines, send, exited } = rawServer();
    send(listen(1, { toolsListChanged: true }));
    send(listen(2, { resourcesListChanged: true }));
    await until(() => lines.filter((m) => m.method === 'notifications/subscriptions/acknowledged').length === 2, {
      what: 'two acknowledgments',
    });
    send(call(3, 'shutdown'));
    await until(() => lines.some((m) => m.id === 1) && lines.some((m) => m.id === 2), {
      what: 'both listens answered',
    });
    for (const id of [1, 2]) {
      expect(lines.find((m) => m.id === id)).toEqual({
        jsonrpc: '2.0',
        id,
        result: {
          resultType: 'complete',
          _meta: { [SUB]: id, 'io.modelcontextprotocol/serverInfo': { name: 'kit-listen', version: '0.0.1' } },
        },
      });
    }
    expect(await waitUntilGone(child.pid!)).toBe(true);
    expect(await exited).toBe(0);
  });

  it('ending stdin ends the listens with the completion result at once, not after the grace', async () => {
    const { child, lines, send, exited } = rawServer();
    send(listen('only', { toolsListChanged: true }));
    await until(() => lines.some((m) => m.method === 'notifications/subscriptions/acknowledged'), {
      what: 'the acknowledgment',
    });
    child.stdin.end();
    // The session's grace for calls in flight is 10 s; a listen is not one of them.
    expect(await waitUntilGone(child.pid!, 5_000)).toBe(true);
    expect(await exited).toBe(0);
    expect(lines.find((m) => m.id === 'only')).toMatchObject({
      result: { resultType: 'complete', _meta: { [SUB]: 'only' } },
    });
  });
});

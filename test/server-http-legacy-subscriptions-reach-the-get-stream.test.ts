/**
 * Resource subscriptions over the kit's legacy Streamable HTTP sessions, on a real loopback
 * listener with mcpwire's client: `resources/subscribe` makes `McpServer.notifyResourceUpdated`
 * reach that session's GET stream as `notifications/resources/updated`, for the subscribed URI
 * only, and `resources/unsubscribe` stops it; a session that did not subscribe hears nothing.
 */
import { describe, expect, it } from 'vitest';
import type { McpClient } from '../src/client/mcp-client.js';
import { McpServer } from '../src/server/index.js';
import { connectClient } from './support/client.js';
import { startKitHttp, type KitHttp } from './support/kit-http.js';
import { eventually } from './support/wait.js';

async function serve(): Promise<{ server: McpServer; kit: KitHttp }> {
  const server = new McpServer({ name: 'watched', version: '1', logger: () => undefined });
  for (const uri of ['test://watched', 'test://other'])
    server.registerResource({ uri, name: uri, read: (u) => [{ uri: u, text: 'content' }] });
  const kit = await startKitHttp(server, { path: '/mcp', sessions: true });
  return { server, kit };
}

async function connect(kit: KitHttp): Promise<{ client: McpClient; updates: string[] }> {
  const client = await connectClient({ url: kit.url }, { era: 'legacy' });
  const updates: string[] = [];
  client.on('resourceUpdated', (params) => updates.push(params.uri));
  return { client, updates };
}

describe('legacy HTTP resource subscriptions', () => {
  it('deliver resources/updated on the GET stream of the subscribed session only, until it unsubscribes', async () => {
    const { server, kit } = await serve();
    const watcher = await connect(kit);
    const bystander = await connect(kit);
    const unsubscribe = await watcher.client.subscribeResource('test://watched');

    // The GET stream opens after the handshake; notify until the first notice arrives (bounded).
    await eventually(
      () => {
        server.notifyResourceUpdated('test://watched');
        return watcher.updates.length > 0 ? true : undefined;
      },
      { what: 'the first resources/updated on the GET stream' },
    );
    server.notifyResourceUpdated('test://other');
    const before = watcher.updates.length;
    server.notifyResourceUpdated('test://watched');
    await eventually(() => (watcher.updates.length > before ? true : undefined), {
      what: 'the second resources/updated',
    });
    expect(new Set(watcher.updates)).toEqual(new Set(['test://watched']));

    await unsubscribe();
    const after = watcher.updates.length;
    server.notifyResourceUpdated('test://watched');
    // A barrier on the same GET streams: list_changed goes out after the notice would have, so a
    // notice sent to either session would have arrived before it.
    const changed = { watcher: false, bystander: false };
    watcher.client.on('resourcesChanged', () => (changed.watcher = true));
    bystander.client.on('resourcesChanged', () => (changed.bystander = true));
    server.registerResource({ uri: 'test://barrier', name: 'barrier', read: (u) => [{ uri: u, text: '' }] });
    await eventually(() => (changed.watcher && changed.bystander ? true : undefined), {
      what: 'list_changed on both GET streams',
    });
    expect(watcher.updates.length).toBe(after);
    expect(bystander.updates).toEqual([]);
  });
});

/**
 * Interop: the official SDK v2 client (`@modelcontextprotocol/client`, pinned to 2026-07-28)
 * listens to the kit's HTTP handler: its `listen()` resolves with the honoured filter, a change
 * reaches its notification handlers, and the handler's close ends the subscription gracefully.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { afterEach, expect, it } from 'vitest';
import { McpServer } from '../src/server/index.js';
import { listenKit, type KitHttp } from './support/kit-http.js';
import { until, within } from './support/wait.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

it('SDK v2 listens: the honoured filter, a change notice, and a graceful end on close', async () => {
  const server = new McpServer({ name: 'kit-listen-v2', version: '0.0.1' });
  server.registerTool({
    name: 'echo',
    inputSchema: { type: 'object' },
    handler: () => ({ content: [{ type: 'text', text: 'echo' }] }),
  });
  server.registerResource({ uri: 'test://doc', name: 'doc', read: (uri) => [{ uri, text: 'the doc' }] });
  const kit: KitHttp = await listenKit(server);
  open.push(kit);
  const client = new ClientV2(
    { name: 'sdk-v2', version: '2.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new TransportV2(new URL(kit.url)));
  open.push(client);
  let toolsChanged = 0;
  const updated: string[] = [];
  client.setNotificationHandler('notifications/tools/list_changed', () => void toolsChanged++);
  client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
  const subscription = await within(
    client.listen({ toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ['test://doc'] }),
    { what: "SDK v2's listen acknowledged" },
  );
  expect(subscription.honoredFilter).toEqual({ toolsListChanged: true, resourceSubscriptions: ['test://doc'] });
  server.registerTool({ name: 'late', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
  server.notifyResourceUpdated('test://doc');
  await until(() => toolsChanged >= 1 && updated.length >= 1, { what: 'the change notices in SDK v2' });
  expect(updated).toEqual(['test://doc']);
  await kit.handler.close({ graceMs: 60_000 });
  expect(await within(subscription.closed, { what: 'the subscription ended' })).toBe('graceful');
});

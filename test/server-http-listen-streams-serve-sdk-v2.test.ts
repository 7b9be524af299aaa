/**
 * Interop: the official SDK v2 client (`@modelcontextprotocol/client`, pinned to 2026-07-28)
 * listens to the kit's HTTP handler: its `listen()` resolves with the honoured filter, a change
 * reaches its notification handlers, and the handler's close ends the subscription gracefully.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { expect, it, onTestFinished } from 'vitest';
import { startKitHttp } from './support/kit-http.js';
import { changeFeedServer } from './support/kit-servers.js';
import { until, within } from './support/wait.js';

it('SDK v2 listens: the honoured filter, a change notice, and a graceful end on close', async () => {
  const server = changeFeedServer('kit-listen-v2');
  const kit = await startKitHttp(server);
  const client = new ClientV2(
    { name: 'sdk-v2', version: '2.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new TransportV2(new URL(kit.url)));
  onTestFinished(() => client.close());
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

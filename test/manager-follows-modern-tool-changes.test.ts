/**
 * The manager's catalogue follows a 2026-07-28 server's tool list: the change arrives on the
 * client's `subscriptions/listen` stream (stdio and Streamable HTTP), the manager re-lists and
 * emits `catalogChanged`, and the new tool is callable by its namespaced name at once.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';
import { modernOverHttp, type HttpServerProcess } from './support/http-servers.js';
import { FIXTURES, eventually } from './support/processes.js';
import { endAll } from './support/end-all.js';

const MODERN = path.join(FIXTURES, 'modern/v2-server.mjs');

let manager: McpManager | undefined;
let http: HttpServerProcess | undefined;
afterEach(async () => void ([manager, http] = await endAll([manager, 'disconnectAll'], [http, 'stop'])));

async function addsToolThroughListen(server: ManagedServer): Promise<void> {
  manager = McpManager.create({ servers: [server] });
  const { connected, failed } = await manager.connectAll();
  expect(failed).toEqual([]);
  expect(connected).toEqual(['modern']);
  expect(manager.getStatus().servers[0]).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
  const names = () => manager!.getAllTools().map((t) => t.name);
  expect(names()).toContain('mcp__modern__add-tool');
  expect(names()).not.toContain('mcp__modern__extra');

  let changes = 0;
  const off = manager.on('catalogChanged', () => changes++);
  const added = await manager.callTool('mcp__modern__add-tool', {});
  expect(added.content).toEqual([{ type: 'text', text: 'added' }]);
  await eventually(() => (names().includes('mcp__modern__extra') ? true : undefined), 10_000);
  expect(changes).toBeGreaterThanOrEqual(1);
  expect((await manager.callTool('mcp__modern__extra', {})).content).toEqual([{ type: 'text', text: 'extra' }]);
  expect(manager.getStatus().servers[0]!.toolCount).toBe(manager.getAllTools().length);
  off();
}

describe('McpManager with a 2026-07-28 server', () => {
  it('adds a tool announced on the stdio listen stream to the catalogue', async () => {
    await addsToolThroughListen({ name: 'modern', transport: 'stdio', command: process.execPath, args: [MODERN] });
  });

  it('adds a tool announced on the Streamable HTTP listen stream to the catalogue', async () => {
    http = await modernOverHttp();
    await addsToolThroughListen({ name: 'modern', transport: 'http', url: http.url });
  });
});

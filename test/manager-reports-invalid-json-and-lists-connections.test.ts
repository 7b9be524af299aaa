/**
 * The manager reports what its servers' clients notice: a line of junk on a server's stdout is a
 * `diagnostic` event naming the server and a count in `getStatus()`, not only a client event.
 * And `listConnections()` hands out the live connections themselves.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { TransportDiagnostic } from '../src/protocol/transport.js';
import { endAll } from './support/end-all.js';
import { nodeServer, scriptedServer } from './support/managed-servers.js';

const JUNKY = path.join(import.meta.dirname, 'support/junk-before-marked-answers-server.mjs');

let manager: McpManager | undefined;
afterEach(async () => void ([manager] = await endAll([manager, 'disconnectAll'])));

describe("the manager and its servers' connections", () => {
  it('a line that is not JSON from a connected server is a diagnostic event with its name, and counted in the status', async () => {
    manager = McpManager.create({
      servers: [nodeServer('junky', JUNKY), scriptedServer('clean')],
    });
    const seen: Array<{ server: string; diagnostic: TransportDiagnostic }> = [];
    manager.on('diagnostic', (event) => seen.push(event));
    await manager.connectAll();
    // The junk line comes before the answer on the same pipe: by the time the call resolves it was read.
    expect((await manager.callTool('mcp__junky__echo', { text: 'junk please' })).content).toEqual([
      { type: 'text', text: 'junk please' },
    ]);
    await manager.callTool('mcp__junky__echo', { text: 'junk please' });

    expect(seen.map((e) => [e.server, e.diagnostic.kind])).toEqual([
      ['junky', 'invalid-json'],
      ['junky', 'invalid-json'],
    ]);
    expect(seen[0]!.diagnostic.message).toBeTruthy();
    const byName = Object.fromEntries(manager.getStatus().servers.map((s) => [s.name, s.invalidMessages]));
    expect(byName).toEqual({ junky: 2, clean: 0 });
  });

  it('listConnections() returns the connected clients, named, in configuration order', async () => {
    manager = McpManager.create({
      servers: [scriptedServer('one'), { ...scriptedServer('idle'), autoConnect: false }, scriptedServer('two')],
    });
    expect(manager.listConnections()).toEqual([]);
    await manager.connectAll();
    const connections = manager.listConnections();
    expect(connections.every((c) => c instanceof McpClient)).toBe(true);
    expect(connections.map((c) => c.name)).toEqual(['one', 'two']);
    expect(connections[0]).toBe(manager.getConnection('one'));
    expect((await connections[1]!.callTool('echo', { text: 'direct' })).content).toEqual([
      { type: 'text', text: 'direct' },
    ]);
    await manager.disconnect('one');
    expect(manager.listConnections().map((c) => c.name)).toEqual(['two']);
  });
});

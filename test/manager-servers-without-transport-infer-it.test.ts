/**
 * A hand-written server (`McpManager.create({ servers })`, `setServer`) may leave `transport` out,
 * as a config file entry may: a `command` means stdio, a `url` means http. One with neither, or
 * with a transport mcpwire does not speak, is refused in words naming the server and what it may
 * be, not in a schema validator's.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';
import { FIXTURES } from './support/processes.js';
import { endAll } from './support/end-all.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
let manager: McpManager | undefined;
afterEach(async () => void ([manager] = await endAll([manager, 'close'])));

describe('servers without a transport', () => {
  it('a command means stdio: the server connects and its tools are callable', async () => {
    manager = McpManager.create({ servers: [{ name: 'fs', command: process.execPath, args: [SCRIPTED] }] });
    expect(manager.getServer('fs')?.transport).toBe('stdio');
    expect(await manager.connectAll()).toEqual({ connected: ['fs'], failed: [] });
    expect((await manager.callTool('mcp__fs__echo', { text: 'hi' })).content).toEqual([{ type: 'text', text: 'hi' }]);
  });

  it('a url means http; setServer infers it too', async () => {
    manager = McpManager.create({ servers: [{ name: 'web', url: 'https://mcp.example.com/mcp', autoConnect: false }] });
    expect(manager.getServer('web')?.transport).toBe('http');
    await manager.setServer({ name: 'late', command: process.execPath, args: [SCRIPTED] });
    expect(manager.getServer('late')?.transport).toBe('stdio');
    await manager.connect('late');
    expect(manager.isConnected('late')).toBe(true);
  });

  it('neither command nor url, or an unknown transport: CONFIG_INVALID in words, naming the server', () => {
    expect(() => McpManager.create({ servers: [{ name: 'nowhere' }] })).toThrow(
      'server "nowhere": McpManager options.servers[0]: needs a "command" (a stdio server) or a "url" (an http or sse server)',
    );
    expect(() =>
      McpManager.create({
        servers: [{ name: 'ws', url: 'ws://x', transport: 'websocket' } as unknown as ManagedServer],
      }),
    ).toThrow(
      'server "ws": McpManager options.servers[0]: transport must be "stdio", "http" (Streamable HTTP) or "sse", or left out ("command" means stdio, "url" http); got "websocket"',
    );
    expect(() =>
      McpManager.create({ servers: [{ name: 'fs', command: 'node', startupTimeoutMs: 0, args: ['x'] }] }),
    ).toThrow('server "fs": McpManager options.servers[0]: startupTimeoutMs must be at least 1, got 0');
  });
});

/**
 * A server becomes `connected` in one step with its catalogue in place: whoever sees the
 * `connected` status (event, `isConnected()`, `getConnection()`) can call its tools at once,
 * after the first connect and after an automatic restart, and a catalogue listener never sees
 * tools of a server that is not connected.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';
import type { CallToolResult } from '../src/protocol/types.js';
import { FIXTURES, eventually } from './support/processes.js';
import { endAll } from './support/end-all.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');

let manager: McpManager | undefined;
afterEach(async () => void ([manager] = await endAll([manager, 'disconnectAll'])));

describe('connected means the tools are callable', () => {
  it('at every connected event, before and after a crash and restart, the catalogue is full and a call started there succeeds', async () => {
    const server: ManagedServer = {
      name: 'fragile',
      transport: 'stdio',
      command: process.execPath,
      args: [SCRIPTED],
      restart: { initialDelayMs: 20, maxRestarts: 3 },
    };
    manager = McpManager.create({ servers: [server] });
    const m = manager;
    const toolsAtConnected: number[] = [];
    const calls: Array<Promise<CallToolResult | Error>> = [];
    const catalogueWhileDown: number[] = [];
    m.on('status', (change) => {
      if (change.status !== 'connected') return;
      toolsAtConnected.push(m.getAllTools().length);
      // The window the issue describes: a call made the moment the server is reported connected.
      calls.push(
        m.callTool('mcp__fragile__echo', { text: `call ${calls.length}` }).catch((error: unknown) => error as Error),
      );
    });
    m.on('catalogChanged', () => {
      if (!m.isConnected('fragile') && m.getAllTools().length > 0) catalogueWhileDown.push(m.getAllTools().length);
    });

    await m.connect('fragile');
    const firstPid = m.getConnection('fragile')!.pid;
    await m.callTool('mcp__fragile__crash', {}).catch(() => undefined);
    await eventually(() => (toolsAtConnected.length === 2 ? true : undefined), 10_000);
    expect(m.getConnection('fragile')!.pid).not.toBe(firstPid);

    expect(toolsAtConnected.every((count) => count > 0)).toBe(true);
    const results = await Promise.all(calls);
    expect(results.map((r) => (r instanceof Error ? r.message : r.content))).toEqual([
      [{ type: 'text', text: 'call 0' }],
      [{ type: 'text', text: 'call 1' }],
    ]);
    expect(catalogueWhileDown).toEqual([]);
  });
});

/**
 * `McpManager.close()`: graceful and idempotent, it stops every server's process, cancels
 * pending restarts and config watches, cuts short a connect under way (a server that never
 * answers its handshake is not waited out), forgets the process's manager, and refuses later
 * connects; `await using` calls it at scope end.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../src/manager/mcp-manager.js';
import { isMcpError } from '../src/protocol/errors.js';
import { FIXTURES, dies, killAtTestEnd } from './support/processes.js';
import { eventually, until, within } from './support/wait.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
const NEVER_ANSWERS = path.join(FIXTURES, 'stdio/never-answers.mjs');
const node = process.execPath;
const dirs: string[] = [];
afterEach(async () => {
  await McpManager.resetInstance();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function pidsOf(manager: McpManager): number[] {
  return manager.listConnections().map((client) => killAtTestEnd(client.pid!));
}

describe('McpManager.close', () => {
  it('stops every server process; a second close is the same promise; later connects are refused', async () => {
    const manager = McpManager.create({
      servers: [
        { name: 'a', command: node, args: [SCRIPTED] },
        { name: 'b', command: node, args: [SCRIPTED] },
      ],
    });
    expect(await manager.connectAll()).toMatchObject({ connected: ['a', 'b'] });
    const pids = pidsOf(manager);
    expect(pids).toHaveLength(2);
    const first = manager.close();
    expect(manager.close()).toBe(first);
    await within(first, { what: 'close()' });
    for (const pid of pids) expect(await dies(pid)).toBe(true);
    expect(manager.listConnections()).toEqual([]);
    const refused = await manager.connect('a').catch((error: unknown) => error);
    expect(isMcpError(refused, 'INVALID_STATE')).toBe(true);
    expect((refused as Error).message).toContain('McpManager.connect: this manager is closed');
    await expect(manager.connectAll()).rejects.toThrow('this manager is closed');
    expect(() => manager.watchConfig([])).toThrow('this manager is closed');
  });

  it('cuts short a connect under way: a server that never answers is killed, not waited out', async () => {
    let pid: number | undefined;
    const manager = McpManager.create({
      servers: [{ name: 'mute', command: node, args: [NEVER_ANSWERS], startupTimeoutMs: 600_000 }],
      client: {
        onStderr: (line) => {
          const running = /^running (\d+)/.exec(line);
          if (running) pid = killAtTestEnd(Number(running[1]));
        },
      },
    });
    const connecting = manager.connectAll();
    const started = await eventually(() => pid, { what: 'the server running' });
    await within(manager.close(), { what: 'close() with a connect under way' });
    expect(await dies(started)).toBe(true);
    expect(await connecting).toMatchObject({ connected: [], failed: [{ server: 'mute' }] });
    expect(manager.getStatus().servers[0]).toMatchObject({ status: 'disconnected', restarts: 0 });
  });

  it('cancels a pending restart: a crashed server is not started again after close', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-close-'));
    dirs.push(dir);
    const record = path.join(dir, 'lines.jsonl');
    const manager = McpManager.create({
      servers: [
        {
          name: 'crashy',
          command: node,
          args: [SCRIPTED, '--record', record],
          restart: { initialDelayMs: 200, maxRestarts: 5 },
        },
      ],
    });
    await manager.connect('crashy');
    const [pid] = pidsOf(manager);
    await expect(manager.callTool('mcp__crashy__crash', {})).rejects.toThrow();
    await until(() => manager.getStatus().servers[0]?.status === 'error', { what: 'crashy in error' });
    await manager.close();
    expect(await dies(pid!)).toBe(true);
    // A restart would have run after its 200 ms delay: a twin with the same policy shows that time has passed.
    const twin = McpManager.create({
      servers: [{ name: 'twin', command: node, args: [SCRIPTED], restart: { initialDelayMs: 200, maxRestarts: 5 } }],
    });
    await twin.connect('twin');
    await expect(twin.callTool('mcp__twin__crash', {})).rejects.toThrow();
    await until(() => twin.getStatus().servers[0]?.restarts === 1 && twin.isConnected('twin'), {
      what: "the twin's restart",
    });
    await twin.close();
    expect(manager.getStatus().servers[0]).toMatchObject({ status: 'disconnected', restarts: 0 });
    const initializes = readFileSync(record, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"initialize"'));
    expect(initializes).toHaveLength(1);
  });

  it("closing the process's manager forgets it: getInstance makes a new one", async () => {
    const first = McpManager.getInstance({ servers: [{ name: 'a', command: node, args: [SCRIPTED] }] });
    await first.connect('a');
    const [pid] = pidsOf(first);
    await first.close();
    expect(await dies(pid!)).toBe(true);
    const second = McpManager.getInstance();
    expect(second).not.toBe(first);
    expect(second.listServers()).toEqual([]);
  });

  it('await using closes it at scope end', async () => {
    let pid: number;
    {
      await using manager = McpManager.create({ servers: [{ name: 'a', command: node, args: [SCRIPTED] }] });
      await manager.connect('a');
      [pid] = pidsOf(manager) as [number];
    }
    expect(await dies(pid)).toBe(true);
  });
});

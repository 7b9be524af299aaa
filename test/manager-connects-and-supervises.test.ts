/**
 * McpManager over real stdio servers: parallel connect where one broken server does not block
 * the others, the namespaced catalogue and routing, crash ⇒ `error` at once ⇒ restart with
 * backoff (a new process), the circuit breaker, include/exclude rules, and the singleton.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';
import type { StatusChange } from '../src/manager/servers/slot-state.js';
import { isMcpError } from '../src/protocol/errors.js';
import { FIXTURES, eventually, isAlive, waitUntilGone } from './support/processes.js';
import { endAll } from './support/end-all.js';
import { scriptedServer } from './support/managed-servers.js';

const MODERN = path.join(FIXTURES, 'modern/v2-server.mjs');
const node = process.execPath;

function scripted(name: string, ...flags: string[]): ManagedServer {
  return scriptedServer(name, flags, { file: '/p/.mcp.json', scope: 'project' });
}

let manager: McpManager | undefined;
afterEach(async () => {
  [manager] = await endAll([manager, 'disconnectAll']);
  await McpManager.resetInstance();
});

describe('McpManager', () => {
  it('connects every server in parallel; a broken one goes to error and the others work', async () => {
    manager = McpManager.create({
      servers: [
        scripted('alpha'),
        { name: 'modern', transport: 'stdio', command: node, args: [MODERN] },
        { name: 'broken', transport: 'stdio', command: '/nonexistent/mcp-server' },
        { ...scripted('off'), enabled: false },
        { ...scripted('lazy'), autoConnect: false },
      ],
    });
    const { connected, failed } = await manager.connectAll();
    expect(connected.sort()).toEqual(['alpha', 'modern']);
    expect(failed.map((f) => [f.server, f.error.code])).toEqual([['broken', 'SPAWN_FAILED']]);

    const status = manager.getStatus();
    expect(status.configuredServers).toBe(5);
    expect(status.connectedServers).toBe(2);
    const byName = Object.fromEntries(status.servers.map((s) => [s.name, s]));
    expect(byName.alpha).toMatchObject({
      status: 'connected',
      era: 'legacy',
      protocolVersion: '2025-11-25',
      provenance: { file: '/p/.mcp.json', scope: 'project' },
    });
    expect(byName.modern).toMatchObject({ status: 'connected', era: 'modern', protocolVersion: '2026-07-28' });
    expect(byName.broken).toMatchObject({
      status: 'error',
      lastError: expect.stringContaining('/nonexistent/mcp-server'),
    });
    expect(byName.off).toMatchObject({ status: 'disconnected', enabled: false });
    expect(byName.lazy!.status).toBe('disconnected');
    expect(manager.isConnected('alpha')).toBe(true);
    expect(manager.getConnection('lazy')).toBeUndefined();
    expect(manager.getConnection('nope')).toBeUndefined();
    await expect(manager.connect('off')).rejects.toMatchObject({ code: 'INVALID_STATE' });
  });

  it('exposes namespaced tools and routes calls to the right server', async () => {
    manager = McpManager.create({
      servers: [scripted('alpha'), { name: 'modern', transport: 'stdio', command: node, args: [MODERN] }],
    });
    await manager.connectAll();
    const names = manager.getAllTools().map((t) => t.name);
    expect(names).toContain('mcp__alpha__echo');
    expect(names).toContain('mcp__modern__echo');
    expect((await manager.callTool('mcp__alpha__add', { a: 2, b: 3 })).structuredContent).toEqual({ sum: 5 });
    expect((await manager.callTool('mcp__modern__echo', { text: 'hi' })).content).toEqual([
      { type: 'text', text: 'hi' },
    ]);
    await expect(manager.callTool('mcp__alpha__missing', {})).rejects.toThrow('tool not found: mcp__alpha__missing');
  });

  it('applies includeTools / excludeTools to the catalogue', async () => {
    manager = McpManager.create({
      servers: [{ ...scripted('only'), includeTools: ['ask-*', 'echo'], excludeTools: ['ask-ping'] }],
    });
    await manager.connectAll();
    expect(
      manager
        .getAllTools()
        .map((t) => t.tool)
        .sort(),
    ).toEqual(['ask-elicitation', 'ask-elicitation-url', 'ask-roots', 'ask-sampling', 'echo']);
  });

  it('a crash is reported at once (pending call fails), then the server is restarted as a new process', async () => {
    manager = McpManager.create({
      servers: [{ ...scripted('fragile'), restart: { initialDelayMs: 50, maxRestarts: 3 } }],
    });
    const changes: StatusChange[] = [];
    const toolsAtError: number[] = [];
    manager.on('status', (change) => {
      changes.push(change);
      if (change.status === 'error') toolsAtError.push(manager!.getAllTools().length);
    });
    const first = await manager.connect('fragile');
    const firstPid = first.pid!;

    const error = await manager.callTool('mcp__fragile__crash', {}).catch((e: unknown) => e);
    expect(isMcpError(error, 'CONNECTION_CLOSED')).toBe(true);
    // The process's exit may be seen a turn after the pipe closed: the error status follows at once.
    await eventually(() => (changes.some((c) => c.status === 'error') ? true : undefined));
    expect(toolsAtError).toEqual([0]);

    // Restarted: connected again, and its tools back in the catalogue (filled just after the
    // status turns connected, so a loaded machine can see the one without the other).
    await eventually(() =>
      manager!.isConnected('fragile') && manager!.getAllTools().some((t) => t.name === 'mcp__fragile__echo')
        ? true
        : undefined,
    );
    const second = manager.getConnection('fragile')!;
    expect(second.pid).not.toBe(firstPid);
    expect(await waitUntilGone(firstPid, 5_000)).toBe(true); // reaped (not a zombie waiting for SIGCHLD)
    expect(manager.getStatus().servers[0]!.restarts).toBe(1);
    expect(changes.map((c) => c.status)).toEqual(['connecting', 'connected', 'error', 'connecting', 'connected']);
    expect(changes[2]!.error?.code).toBe('CONNECTION_CLOSED');
    expect((await manager.callTool('mcp__fragile__echo', { text: 'back' })).content).toEqual([
      { type: 'text', text: 'back' },
    ]);
  });

  it('opens the circuit after repeated failed restarts and stays in error', async () => {
    manager = McpManager.create({
      servers: [{ ...scripted('doomed', '--die-before-initialize'), restart: { initialDelayMs: 20, maxRestarts: 2 } }],
    });
    const error = await manager.connect('doomed').catch((e: unknown) => e);
    expect(isMcpError(error)).toBe(true);
    await eventually(() => (manager!.getStatus().servers[0]!.circuitOpen ? true : undefined));
    const report = manager.getStatus().servers[0]!;
    expect(report).toMatchObject({ status: 'error', restarts: 2, circuitOpen: true });
    expect(report.lastError).toContain('initialize');
  });

  it('restart: false leaves a crashed server in error', async () => {
    // A twin with the default policy crashes just after it: once the twin has been restarted,
    // the default backoff has run out for `once` too, so a restart would have happened by then.
    manager = McpManager.create({ servers: [{ ...scripted('once'), restart: false }, scripted('twin')] });
    await manager.connectAll();
    expect(
      isMcpError(await manager.callTool('mcp__once__crash', {}).catch((e: unknown) => e), 'CONNECTION_CLOSED'),
    ).toBe(true);
    await eventually(() => (manager!.getStatus().servers[0]!.status === 'error' ? true : undefined));
    expect(
      isMcpError(await manager.callTool('mcp__twin__crash', {}).catch((e: unknown) => e), 'CONNECTION_CLOSED'),
    ).toBe(true);
    await eventually(() =>
      manager!.getStatus().servers[1]!.restarts === 1 && manager!.isConnected('twin') ? true : undefined,
    );
    expect(manager.getStatus().servers[0]).toMatchObject({ name: 'once', status: 'error', restarts: 0 });
  });

  it('disconnect stops the process and removes its tools; reconnect starts a new one', async () => {
    manager = McpManager.create({ servers: [scripted('alpha')] });
    const client = await manager.connect('alpha');
    const pid = client.pid!;
    const catalog: number[] = [];
    manager.on('catalogChanged', () => catalog.push(manager!.getAllTools().length));
    await manager.disconnect('alpha');
    expect(isAlive(pid)).toBe(false);
    expect(manager.getAllTools()).toEqual([]);
    expect(catalog).toEqual([0]);
    const again = await manager.reconnect('alpha');
    expect(again.pid).not.toBe(pid);
    await expect(manager.connect('nope')).rejects.toThrow('unknown server "nope" (configured: alpha)');
  });

  it('getInstance returns one manager per process; create returns isolated ones', () => {
    const a = McpManager.getInstance({ servers: [scripted('x')] });
    const b = McpManager.getInstance();
    expect(a).toBe(b);
    expect(a.listServers()).toEqual(['x']);
    expect(McpManager.create()).not.toBe(a);
  });
});

/**
 * The approval step of a project (untrusted) server decides once per definition: a server that
 * crashes and is restarted is not asked about again; a hook that refuses — by answering false or
 * by rejecting — leaves the server `not-approved` (not `error`), schedules no restart and is not
 * asked again, even by an explicit connect; only a changed definition asks afresh.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';
import type { StatusChange } from '../src/manager/servers/slot-state.js';
import { isMcpError } from '../src/protocol/errors.js';
import { eventually } from './support/processes.js';
import { scriptedServer } from './support/managed-servers.js';
import { endAll } from './support/end-all.js';

const project = (name: string, ...flags: string[]): ManagedServer => ({
  ...scriptedServer(name, flags, { file: '/repo/.mcp.json', scope: 'project' }),
  trusted: false,
  restart: { initialDelayMs: 10, maxRestarts: 3 },
});

let manager: McpManager | undefined;
afterEach(async () => void ([manager] = await endAll([manager, 'disconnectAll'])));

describe('approval of a project server', () => {
  it('is asked once: a crash and the automatic restart do not ask again', async () => {
    const asked: string[] = [];
    manager = McpManager.create({ servers: [project('repo')], approve: (s) => (asked.push(s.name), true) });
    const changes: string[] = [];
    manager.on('status', (c) => changes.push(c.status));
    const first = await manager.connect('repo');
    await manager.callTool('mcp__repo__crash', {}).catch(() => undefined);
    await eventually(
      () => (manager!.isConnected('repo') && manager!.getConnection('repo') !== first ? true : undefined),
      10_000,
    );
    expect(changes).toEqual(['connecting', 'connected', 'error', 'connecting', 'connected']);
    expect(asked).toEqual(['repo']);
  });

  it('a hook that rejects is a final refusal: not-approved, no restart, not asked again until the definition changes', async () => {
    let asked = 0;
    manager = McpManager.create({
      servers: [project('repo')],
      approve: async () => {
        asked++;
        throw new Error('the user closed the prompt');
      },
    });
    const changes: StatusChange[] = [];
    manager.on('status', (c) => changes.push(c));

    const refused = await manager.connect('repo').catch((e: unknown) => e);
    expect(isMcpError(refused, 'INVALID_STATE')).toBe(true);
    expect((refused as Error).message).toBe(
      'server "repo": connect was not approved to start (defined in /repo/.mcp.json); project servers need approval: the approval hook failed: the user closed the prompt',
    );
    expect(changes.map((c) => c.status)).toEqual(['connecting', 'not-approved']);
    expect(manager.getStatus().servers[0]).toMatchObject({
      status: 'not-approved',
      restarts: 0,
      lastError: (refused as Error).message,
    });

    // Asked again by nobody: an explicit connect gets the same refusal, connectAll too.
    await expect(manager.connect('repo')).rejects.toThrow('the approval hook failed: the user closed the prompt');
    expect((await manager.connectAll()).failed.map((f) => f.server)).toEqual(['repo']);
    expect(asked).toBe(1);
    expect(manager.getStatus().servers[0]).toMatchObject({ status: 'not-approved', restarts: 0 });

    // A changed definition is a new question.
    const result = await manager.reconcile([project('repo', '--version', '2025-06-18')]);
    expect(result.changed).toEqual(['repo']);
    expect(asked).toBe(2);
  });

  it('a hook that answers false: not-approved rather than error, and asked once', async () => {
    let asked = 0;
    manager = McpManager.create({ servers: [project('repo')], approve: () => (asked++, false) });
    await expect(manager.connect('repo')).rejects.toThrow('was not approved to start');
    await expect(manager.connect('repo')).rejects.toThrow('was not approved to start');
    expect(asked).toBe(1);
    expect(manager.getStatus().servers[0]).toMatchObject({ status: 'not-approved', restarts: 0, circuitOpen: false });
    await expect(manager.callTool('mcp__repo__echo', {})).rejects.toThrow(
      'cannot call mcp__repo__echo: the server was not approved to start',
    );
  });
});

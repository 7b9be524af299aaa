/**
 * Hot reload as the manager sees it (`reconcile`): changed servers reconnect, unchanged ones keep
 * their process, removed ones stop and leave the catalogue, added ones start — one
 * `catalogChanged` per reload — and saved state reconnects pinned to the revision it recorded.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fingerprint, McpManager } from '../src/manager/mcp-manager.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';
import { FIXTURES, isAlive } from './support/processes.js';
import { endAll } from './support/end-all.js';
import { scriptedServer } from './support/managed-servers.js';

const MODERN = path.join(FIXTURES, 'modern/v2-server.mjs');
const node = process.execPath;
const legacy = (name: string, ...flags: string[]): ManagedServer => scriptedServer(name, flags);

let manager: McpManager | undefined;
afterEach(async () => void ([manager] = await endAll([manager, 'disconnectAll'])));

describe('McpManager.reconcile', () => {
  it('reconnects the changed, keeps the unchanged (same pid), stops the removed, starts the added — one catalogChanged', async () => {
    manager = McpManager.create({ servers: [legacy('keep'), legacy('change'), legacy('drop')] });
    await manager.connectAll();
    const pids = Object.fromEntries(['keep', 'change', 'drop'].map((n) => [n, manager!.getConnection(n)!.pid!]));
    let catalogEvents = 0;
    manager.on('catalogChanged', () => catalogEvents++);

    const result = await manager.reconcile([
      { ...legacy('keep'), provenance: { file: '/moved/.mcp.json', scope: 'project' } },
      legacy('change', '--version', '2025-06-18'),
      legacy('new'),
    ]);

    expect(result).toMatchObject({
      added: ['new'],
      removed: ['drop'],
      changed: ['change'],
      unchanged: ['keep'],
      failed: [],
    });
    expect(catalogEvents).toBe(1);
    expect(manager.getConnection('keep')!.pid).toBe(pids.keep);
    expect(manager.getStatus().servers.find((s) => s.name === 'keep')!.provenance).toEqual({
      file: '/moved/.mcp.json',
      scope: 'project',
    });
    expect(manager.getConnection('change')!.pid).not.toBe(pids.change);
    expect(manager.getConnection('change')!.protocolVersion).toBe('2025-06-18');
    expect(isAlive(pids.change!)).toBe(false);
    expect(isAlive(pids.drop!)).toBe(false);
    expect(manager.listServers().sort()).toEqual(['change', 'keep', 'new']);
    const tools = new Set(manager.getAllTools().map((t) => t.server));
    expect([...tools].sort()).toEqual(['change', 'keep', 'new']);
  });

  it('a changed server that fails to start is reported and the others are unaffected', async () => {
    manager = McpManager.create({ servers: [legacy('good'), legacy('flaky')] });
    await manager.connectAll();
    const result = await manager.reconcile([legacy('good'), { ...legacy('flaky'), command: '/nope/server' }]);
    expect(result.failed.map((f) => [f.server, f.error.code])).toEqual([['flaky', 'SPAWN_FAILED']]);
    expect(manager.isConnected('good')).toBe(true);
    expect(manager.getStatus().servers.find((s) => s.name === 'flaky')!.status).toBe('error');
  });

  it('fingerprints ignore key order and provenance, and see a changed argument', () => {
    const a: ManagedServer = { name: 'x', transport: 'stdio', command: 'node', args: ['a'], env: { B: '2', A: '1' } };
    const b: ManagedServer = {
      env: { A: '1', B: '2' },
      args: ['a'],
      command: 'node',
      transport: 'stdio',
      name: 'x',
      provenance: { file: 'f', scope: 'user' },
    };
    expect(fingerprint(a)).toBe(fingerprint(b));
    expect(fingerprint({ ...a, args: ['b'] })).not.toBe(fingerprint(a));
  });
});

describe('saveState / restoreState', () => {
  it('records the connected servers and their revisions as JSON, and reconnects them with their era as a hint', async () => {
    manager = McpManager.create({
      servers: [
        legacy('old', '--version', '2025-03-26'),
        { name: 'modern', transport: 'stdio', command: node, args: [MODERN] },
        legacy('idle'),
      ],
    });
    await manager.connect('old');
    await manager.connect('modern');
    const state = JSON.parse(JSON.stringify(manager.saveState()));
    expect(
      state.servers
        .map((s: { name: string; era: string; protocolVersion: string }) => [s.name, s.era, s.protocolVersion])
        .sort(),
    ).toEqual([
      ['modern', 'modern', '2026-07-28'],
      ['old', 'legacy', '2025-03-26'],
    ]);
    await manager.disconnectAll();

    const fresh = McpManager.create({
      servers: [
        legacy('old', '--version', '2025-03-26'),
        { name: 'modern', transport: 'stdio', command: node, args: [MODERN] },
        legacy('idle'),
      ],
    });
    try {
      const restored = await fresh.restoreState(state);
      expect(restored.connected.sort()).toEqual(['modern', 'old']);
      expect(fresh.isConnected('idle')).toBe(false);
      expect(fresh.getConnection('old')!.protocolVersion).toBe('2025-03-26');
      expect(fresh.getConnection('modern')!.era).toBe('modern');
    } finally {
      await fresh.disconnectAll();
    }
  });
});

/**
 * The manager remembers the era each server was found to speak: a restart after a crash
 * connects with it as `eraHint` (no probe), and so does `restoreState` from a saved state whose
 * fingerprint matches. A saved verdict that is wrong costs a probe, never the connect. The
 * servers are the scripted legacy server silent on `server/discover`; every process of one test
 * appends what it receives to one `--record` file, so the file shows every probe ever sent.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';
import { SCRIPTED } from './support/cli.js';
import { eventually } from './support/wait.js';
import { recordedMethods } from './support/jsonl.js';
import { useTempDir } from './support/temp-dir.js';

const managers: McpManager[] = [];
const temp = useTempDir('mcpwire-manager-era-');
afterEach(async () => {
  for (const manager of managers.splice(0)) await manager.disconnectAll();
});

function silentLegacy(record: string): ManagedServer {
  return {
    name: 'silent',
    transport: 'stdio',
    command: process.execPath,
    args: [SCRIPTED, '--discover', 'silent', '--record', record],
    restart: { initialDelayMs: 20, maxRestarts: 3 },
  };
}

function managerOf(server: ManagedServer): McpManager {
  const manager = McpManager.create({ servers: [server], client: { probeTimeoutMs: 600_000 } });
  managers.push(manager);
  return manager;
}

/** Where the test's server records what it receives. */
function recordFile(): string {
  return path.join(temp.dir, 'received.jsonl');
}

describe('the era a server spoke, kept by the manager', () => {
  it('a restart after a crash runs the handshake without probing again', async () => {
    const record = recordFile();
    const manager = managerOf(silentLegacy(record));
    const first = await manager.connect('silent');
    expect(first.era).toBe('legacy');
    await manager.callTool('mcp__silent__crash', {}).catch(() => undefined);
    await eventually(() => {
      const now = manager.getConnection('silent');
      return now && now !== first && manager.isConnected('silent') ? now : undefined;
    });
    // The restarted process answered a call: everything it received before is recorded.
    await manager.callTool('mcp__silent__echo', { text: 'back' });
    const methods = recordedMethods(record);
    expect(methods.filter((m) => m === 'server/discover')).toHaveLength(1);
    expect(methods.filter((m) => m === 'initialize')).toHaveLength(2);
  });

  it('restoreState hands the saved era over: no probe; a wrong saved era costs a probe, not the connect', async () => {
    const record = recordFile();
    const server = silentLegacy(record);
    const before = managerOf(server);
    await before.connect('silent');
    const state = before.saveState();
    expect(state.servers).toEqual([expect.objectContaining({ name: 'silent', era: 'legacy' })]);
    await before.disconnectAll();
    const probes = () => recordedMethods(record).filter((m) => m === 'server/discover').length;
    expect(probes()).toBe(1);

    const restored = managerOf(server);
    expect((await restored.restoreState(state)).connected).toEqual(['silent']);
    await restored.callTool('mcp__silent__echo', { text: 'restored' });
    expect(probes()).toBe(1);
    await restored.disconnectAll();

    const wrong = { ...state, servers: state.servers.map((s) => ({ ...s, era: 'modern' as const })) };
    const misled = managerOf(server);
    expect((await misled.restoreState(wrong)).connected).toEqual(['silent']);
    expect(misled.getConnection('silent')!.era).toBe('legacy');
    await misled.callTool('mcp__silent__echo', { text: 'probed' });
    expect(probes()).toBe(2);
  });
});

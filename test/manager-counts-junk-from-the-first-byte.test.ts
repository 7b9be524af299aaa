/**
 * What a server prints on stdout that is not JSON-RPC counts from its first byte, not from the
 * moment `connect` resolves: a server that logs its banner to stdout before the handshake shows
 * up in the manager's `diagnostic` event and in `getStatus().servers[].invalidMessages`, and a
 * host's own `client.onDiagnostic` still hears everything too.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { TransportDiagnostic } from '../src/protocol/transport.js';
import { endAll } from './support/end-all.js';
import { nodeServer } from './support/managed-servers.js';

// Writes `booting the server... (not JSON)` and `{"half": ` before it reads anything.
const JUNK_FIRST = path.join(import.meta.dirname, 'support/junk-then-legacy-server.mjs');
const node = process.execPath;

let manager: McpManager | undefined;
afterEach(async () => void ([manager] = await endAll([manager, 'disconnectAll'])));

describe('junk a server prints before connect resolves', () => {
  it('is a diagnostic event of the manager and counted in the status', async () => {
    manager = McpManager.create({
      servers: [nodeServer('noisy', JUNK_FIRST)],
    });
    const seen: Array<{ server: string; kind: string }> = [];
    manager.on('diagnostic', ({ server, diagnostic }) => seen.push({ server, kind: diagnostic.kind }));
    expect(await manager.connectAll()).toMatchObject({ connected: ['noisy'] });
    expect(seen).toEqual([
      { server: 'noisy', kind: 'invalid-json' },
      { server: 'noisy', kind: 'invalid-json' },
    ]);
    expect(manager.getStatus().servers[0]!.invalidMessages).toBe(2);
  });

  it("is counted once after a reconnect too, and a host's own client.onDiagnostic hears it as well", async () => {
    const fromHost: TransportDiagnostic[] = [];
    manager = McpManager.create({
      servers: [nodeServer('noisy', JUNK_FIRST)],
      client: { onDiagnostic: (d) => fromHost.push(d) },
    });
    await manager.connect('noisy');
    await manager.reconnect('noisy');
    expect(manager.getStatus().servers[0]!.invalidMessages).toBe(4);
    expect(fromHost.map((d) => d.kind)).toEqual(['invalid-json', 'invalid-json', 'invalid-json', 'invalid-json']);
  });

  it('reaches McpClient.connect options.onDiagnostic before connect resolves, and later ones too', async () => {
    const heard: string[] = [];
    const client = await McpClient.connect(
      { command: node, args: [JUNK_FIRST] },
      { era: 'legacy', onDiagnostic: (d) => heard.push(d.kind) },
    );
    try {
      expect(heard).toEqual(['invalid-json', 'invalid-json']);
      const events: string[] = [];
      client.on('diagnostic', (d) => events.push(d.kind));
      // Once connected, the option and the event hear the same things, each once.
      expect(events).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

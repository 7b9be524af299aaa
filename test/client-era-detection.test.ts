import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { ALL_CAPS, connectTo, legacyPeer, modernPeer } from './support/fake-servers.js';
import { invalidClientTraffic } from './support/fake-servers.js';
import { NO_REPLY, scriptedPair } from './support/scripted-peer.js';

const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

describe('era detection over a transport', () => {
  it('goes modern on a discover result and puts the _meta envelope on every request', async () => {
    const { client, peer } = await connectTo(
      (p) => modernPeer(p).on('tools/list', () => ({ resultType: 'complete', tools: [], ttlMs: 0 })),
      {
        handlers: { elicitation: () => ({ action: 'decline' }) },
      },
    );
    expect(client.era).toBe('modern');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(client.serverInfo?.name).toBe('fake-modern');
    await client.listTools();
    const list = peer.received.find((m) => m.method === 'tools/list')!;
    const meta = (list.params as Record<string, Record<string, unknown>>)._meta!;
    expect(meta[META_VERSION]).toBe('2026-07-28');
    expect(meta['io.modelcontextprotocol/clientCapabilities']).toEqual({ elicitation: { form: {}, url: {} } });
    expect(meta['io.modelcontextprotocol/clientInfo']).toMatchObject({ name: 'mcpwire' });
    expect(peer.methods()).not.toContain('initialize');
    expect(invalidClientTraffic(peer, client.protocolVersion)).toEqual([]);
    await client.close();
  });

  it('falls back to initialize when discover is answered with method-not-found', async () => {
    const { client, peer } = await connectTo((p) => legacyPeer(p));
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(client.instructions).toBe('be nice');
    expect(peer.methods()).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    const init = peer.received.find((m) => m.method === 'initialize')!;
    expect(init.params).toMatchObject({ protocolVersion: '2025-11-25', clientInfo: { name: 'mcpwire' } });
    expect(invalidClientTraffic(peer, client.protocolVersion)).toEqual([]);
    await client.close();
  });

  it('falls back to initialize when discover gets no answer within the probe timeout, without a cancel notice', async () => {
    const { client, peer } = await connectTo((p) => legacyPeer(p).on('server/discover', () => NO_REPLY), {
      probeTimeoutMs: 100,
    });
    expect(client.era).toBe('legacy');
    expect(peer.methods()).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    await client.close();
  });

  it('accepts any legacy revision the server answers with', async () => {
    for (const version of ['2024-11-05', '2025-03-26', '2025-06-18'] as const) {
      const { client } = await connectTo((p) => legacyPeer(p, version));
      expect(client.protocolVersion).toBe(version);
      await client.close();
    }
  });

  it('refuses a revision it does not speak with VERSION_UNSUPPORTED and closes', async () => {
    const { clientTransport, peer } = scriptedPair();
    legacyPeer(peer, '1999-01-01');
    const error = await McpClient.connect(clientTransport, { name: 'old', probeTimeoutMs: 100 }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'VERSION_UNSUPPORTED', method: 'initialize', server: 'old' });
    await clientTransport.closed;
  });

  it('retries discovery on -32022 with a mutually supported modern revision', async () => {
    let calls = 0;
    const { client, peer } = await connectTo((p) =>
      modernPeer(p).on('server/discover', () =>
        ++calls === 1
          ? {
              error: {
                code: -32022,
                message: 'Unsupported protocol version',
                data: { supported: ['2026-07-28'], requested: 'x' },
              },
            }
          : { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: ALL_CAPS },
      ),
    );
    expect(client.era).toBe('modern');
    expect(peer.methods().filter((m) => m === 'server/discover')).toHaveLength(2);
    await client.close();
  });

  it('goes legacy when -32022 offers only legacy revisions', async () => {
    const { client } = await connectTo((p) =>
      legacyPeer(p).on('server/discover', () => ({
        error: { code: -32022, message: 'no', data: { supported: ['2025-11-25'] } },
      })),
    );
    expect(client.era).toBe('legacy');
    await client.close();
  });

  it('switches to modern when initialize is rejected with -32022 naming a modern revision (a slow modern server)', async () => {
    const { client } = await connectTo(
      (p) => {
        let discovers = 0;
        p.on('server/discover', () =>
          ++discovers === 1
            ? NO_REPLY
            : { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} },
        );
        p.on('initialize', () => ({
          error: { code: -32022, message: 'modern only', data: { supported: ['2026-07-28'] } },
        }));
      },
      { probeTimeoutMs: 50 },
    );
    expect(client.era).toBe('modern');
    await client.close();
  });

  it('skips the probe when the era is pinned to legacy', async () => {
    const { client, peer } = await connectTo((p) => legacyPeer(p), { era: 'legacy' });
    expect(peer.methods()[0]).toBe('initialize');
    await client.close();
  });

  it('fails when a pinned revision is not what the server answers', async () => {
    const { clientTransport, peer } = scriptedPair();
    legacyPeer(peer, '2025-11-25');
    await expect(McpClient.connect(clientTransport, { protocolVersion: '2025-06-18' })).rejects.toMatchObject({
      code: 'VERSION_UNSUPPORTED',
    });
    expect(peer.received.find((m) => m.method === 'initialize')?.params).toMatchObject({
      protocolVersion: '2025-06-18',
    });
  });

  it('does not fall back when the era is pinned to modern', async () => {
    const { clientTransport, peer } = scriptedPair();
    legacyPeer(peer);
    await expect(McpClient.connect(clientTransport, { era: 'modern' })).rejects.toMatchObject({
      code: 'SERVER_ERROR',
      rpcCode: -32601,
    });
    expect(peer.methods()).not.toContain('initialize');
  });
});

/**
 * The per-URL route cache keeps only what detection found. A connect that pins the era, the
 * revision or the transport shape must not decide how later auto-detecting connects to the same
 * URL go: they probe, and find what the server really offers.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import type { ClientOptions } from '../src/client/options.js';
import { json, legacyServer, openSse, result, type Route, sse } from './support/http-fixture.js';
import { useHttpScene } from './support/http-scene.js';

const scene = useHttpScene<McpClient>();

/** Answers a modern `server/discover` (a server that speaks both eras); the rest is legacy. */
const alsoModern: Route = (seen, res) => {
  const meta = (seen.json?.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  if (seen.rpc !== 'server/discover' || meta?.['io.modelcontextprotocol/protocolVersion'] === undefined) return false;
  return json(
    res,
    result(seen, {
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {} },
      serverInfo: { name: 'both-eras', version: '1.0.0' },
    }),
  );
};

describe('the per-URL route cache', () => {
  it.each<[string, ClientOptions]>([
    ['era: legacy', { era: 'legacy' }],
    ['protocolVersion: 2025-06-18', { protocolVersion: '2025-06-18' }],
  ])(
    'a connect with %s pinned leaves the next auto connect to detect the era (and find modern)',
    async (_label, pin) => {
      await scene.start(alsoModern, legacyServer({ version: '2025-06-18' }));
      scene.client = await McpClient.connect({ url: scene.fixture.url }, pin);
      expect(scene.client.era).toBe('legacy');
      expect(scene.fixture.seen('server/discover')).toHaveLength(0);
      await scene.client.close();

      scene.client = await McpClient.connect({ url: scene.fixture.url });
      expect(scene.client.era).toBe('modern');
      expect(scene.fixture.seen('server/discover')).toHaveLength(1);
      expect(scene.fixture.seen('initialize')).toHaveLength(1);
    },
  );

  it("a connect with transport: 'sse' pinned leaves the next auto connect to find Streamable HTTP on the same URL", async () => {
    const streams: ServerResponse[] = [];
    // GET opens an HTTP+SSE session; POSTs to /messages belong to it; POSTs to the URL itself are
    // legacy Streamable HTTP.
    await scene.start((seen, res) => {
      if (seen.method === 'GET' && seen.path === '/mcp' && seen.headers['mcp-session-id'] === undefined) {
        openSse(res);
        sse(res, '/messages', { event: 'endpoint' });
        streams.push(res);
        return true;
      }
      if (seen.method === 'POST' && seen.path === '/messages') {
        res.writeHead(202).end('Accepted');
        if (seen.rpc === 'initialize')
          sse(
            streams.at(-1)!,
            result(seen, {
              protocolVersion: '2024-11-05',
              capabilities: { tools: {} },
              serverInfo: { name: 'sse', version: '0.1' },
            }),
            { event: 'message' },
          );
        return true;
      }
      return false;
    }, legacyServer());
    scene.client = await McpClient.connect({ url: scene.fixture.url, transport: 'sse' });
    expect(scene.client.protocolVersion).toBe('2024-11-05');
    await scene.client.close();

    scene.client = await McpClient.connect({ url: scene.fixture.url });
    expect(scene.client.era).toBe('legacy');
    expect(scene.client.protocolVersion).toBe('2025-11-25');
    expect(scene.fixture.requests.filter((r) => r.path === '/mcp' && r.rpc === 'initialize')).toHaveLength(1);
  });
});

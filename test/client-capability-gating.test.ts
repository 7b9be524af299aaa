import { describe, expect, it } from 'vitest';
import { connectTo, legacyPeer, modernPeer } from './support/fake-servers.js';
import { until } from './support/wait.js';

describe('capability gating', () => {
  it('fails locally with CAPABILITY_MISSING and sends nothing when the server lacks the capability', async () => {
    const { client, peer } = await connectTo((p) => legacyPeer(p, '2025-11-25', { tools: {} }));
    const before = peer.received.length;
    await expect(client.listPrompts()).rejects.toMatchObject({
      code: 'CAPABILITY_MISSING',
      method: 'prompts/list',
      server: 'fake',
    });
    await expect(client.readResource('x://1')).rejects.toMatchObject({ code: 'CAPABILITY_MISSING' });
    await expect(client.complete({ type: 'ref/prompt', name: 'p' }, { name: 'a', value: '' })).rejects.toMatchObject({
      code: 'CAPABILITY_MISSING',
    });
    await expect(client.setLoggingLevel('info')).rejects.toMatchObject({ code: 'CAPABILITY_MISSING' });
    await expect(client.subscribeResource('x://1')).rejects.toMatchObject({ code: 'CAPABILITY_MISSING' });
    expect(peer.received.length).toBe(before);
    await client.close();
  });

  it('returns empty lists without a request when asked to', async () => {
    const { client, peer } = await connectTo((p) => legacyPeer(p, '2025-11-25', {}), { missingCapability: 'empty' });
    const before = peer.received.length;
    await expect(client.listTools()).resolves.toEqual([]);
    await expect(client.listResources()).resolves.toEqual([]);
    await expect(client.listPrompts()).resolves.toEqual([]);
    expect(peer.received.length).toBe(before);
    await client.close();
  });

  it('allows completion on 2024-11-05, which had no completions capability', async () => {
    const { client } = await connectTo((p) =>
      legacyPeer(p, '2024-11-05', { prompts: {} }).on('completion/complete', () => ({
        completion: { values: ['a', 'b'] },
      })),
    );
    await expect(client.complete({ type: 'ref/prompt', name: 'p' }, { name: 'x', value: '' })).resolves.toEqual({
      values: ['a', 'b'],
    });
    await client.close();
  });

  it('maps legacy-only methods in the modern era: ping becomes discover, log level rides on _meta', async () => {
    const { client, peer } = await connectTo((p) =>
      modernPeer(p).on('tools/list', () => ({ resultType: 'complete', tools: [] })),
    );
    await client.ping();
    await client.setLoggingLevel('debug');
    await client.listTools();
    expect(peer.methods()).not.toContain('ping');
    expect(peer.methods()).not.toContain('logging/setLevel');
    const list = peer.received.find((m) => m.method === 'tools/list')!;
    expect(
      ((list.params as Record<string, unknown>)._meta as Record<string, unknown>)['io.modelcontextprotocol/logLevel'],
    ).toBe('debug');
    await client.close();
  });
});

describe('pagination and list caches', () => {
  it('walks every page, passing cursors back untouched (the empty string included)', async () => {
    const pages: Record<string, { tools: Array<{ name: string; inputSchema: object }>; nextCursor?: string }> = {
      start: { tools: [{ name: 'a', inputSchema: { type: 'object' } }], nextCursor: '' },
      '': { tools: [{ name: 'b', inputSchema: { type: 'object' } }], nextCursor: 'c3' },
      c3: { tools: [{ name: 'c', inputSchema: { type: 'object' } }] },
    };
    const { client, peer } = await connectTo((p) =>
      legacyPeer(p, '2025-11-25', { tools: {} }).on(
        'tools/list',
        (m) => pages[(m.params as { cursor?: string } | undefined)?.cursor ?? 'start'],
      ),
    );
    expect((await client.listTools()).map((t) => t.name)).toEqual(['a', 'b', 'c']);
    const cursors = peer.received
      .filter((m) => m.method === 'tools/list')
      .map((m) => (m.params as { cursor?: string } | undefined)?.cursor);
    expect(cursors).toEqual([undefined, '', 'c3']);
    const page = await client.listToolsPage('c3');
    expect(page.tools.map((t) => t.name)).toEqual(['c']);
    await client.close();
  });

  it('stops a server that never stops paginating with PAGINATION_LIMIT', async () => {
    let n = 0;
    const { client } = await connectTo(
      (p) =>
        legacyPeer(p, '2025-11-25', { tools: {} }).on('tools/list', () => ({ tools: [], nextCursor: String(++n) })),
      { maxPages: 5 },
    );
    await expect(client.listTools()).rejects.toMatchObject({ code: 'PAGINATION_LIMIT', method: 'tools/list' });
    expect(n).toBe(5);
    await client.close();
  });

  it('caches a legacy list until list_changed, then refetches and emits toolsChanged', async () => {
    let version = 1;
    const { client, peer } = await connectTo((p) =>
      legacyPeer(p).on('tools/list', () => ({ tools: [{ name: `v${version}`, inputSchema: { type: 'object' } }] })),
    );
    const changed: number[] = [];
    client.on('toolsChanged', () => changed.push(version));
    expect((await client.listTools())[0]!.name).toBe('v1');
    expect((await client.listTools())[0]!.name).toBe('v1');
    expect(peer.methods().filter((m) => m === 'tools/list')).toHaveLength(1);
    version = 2;
    await peer.notify('notifications/tools/list_changed');
    await until(() => changed.length >= 1, { what: 'the toolsChanged event' });
    expect(changed).toEqual([2]);
    expect((await client.listTools())[0]!.name).toBe('v2');
    expect((await client.listTools({ refresh: true }))[0]!.name).toBe('v2');
    expect(peer.methods().filter((m) => m === 'tools/list')).toHaveLength(3);
    await client.close();
  });

  it('honours a modern ttlMs: cached while fresh, refetched after', async () => {
    const { client, peer } = await connectTo((p) =>
      modernPeer(p, { prompts: {} }).on('prompts/list', () => ({
        resultType: 'complete',
        prompts: [{ name: 'p' }],
        ttlMs: 60_000,
        cacheScope: 'public',
      })),
    );
    await client.listPrompts();
    await client.listPrompts();
    expect(peer.methods().filter((m) => m === 'prompts/list')).toHaveLength(1);
    await client.close();
  });
});

describe('structured output validation', () => {
  const tools = {
    tools: [
      {
        name: 'add',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
      },
      { name: 'plain', inputSchema: { type: 'object' } },
    ],
  };

  it('passes a conforming result and rejects a mismatch with OUTPUT_SCHEMA_MISMATCH', async () => {
    let sum: unknown = 3;
    const { client } = await connectTo((p) =>
      legacyPeer(p)
        .on('tools/list', () => tools)
        .on('tools/call', () => ({ content: [], structuredContent: { sum } })),
    );
    await expect(client.callTool('add', { a: 1, b: 2 })).resolves.toMatchObject({ structuredContent: { sum: 3 } });
    sum = 'three';
    const error = await client.callTool('add', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'OUTPUT_SCHEMA_MISMATCH', method: 'tools/call' });
    expect((error as Error).message).toContain('/sum must be number');
    await client.close();
  });

  it('returns isError results without validating or throwing, and can be turned off', async () => {
    const { client } = await connectTo(
      (p) =>
        legacyPeer(p)
          .on('tools/list', () => tools)
          .on('tools/call', (m) =>
            (m.params as { name: string }).name === 'add'
              ? { content: [], structuredContent: { sum: 'bad' } }
              : { content: [{ type: 'text', text: 'no' }], isError: true },
          ),
      { validateOutput: false },
    );
    await expect(client.callTool('add')).resolves.toMatchObject({ structuredContent: { sum: 'bad' } });
    await expect(client.callTool('plain')).resolves.toMatchObject({ isError: true });
    await client.close();
  });
});

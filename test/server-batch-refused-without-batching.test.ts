/**
 * JSON-RPC batches on the wire, as a hostile client sends them: only 2025-03-26 has batching
 * (2024-11-05 had none, 2025-06-18 removed it, 2026-07-28 has none), so a batch on any other
 * revision is refused with -32600 (Streamable HTTP: 400) and none of its requests runs; on
 * 2025-03-26 a batch is answered with one array. Over a real loopback listener and a kit server
 * child on its own stdio (needs `npm run build`).
 */
import { describe, expect, it } from 'vitest';
import { McpServer } from '../src/server/index.js';
import { startKitHttp, type KitHttp } from './support/kit-http.js';
import { KIT_STDIO_SERVER, startKitStdio } from './support/kit-stdio.js';
import { exchange } from './support/kit-wire.js';

const PINGS = [
  { jsonrpc: '2.0', id: 'a', method: 'ping' },
  { jsonrpc: '2.0', id: 'b', method: 'ping' },
];
const ANSWERED = [
  { jsonrpc: '2.0', id: 'a', result: {} },
  { jsonrpc: '2.0', id: 'b', result: {} },
];

function listen(sessions: boolean): Promise<KitHttp> {
  const server = new McpServer({ name: 'batches', version: '1', logger: () => undefined });
  return startKitHttp(server, { path: '/mcp', ...(sessions ? {} : { sessions: false }) });
}

function initialize(revision: string, id: string | number = 0): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'hostile', version: '0' } },
  };
}

/** Initializes an HTTP session at `revision` and returns the headers its later requests carry. */
async function session(url: string, revision: string): Promise<Record<string, string>> {
  const init = await exchange(url, { body: JSON.stringify(initialize(revision)) });
  expect(init.json.result.protocolVersion).toBe(revision);
  return { 'mcp-session-id': init.headers['mcp-session-id'] as string, 'mcp-protocol-version': revision };
}

describe('over Streamable HTTP with sessions', () => {
  it.each(['2024-11-05', '2025-06-18', '2025-11-25'])('refuses a batch on %s with 400 and -32600', async (revision) => {
    const { url } = await listen(true);
    const answer = await exchange(url, { body: JSON.stringify(PINGS), headers: await session(url, revision) });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(answer.json.error.message).toContain(`${revision} has no JSON-RPC batches`);
  });

  it.each(['2025-03-26'])('answers a batch on %s with one array', async (revision) => {
    const { url } = await listen(true);
    const answer = await exchange(url, { body: JSON.stringify(PINGS), headers: await session(url, revision) });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual(ANSWERED);
  });
});

describe('over stateless Streamable HTTP (the revision from MCP-Protocol-Version)', () => {
  it('refuses a batch under MCP-Protocol-Version: 2025-06-18', async () => {
    const { url } = await listen(false);
    const answer = await exchange(url, {
      body: JSON.stringify(PINGS),
      headers: { 'mcp-protocol-version': '2025-06-18' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('answers a batch without the header (the spec: assume 2025-03-26)', async () => {
    const { url } = await listen(false);
    const answer = await exchange(url, { body: JSON.stringify(PINGS) });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual(ANSWERED);
  });
});

describe('over stdio', () => {
  it.each(['2024-11-05', '2025-06-18', '2025-11-25'])(
    'refuses a batch on %s with -32600 and runs none of it',
    async (revision) => {
      const child = startKitStdio(KIT_STDIO_SERVER);
      child.write(initialize(revision));
      expect((await child.answer(0)).result.protocolVersion).toBe(revision);
      child.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
      child.write(PINGS);
      const refusal = await child.answer(null);
      expect(refusal.error).toMatchObject({ code: -32600 });
      expect(refusal.error.message).toContain(`${revision} has no JSON-RPC batches`);
      expect(await child.endInput()).toBe(0);
      // Everything the child wrote has been read: no answer to the batch's pings among it.
      expect(child.lines.filter((m) => Array.isArray(m) || ['a', 'b'].includes((m as { id?: string }).id!))).toEqual(
        [],
      );
    },
  );

  it('refuses a batch of 2026-07-28 requests (that revision has no batches)', async () => {
    const child = startKitStdio(KIT_STDIO_SERVER);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    child.write([
      { jsonrpc: '2.0', id: 'a', method: 'tools/list', params: { _meta: meta } },
      { jsonrpc: '2.0', id: 'b', method: 'tools/list', params: { _meta: meta } },
    ]);
    expect((await child.answer(null)).error.message).toContain('2026-07-28 has no JSON-RPC batches');
    expect(await child.endInput()).toBe(0);
    expect(child.lines).toHaveLength(1);
  });

  it.each(['2025-03-26'])('answers a batch on %s with one array', async (revision) => {
    const child = startKitStdio(KIT_STDIO_SERVER);
    child.write(initialize(revision));
    expect((await child.answer(0)).result.protocolVersion).toBe(revision);
    child.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
    child.write(PINGS);
    expect(await child.endInput()).toBe(0);
    expect(child.lines.filter((m) => Array.isArray(m))).toEqual([ANSWERED]);
  });
});

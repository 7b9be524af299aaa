/**
 * The per-request rules of the kit on the wire, with raw JSON-RPC over an in-memory pair: the
 * 2026-07-28 `_meta` envelope (missing → -32602, unsupported revision → -32022 with the supported
 * list, `resultType` and server info on every result, no `ping`), and the legacy handshake
 * (revision negotiation, nothing but `ping` before it, one `initialize` per connection).
 */
import { describe, expect, it } from 'vitest';
import { McpServer } from '../src/server/index.js';
import { rawKitPeer, type RawKitPeer } from './support/kit-memory.js';
import { eventually } from './support/wait.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
};

/** `initialize` params offering `protocolVersion`, with no capabilities. */
const init = (protocolVersion: string) => ({
  protocolVersion,
  capabilities: {},
  clientInfo: { name: 'raw', version: '0' },
});

/** A raw client end on a fresh server: `ask` sends a request and resolves with the message answering its id. */
function rawPeer(): RawKitPeer {
  const server = new McpServer({ name: 'envelope', version: '9', logger: () => undefined });
  server.registerTool({
    name: 'noop',
    inputSchema: { type: 'object' },
    handler: () => ({ structuredContent: { ok: true } }),
  });
  return rawKitPeer(server);
}

describe('the 2026-07-28 envelope', () => {
  it('server/discover lists the supported revisions, with resultType, cache fields and server info', async () => {
    const peer = rawPeer();
    const answer = await peer.ask('server/discover', { _meta: META });
    expect(answer.result).toMatchObject({
      supportedVersions: expect.arrayContaining(['2026-07-28', '2025-11-25']),
      capabilities: { tools: {} },
      resultType: 'complete',
      ttlMs: expect.any(Number),
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'envelope', version: '9' } },
    });
  });

  it('a request without _meta, or without the client capabilities, is -32602', async () => {
    const peer = rawPeer();
    expect((await peer.ask('tools/list', {})).error).toMatchObject({ code: -32602 });
    expect((await peer.ask('server/discover', {})).error).toMatchObject({ code: -32602 });
    const noCaps = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };
    expect((await peer.ask('tools/list', noCaps)).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('clientCapabilities'),
    });
  });

  it('an unsupported revision is -32022 with the supported list and the requested one', async () => {
    const peer = rawPeer();
    const answer = await peer.ask('tools/list', {
      _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
    });
    expect(answer.error).toEqual({
      code: -32022,
      message: 'Unsupported protocol version',
      data: { supported: ['2026-07-28'], requested: '2099-01-01' },
    });
  });

  it('initialize with a 2026 envelope is a removed method (-32601), even before any handshake', async () => {
    const peer = rawPeer();
    const answer = await peer.ask('initialize', { ...init('2026-07-28'), _meta: META });
    expect(answer.error).toMatchObject({ code: -32601 });
  });

  it('tools/call results carry resultType; ping and logging/setLevel do not exist', async () => {
    const peer = rawPeer();
    const call = await peer.ask('tools/call', { name: 'noop', arguments: {}, _meta: META });
    expect(call.result).toMatchObject({ resultType: 'complete', structuredContent: { ok: true } });
    expect((await peer.ask('ping', { _meta: META })).error).toMatchObject({ code: -32601 });
    expect((await peer.ask('logging/setLevel', { level: 'info', _meta: META })).error).toMatchObject({ code: -32601 });
  });
});

describe('the legacy handshake', () => {
  it('echoes a legacy revision it speaks and offers its newest for one it does not', async () => {
    const peer = rawPeer();
    const old = await peer.ask('initialize', init('2025-03-26'));
    expect(old.result).toMatchObject({
      protocolVersion: '2025-03-26',
      serverInfo: { name: 'envelope', version: '9' },
      capabilities: { tools: { listChanged: true } },
    });
    const other = rawPeer();
    const unknown = await other.ask('initialize', init('1999-01-01'));
    expect(unknown.result).toMatchObject({ protocolVersion: '2025-11-25' });
  });

  it('answers only ping before initialize, and refuses a second initialize', async () => {
    const peer = rawPeer();
    expect((await peer.ask('ping')).result).toEqual({});
    expect((await peer.ask('tools/list')).error).toMatchObject({ code: -32602 });
    expect((await peer.ask('initialize', init('2025-06-18'))).result).toBeDefined();
    expect((await peer.ask('tools/list')).result).toMatchObject({ tools: [{ name: 'noop' }] });
    expect((await peer.ask('initialize', init('2025-06-18'))).error).toMatchObject({ code: -32602 });
  });

  it('hides fields a 2024-11-05 client cannot read (outputSchema, structuredContent)', async () => {
    const peer = rawPeer();
    await peer.ask('initialize', init('2024-11-05'));
    const list = (await peer.ask('tools/list')).result as { tools: Array<Record<string, unknown>> };
    expect(list.tools[0]).not.toHaveProperty('outputSchema');
    const call = (await peer.ask('tools/call', { name: 'noop', arguments: {} })).result as Record<string, unknown>;
    expect(call).not.toHaveProperty('structuredContent');
    expect(call.content).toEqual([{ type: 'text', text: '{"ok":true}' }]);
  });

  it('answers a batch (2025-03-26) with one array of the answers to its requests', async () => {
    const peer = rawPeer();
    await peer.send([
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'b', method: 'ping' },
    ]);
    const batch = await eventually(() => peer.received.find((m) => Array.isArray(m)), { what: 'the batch answer' });
    expect(batch).toEqual([
      { jsonrpc: '2.0', id: 'a', result: {} },
      { jsonrpc: '2.0', id: 'b', result: {} },
    ]);
  });
});

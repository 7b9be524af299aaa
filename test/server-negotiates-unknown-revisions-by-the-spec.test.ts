/**
 * Version negotiation of the kit with revisions it does not know, on an in-memory pair and over
 * Streamable HTTP: an `initialize` naming an unknown or non-date `protocolVersion` is answered
 * with the latest legacy revision (the legacy negotiation), while a request whose `_meta` names
 * any revision the server does not serve per request — unknown, a legacy one, not a date — gets
 * -32022 with the supported list (2026-07-28 basic/versioning), never a legacy answer.
 */
import { describe, expect, it } from 'vitest';
import { eraOf, LATEST_LEGACY_REVISION } from '../src/protocol/revisions.js';
import { McpServer } from '../src/server/index.js';
import { startKitHttp, type KitHttp } from './support/kit-http.js';
import { rawKitPeer } from './support/kit-memory.js';
import { exchange } from './support/kit-wire.js';

const UNKNOWN = ['garbage', 'latest', '', '1900-01-01', '2025-01-01', '2025-11-25', '2027-01-01'];
function kitServer(): McpServer {
  const server = new McpServer({ name: 'versions', version: '1', logger: () => undefined });
  server.registerTool({ name: 'noop', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
  return server;
}

/** A fresh connection to a fresh server over an in-memory pair; `ask` resolves with the answer to its id. */
function pairPeer(): (message: Record<string, unknown>) => Promise<Record<string, unknown>> {
  const peer = rawKitPeer(kitServer());
  return async (message) => {
    await peer.send(message);
    return peer.answerTo(message.id, `the answer to ${String(message.method)}`);
  };
}

function httpKit(sessions: boolean): Promise<KitHttp> {
  return startKitHttp(kitServer(), { path: '/mcp', sessions });
}

async function post(
  url: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await exchange(url, { body, headers });
  return { status: answer.status, body: answer.json as Record<string, unknown> };
}

const initialize = (version: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const modernList = (version: string) => ({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/list',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': version,
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    },
  },
});
const unsupported = (version: string) => ({
  code: -32022,
  message: 'Unsupported protocol version',
  data: { supported: ['2026-07-28'], requested: version },
});

describe('eraOf', () => {
  it.each(['garbage', 'latest', '', '2026-07-28x', 'v2026-07-28', '9999'])('%j is no modern revision', (revision) => {
    expect(eraOf(revision)).toBe('legacy');
  });
});

describe('an initialize naming a revision the server does not know', () => {
  it.each(UNKNOWN)('%j negotiates the latest legacy revision (in-memory pair)', async (version) => {
    const answer = await pairPeer()(initialize(version));
    expect(answer.result).toMatchObject({ protocolVersion: LATEST_LEGACY_REVISION });
  });

  it.each([true, false])('negotiates the latest legacy revision over HTTP (sessions: %s)', async (sessions) => {
    const kit = await httpKit(sessions);
    for (const version of UNKNOWN) {
      const answer = await post(kit.url, initialize(version));
      expect(answer.status, version).toBe(200);
      expect(answer.body.result, version).toMatchObject({ protocolVersion: LATEST_LEGACY_REVISION });
    }
  });
});

describe('a request whose _meta names a revision the server does not serve per request', () => {
  it.each(UNKNOWN)('%j is -32022 with the supported list (in-memory pair)', async (version) => {
    const answer = await pairPeer()(modernList(version));
    expect(answer.error).toEqual(unsupported(version));
  });

  it('is -32022 with the supported list over HTTP, status 400', async () => {
    const kit = await httpKit(false);
    for (const version of UNKNOWN) {
      const answer = await post(kit.url, modernList(version), {
        'mcp-protocol-version': version,
        'mcp-method': 'tools/list',
      });
      expect(answer.status, version).toBe(400);
      expect(answer.body.error, version).toEqual(unsupported(version));
    }
  });
});

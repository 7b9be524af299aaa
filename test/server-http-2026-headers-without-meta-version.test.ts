/**
 * A POST whose headers are 2026-07-28 (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) is a
 * 2026 request even when its body leaves the `_meta` protocol version out: the handler decides
 * the era from the header too, so the answer is the 2026 one for a missing required field
 * (-32602, HTTP 400), not a legacy session refusal; a `_meta` version the header disagrees with
 * stays -32020. Over a real loopback listener, with and without legacy sessions.
 */
import { describe, expect, it } from 'vitest';
import { McpServer } from '../src/server/index.js';
import { startKitHttp } from './support/kit-http.js';
import { exchange } from './support/kit-wire.js';

async function listen(sessions: boolean): Promise<string> {
  const server = new McpServer({ name: 'headers', version: '1', logger: () => undefined });
  server.registerTool({
    name: 'echo',
    inputSchema: { type: 'object' },
    handler: () => ({ content: [{ type: 'text', text: 'ran' }] }),
  });
  return (await startKitHttp(server, { path: '/mcp', ...(sessions ? {} : { sessions: false }) })).url;
}

const HEADERS = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' };

function call(meta: Record<string, unknown> | undefined): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'echo', arguments: {}, ...(meta ? { _meta: meta } : {}) },
  });
}

describe.each([true, false])('with legacy sessions %s', (sessions) => {
  it('answers a tools/call without params._meta with 400 and -32602', async () => {
    const url = await listen(sessions);
    const answer = await exchange(url, { body: call(undefined), headers: HEADERS });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602 } });
    expect(answer.json.error.message).toContain('io.modelcontextprotocol/protocolVersion');
  });

  it('answers a _meta without its protocol version with 400 and -32602', async () => {
    const url = await listen(sessions);
    const answer = await exchange(url, {
      body: call({ 'io.modelcontextprotocol/clientCapabilities': {} }),
      headers: HEADERS,
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ id: 7, error: { code: -32602 } });
  });

  it('answers a _meta version the header disagrees with by 400 and -32020', async () => {
    const url = await listen(sessions);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2025-11-25',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const answer = await exchange(url, { body: call(meta), headers: HEADERS });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ id: 7, error: { code: -32020 } });
  });
});

/**
 * Credentials an authorize hook hands out during the connect (a headersHelper's header, an OAuth
 * token) join the trace's secrets as they are learnt: a server that echoes the value inside a
 * message body does not put it in the trace. Real HTTP server on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { json, legacyServer, startHttpFixture, type HttpFixture } from './support/http-fixture.js';
import { endAll } from './support/end-all.js';
import { forgetHttpRoutesAfterEach } from './support/http-scene.js';

let fixture: HttpFixture | undefined;
forgetHttpRoutesAfterEach();
afterEach(async () => void ([fixture] = await endAll([fixture, 'close'])));

const TOKEN = 'hook-issued-token-7f3a9c';

describe('a traced connect with an authorize hook', () => {
  it("hides the hook's credential when the server echoes it in a message body", async () => {
    const mcp = legacyServer();
    fixture = await startHttpFixture((seen, res, req) => {
      // A careless server: its tool result quotes the Authorization header it got.
      if (seen.rpc !== 'tools/call') return mcp(seen, res, req);
      return json(
        res,
        {
          jsonrpc: '2.0',
          id: seen.json!.id,
          result: { content: [{ type: 'text', text: `you sent ${req.headers.authorization}` }] },
        },
        200,
        { 'mcp-session-id': String(seen.headers['mcp-session-id']) },
      );
    });
    const records: unknown[] = [];
    const client = await McpClient.connect(
      { url: fixture.url, authorize: async () => ({ authorization: `Bearer ${TOKEN}` }) },
      { name: 'echoing', trace: { sink: (record) => records.push(record) } },
    );
    try {
      const result = await client.callTool('echo', { text: 'x' });
      // The caller gets the answer as it came; only the trace hides the credential.
      expect(result).toMatchObject({ content: [{ type: 'text', text: `you sent Bearer ${TOKEN}` }] });
    } finally {
      await client.close();
    }
    const traced = JSON.stringify(records);
    expect(traced).toContain('you sent ***');
    expect(traced).not.toContain(TOKEN);
  });
});

/**
 * The Streamable HTTP transport is told its session and never sniffs it: it mirrors modern
 * headers only when told the era is modern, and a 404 for its session id makes it forget the id
 * and reject with `SessionExpiredError` (the server never ran the message) instead of replaying
 * `initialize` itself. The client renews the session: once, however many requests lost it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { JsonRpcConnection } from '../src/protocol/connection.js';
import { HttpError, SessionExpiredError } from '../src/protocol/errors.js';
import { StreamableHttpTransport } from '../src/transport/http/streamable-http.js';
import { cleanUp, type HttpFixture, json, legacyServer, result, startHttpFixture } from './support/http-fixture.js';
import { endAll } from './support/end-all.js';

let fixture: HttpFixture | undefined;
let client: McpClient | undefined;
let connection: JsonRpcConnection | undefined;

afterEach(async () => {
  [connection] = await endAll([connection, 'close']);
  [client, fixture] = await cleanUp(client, fixture);
});

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };

describe('a Streamable HTTP transport told its session', () => {
  it('mirrors the modern request headers only once told the era is modern, whatever the message carries', async () => {
    fixture = await startHttpFixture((seen, res) => json(res, result(seen, {})));
    const transport = new StreamableHttpTransport(fixture.url);
    connection = new JsonRpcConnection(transport, { requestSignals: true });
    await connection.requestRaw('server/discover', { _meta: MODERN_META });
    transport.setSession({ era: 'modern' });
    await connection.requestRaw('server/discover', { _meta: MODERN_META });

    const [before, after] = fixture.seen('server/discover');
    expect(before!.headers['mcp-method']).toBeUndefined();
    expect(after!.headers['mcp-method']).toBe('server/discover');
    expect(after!.headers['mcp-protocol-version']).toBe('2026-07-28');
  });

  it('forgets a session the server lost and rejects with SessionExpiredError, without sending initialize itself', async () => {
    const server = legacyServer();
    fixture = await startHttpFixture(() => false, server);
    const transport = new StreamableHttpTransport(fixture.url);
    connection = new JsonRpcConnection(transport, { requestSignals: true });
    transport.setSession({ era: 'legacy' });
    await connection.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    });
    transport.setSession({ era: 'legacy', protocolVersion: '2025-11-25' });
    expect(transport.sessionId).toBe('s1');
    server.expire();

    const error = await connection.requestRaw('tools/list').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionExpiredError);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ code: 'TRANSPORT', status: 404, resend: 'unsent', method: 'tools/list' });
    expect(String((error as Error).message)).not.toContain('s1');
    expect(transport.sessionId).toBeUndefined();
    expect(fixture.seen('initialize')).toHaveLength(1);
  });
});

describe('a client whose legacy HTTP session was lost', () => {
  it('renews it once for every request that lost it, and sends each of them again in the new session', async () => {
    const server = legacyServer();
    fixture = await startHttpFixture(() => false, server);
    client = await McpClient.connect({ url: fixture.url });
    server.expire();

    const answers = await Promise.all(['a', 'b', 'c'].map((text) => client!.callTool('echo', { text })));
    expect(answers.map((a) => a.content)).toEqual(
      ['a', 'b', 'c'].map((text) => [{ type: 'text', text: `echo:${text}` }]),
    );
    expect(fixture.seen('initialize')).toHaveLength(2);
    expect(fixture.seen('notifications/initialized')).toHaveLength(2);
    const renewed = fixture.seen('tools/call').filter((c) => c.headers['mcp-session-id'] === 's2');
    expect(renewed).toHaveLength(3);
    // Requests sent after the renewal carry the new session too.
    await client.listTools();
    expect(fixture.seen('tools/list').at(-1)!.headers['mcp-session-id']).toBe('s2');
  });
});

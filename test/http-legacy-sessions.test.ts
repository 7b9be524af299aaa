/**
 * Legacy Streamable HTTP (2025-03-26 … 2025-11-25) against a scripted server on loopback:
 * session ids, the version header, 404 ⇒ new session and one re-send, DELETE on close, the
 * optional GET stream, and servers that answer notifications with 200 and a body.
 */
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { json, legacyServer, openSse, result, sse, until } from './support/http-fixture.js';
import { useHttpScene } from './support/http-scene.js';

const scene = useHttpScene<McpClient>();

describe('legacy Streamable HTTP sessions', () => {
  it('captures the session id from initialize and sends it with the negotiated version on every later request', async () => {
    await scene.start(() => false, legacyServer());
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    expect(scene.client.era).toBe('legacy');
    expect(scene.client.protocolVersion).toBe('2025-11-25');
    await scene.client.callTool('echo', { text: 'hi' });

    const init = scene.fixture.seen('initialize')[0]!;
    expect(init.headers['mcp-session-id']).toBeUndefined();
    for (const seen of [...scene.fixture.seen('notifications/initialized'), ...scene.fixture.seen('tools/call')]) {
      expect(seen.headers['mcp-session-id']).toBe('s1');
      expect(seen.headers['mcp-protocol-version']).toBe('2025-11-25');
      expect(seen.headers.accept).toBe('application/json, text/event-stream');
      expect(seen.headers['content-type']).toBe('application/json');
    }
  });

  it('sends no MCP-Protocol-Version header when 2025-03-26 was negotiated (the header came in 2025-06-18)', async () => {
    await scene.start(() => false, legacyServer({ version: '2025-03-26' }));
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    expect(scene.client.protocolVersion).toBe('2025-03-26');
    await scene.client.listTools();
    expect(scene.fixture.seen('tools/list')[0]!.headers['mcp-protocol-version']).toBeUndefined();
    expect(scene.fixture.seen('tools/list')[0]!.headers['mcp-session-id']).toBe('s1');
  });

  it('starts a new session after a 404 and re-sends the failed request once, without the caller noticing', async () => {
    const server = legacyServer();
    await scene.start(() => false, server);
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    const diagnostics: string[] = [];
    scene.client.on('diagnostic', (d) => diagnostics.push(d.kind));
    server.expire();

    const answer = await scene.client.callTool('echo', { text: 'again' });
    expect(answer.content).toEqual([{ type: 'text', text: 'echo:again' }]);
    expect(scene.fixture.seen('initialize')).toHaveLength(2);
    expect(scene.fixture.seen('initialize')[1]!.headers['mcp-session-id']).toBeUndefined();
    const calls = scene.fixture.seen('tools/call');
    expect(calls.map((c) => c.headers['mcp-session-id'])).toEqual(['s1', 's2']);
    // The scene.client sends the call again as a new request (a new id) with the same tool and arguments.
    const [first, again] = calls.map(
      (c) => JSON.parse(c.body) as { id: number; params: { name: string; arguments: unknown } },
    );
    expect(again!.id).not.toBe(first!.id);
    expect(again!.params.name).toBe(first!.params.name);
    expect(again!.params.arguments).toEqual(first!.params.arguments);
    expect(diagnostics).toContain('session-expired');
    // The scene.client re-established the session itself: still one scene.client, still legacy.
    expect(scene.client.era).toBe('legacy');
  });

  it('gives up after one re-send when the new session is refused as well', async () => {
    const server = legacyServer();
    await scene.start((seen, res) => {
      if (scene.fixture.seen('initialize').length > 1 && seen.rpc === 'initialize') {
        res.writeHead(503).end('maintenance');
        return true;
      }
      return false;
    }, server);
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    server.expire();
    const error = await scene.client.callTool('echo', { text: 'x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TRANSPORT', server: '127.0.0.1:' + scene.fixture.port, method: 'initialize' });
    expect(String((error as Error).message)).toContain('HTTP 503');
    expect(scene.fixture.seen('tools/call')).toHaveLength(1);
  });

  it('ends the session with DELETE on close and tolerates 405', async () => {
    let deletes = 0;
    await scene.start((seen, res) => {
      if (seen.method !== 'DELETE') return false;
      deletes++;
      res.writeHead(405).end();
      return true;
    }, legacyServer());
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    await scene.client.close();
    expect(deletes).toBe(1);
    expect(scene.fixture.seen('DELETE')[0]!.headers['mcp-session-id']).toBe('s1');
  });

  it('opens the optional GET stream after the handshake and treats 405 as "no stream"', async () => {
    await scene.start(() => false, legacyServer({ get: 'none' }));
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    const diagnostics: string[] = [];
    scene.client.on('diagnostic', (d) => diagnostics.push(d.message));
    await until(() => scene.fixture.seen('GET').length === 1);
    expect(scene.fixture.seen('GET')[0]!.headers.accept).toBe('text/event-stream');
    expect(scene.fixture.seen('GET')[0]!.headers['mcp-session-id']).toBe('s1');
    await scene.client.listTools();
    expect(scene.fixture.seen('GET')).toHaveLength(1);
  });

  it('receives server requests and notifications on the GET stream and answers requests with a POST', async () => {
    const server = legacyServer({ get: 'sse' });
    await scene.start(() => false, server);
    scene.client = await McpClient.connect(
      { url: scene.fixture.url },
      { handlers: { roots: async () => [{ uri: 'file:///work', name: 'work' }] } },
    );
    const changed = new Promise<void>((resolve) => scene.client!.on('toolsChanged', () => resolve()));
    await until(() => server.getStreams.length === 1);
    sse(server.getStreams[0]!, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, { id: 'g1' });
    sse(server.getStreams[0]!, { jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' }, { id: 'g2' });
    await changed;
    await until(() => scene.fixture.requests.some((r) => r.json?.id === 'srv-1' && 'result' in (r.json ?? {})));
    const answer = scene.fixture.requests.find((r) => r.json?.id === 'srv-1')!;
    expect(answer.json).toEqual({
      jsonrpc: '2.0',
      id: 'srv-1',
      result: { roots: [{ uri: 'file:///work', name: 'work' }] },
    });
    expect(answer.headers['mcp-session-id']).toBe('s1');
  });

  it('reconnects a GET stream the server closed, with Last-Event-ID and after its retry delay', async () => {
    const server = legacyServer({ get: 'sse' });
    await scene.start(() => false, server);
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    await until(() => server.getStreams.length === 1);
    const first = server.getStreams[0]!;
    first.write('id: g7\nretry: 50\ndata: \n\n');
    first.end();
    await until(() => server.getStreams.length === 2);
    expect(scene.fixture.seen('GET')[1]!.headers['last-event-id']).toBe('g7');
  });

  it('tolerates a notification answered with 200 and a body (as the conformance mock does)', async () => {
    await scene.start((seen, res) => {
      if (seen.rpc !== 'notifications/initialized') return false;
      return json(res, { ok: true });
    }, legacyServer());
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    expect((await scene.client.listTools()).map((t) => t.name)).toEqual(['echo']);
  });

  it('reads a response that arrives as an SSE stream after server notifications, and closes the stream at the response', async () => {
    let held: import('node:http').ServerResponse | undefined;
    await scene.start((seen, res) => {
      if (seen.rpc !== 'tools/call') return false;
      openSse(res);
      sse(
        res,
        { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } },
        { id: '1' },
      );
      sse(res, result(seen, { content: [{ type: 'text', text: 'streamed' }] }), { id: '2' });
      held = res; // the server never ends it: the scene.client must not wait for that
      return true;
    }, legacyServer());
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    const logs: unknown[] = [];
    scene.client.on('log', (p) => logs.push(p.data));
    const answer = await scene.client.callTool('echo', {});
    expect(answer.content).toEqual([{ type: 'text', text: 'streamed' }]);
    expect(logs).toEqual(['working']);
    await until(() => held!.destroyed || held!.writableEnded || held!.socket === null || held!.closed);
  });
});

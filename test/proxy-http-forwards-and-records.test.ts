/**
 * The HTTP recording proxy over real loopback sockets: server-everything (Streamable HTTP and
 * HTTP+SSE) and scripted fixtures behind it, the real client or raw undici requests in front.
 * The client must not notice the proxy; the records must say what crossed, secrets hidden.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { PROCESS_HTTP_ROUTES } from '../src/client/http-routes.js';
import { McpClient } from '../src/client/mcp-client.js';
import { startHttpProxy, type HttpProxy } from '../src/inspect/proxy/http-proxy.js';
import type { TraceRecord } from '../src/observe/trace-record.js';
import {
  legacyServer,
  openSse,
  result,
  sse,
  startHttpFixture,
  until,
  type HttpFixture,
  type Seen,
} from './support/http-fixture.js';
import { everythingOverHttp, type HttpServerProcess, longRunProgress } from './support/http-servers.js';
import { freePort } from './support/ports.js';

const TOKEN = 'sekrit-token-42';

afterEach(() => PROCESS_HTTP_ROUTES.clear());

describe('the HTTP proxy in front of server-everything (Streamable HTTP)', () => {
  let server: HttpServerProcess;
  let proxy: HttpProxy;
  const records: TraceRecord[] = [];
  beforeAll(async () => {
    server = await everythingOverHttp('streamableHttp');
    proxy = await startHttpProxy({
      target: server.url,
      listen: { host: '127.0.0.1', port: 0 },
      headers: { Authorization: `Bearer ${TOKEN}` },
      onRecord: (r) => records.push(r),
      server: 'everything',
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.stop();
  });

  it('carries a whole session: initialize, list, call, progress over the SSE response', async () => {
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await McpClient.connect({ url: proxy.url }, { name: 'everything' });
    try {
      expect(client.era).toBe('legacy');
      expect(client.serverInfo?.name).toBe('mcp-servers/everything');
      expect((await client.listTools()).map((t) => t.name)).toEqual(
        expect.arrayContaining(['echo', 'get-sum', 'trigger-long-running-operation']),
      );
      expect((await client.callTool('get-sum', { a: 2, b: 40 })).content).toEqual([
        { type: 'text', text: 'The sum of 2 and 40 is 42.' },
      ]);
      const progress = await longRunProgress(client, 3, 0.3);
      expect(progress).toEqual([1, 2, 3]);
    } finally {
      await client.close();
    }
  });

  it('recorded each POST as an out frame and each answer as an in frame, with status, the session id and Authorization redacted', () => {
    const initialize = records.find((r) => r.dir === 'out' && r.method === 'initialize' && r.kind === 'request')!;
    expect(initialize.http).toMatchObject({
      method: 'POST',
      url: server.url,
      headers: { authorization: 'Bearer ***', 'content-type': 'application/json' },
    });
    const answer = records.find((r) => r.dir === 'in' && r.method === 'initialize' && r.kind === 'response')!;
    expect(answer.http?.status).toBe(200);
    // A trace follows the session: the id stays readable there (errors and logs still hide it).
    const session = answer.http?.headers?.['mcp-session-id'];
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.latencyMs).toBeGreaterThanOrEqual(0);
    expect(answer.protocolVersion).toBe('2025-11-25');

    const call = records.find(
      (r) =>
        r.dir === 'out' &&
        r.method === 'tools/call' &&
        (r.message as { params: { name: string } }).params.name === 'get-sum',
    )!;
    expect(call.http?.headers?.['mcp-session-id']).toBe(session);
    const sum = records.find((r) => r.dir === 'in' && r.kind === 'response' && r.id === call.id)!;
    expect(sum).toMatchObject({ method: 'tools/call', http: { method: 'POST', status: 200 } });
    expect(records.filter((r) => r.dir === 'in' && r.method === 'notifications/progress')).toHaveLength(3);
    // notifications/initialized is answered 202 with no body.
    expect(records).toContainEqual(
      expect.objectContaining({
        kind: 'event',
        event: 'http-response',
        detail: { status: 202 },
        http: expect.objectContaining({ status: 202 }),
      }),
    );
    expect(JSON.stringify(records)).not.toContain(TOKEN);
  });
});

describe('the HTTP proxy in front of a scripted fixture', () => {
  let fixture: HttpFixture;
  let proxy: HttpProxy;
  const records: TraceRecord[] = [];
  const streams: ServerResponse[] = [];
  beforeAll(async () => {
    const events = (seen: Seen, res: ServerResponse) => {
      if (seen.method !== 'GET' || seen.path !== '/events') return false;
      openSse(res);
      streams.push(res);
      return true;
    };
    fixture = await startHttpFixture(events, legacyServer());
    proxy = await startHttpProxy({
      target: fixture.url,
      headers: { authorization: `Bearer ${TOKEN}` },
      onRecord: (r) => records.push(r),
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await fixture?.close();
  });

  it('forwards Authorization upstream (the proxy’s own replaces the client’s) and the fixture sees its own host', async () => {
    const client = await McpClient.connect(
      { url: proxy.url, headers: { authorization: 'Bearer from-the-client' } },
      { name: 'scripted' },
    );
    try {
      expect((await client.callTool('echo', { text: 'through' })).content).toEqual([
        { type: 'text', text: 'echo:through' },
      ]);
    } finally {
      await client.close();
    }
    const posts = fixture.requests.filter((r) => r.method === 'POST');
    expect(posts.length).toBeGreaterThan(2);
    for (const seen of posts) {
      expect(seen.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(seen.headers.host).toBe(`127.0.0.1:${fixture.port}`);
    }
    expect(fixture.seen('tools/call')[0]!.headers['mcp-session-id']).toBe('s1');
    const answer = records.find((r) => r.dir === 'in' && r.method === 'tools/call')!;
    expect(answer.http).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' } });
    expect(records.find((r) => r.dir === 'in' && r.method === 'initialize')?.http?.headers?.['mcp-session-id']).toBe(
      's1',
    );
    expect(records.find((r) => r.dir === 'out' && r.method === 'tools/call')?.http?.headers?.['mcp-session-id']).toBe(
      's1',
    );
    expect(JSON.stringify(records)).not.toContain(TOKEN);
    expect(JSON.stringify(records)).not.toContain('from-the-client');
  });

  it('streams a long-lived GET event by event, and a client that goes away aborts the upstream request', async () => {
    const agent = new Agent();
    const controller = new AbortController();
    try {
      const response = await request(`${new URL(proxy.url).origin}/events`, {
        headers: { accept: 'text/event-stream' },
        signal: controller.signal,
        dispatcher: agent,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/event-stream');
      let text = '';
      response.body.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.body.on('error', () => {});
      await until(() => streams.length === 1);
      const upstream = streams[0]!;
      let upstreamClosed = false;
      upstream.once('close', () => (upstreamClosed = true));
      // Each event is written only after the previous one came out of the proxy: nothing waits for more.
      for (const n of [1, 2, 3]) {
        sse(
          upstream,
          { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } },
          { id: `e${n}` },
        );
        await until(() => text.includes(`"data":${n}}`));
      }
      expect(text).toBe(
        [1, 2, 3]
          .map(
            (n) =>
              `id: e${n}\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":${n}}}\n\n`,
          )
          .join(''),
      );
      controller.abort();
      await until(() => upstreamClosed);
      await until(() => records.some((r) => r.event === 'aborted'));
      const frames = records.filter((r) => r.http?.url.endsWith('/events'));
      expect(frames.map((r) => r.event ?? r.kind)).toEqual([
        'http-request',
        'notification',
        'notification',
        'notification',
        'aborted',
      ]);
      expect(frames[1]!.http).toMatchObject({
        method: 'GET',
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
      });
    } finally {
      await agent.destroy();
    }
  });

  it('answers 502 when the target cannot be reached, and records why', async () => {
    const port = await freePort();
    const seen: TraceRecord[] = [];
    const dead = await startHttpProxy({ target: `http://127.0.0.1:${port}/mcp`, onRecord: (r) => seen.push(r) });
    const agent = new Agent();
    try {
      const response = await request(dead.url, {
        method: 'POST',
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        headers: { 'content-type': 'application/json' },
        dispatcher: agent,
      });
      expect(response.statusCode).toBe(502);
      expect(await response.body.text()).toContain('could not be reached');
      expect(seen.map((r) => r.event ?? r.kind)).toEqual(['listen', 'request', 'upstream-error']);
      expect(String(seen[2]!.detail?.error)).toContain('ECONNREFUSED');
    } finally {
      await agent.destroy();
      await dead.close();
    }
  });
});

describe('closing the HTTP proxy', () => {
  it('ends open streams and leaves no socket open on either side', async () => {
    let stream: ServerResponse | undefined;
    const fixture = await startHttpFixture((seen, res) => {
      if (seen.method !== 'GET') return false;
      openSse(res);
      stream = res;
      return true;
    });
    const proxy = await startHttpProxy({ target: fixture.url, onRecord: () => {} });
    const agent = new Agent();
    try {
      const response = await request(proxy.url, { dispatcher: agent });
      const ended = new Promise<string>((resolve) => {
        response.body.on('error', () => resolve('error'));
        response.body.on('end', () => resolve('end'));
        response.body.resume();
      });
      await until(() => stream !== undefined);
      expect(fixture.openSockets()).toBe(1);
      await proxy.close();
      await proxy.close(); // idempotent
      expect(await ended).toBe('error');
      expect(await fixture.socketsDrained()).toBe(0);
      const again = await request(proxy.url, { dispatcher: agent }).catch((e: unknown) => e);
      expect(String((again as { code?: string }).code ?? again)).toContain('ECONNREFUSED');
    } finally {
      await agent.destroy();
      await fixture.close();
    }
  });
});

describe('the HTTP proxy in front of HTTP+SSE servers (2024-11-05 transport)', () => {
  it('server-everything works through it; its relative endpoint already resolves through the proxy', async () => {
    const server = await everythingOverHttp('sse');
    const records: TraceRecord[] = [];
    const proxy = await startHttpProxy({ target: server.url, onRecord: (r) => records.push(r) });
    try {
      const client = await McpClient.connect({ url: proxy.url }, { name: 'everything-sse' });
      try {
        expect((await client.callTool('echo', { message: 'over sse' })).content).toEqual([
          { type: 'text', text: 'Echo: over sse' },
        ]);
        const progress = await longRunProgress(client, 2, 0.2);
        expect(progress).toEqual([1, 2]);
      } finally {
        await client.close();
      }
      const endpoint = records.find((r) => r.event === 'endpoint')!;
      expect(endpoint.detail).toMatchObject({ rewritten: false });
      expect(String(endpoint.detail!.url)).toMatch(/^\/message\?sessionId=/);
      // Answers arrive as SSE message events on the GET stream and are correlated with the POSTs.
      expect(
        records.find((r) => r.dir === 'in' && r.kind === 'response' && r.method === 'tools/call')?.http,
      ).toMatchObject({ method: 'GET', status: 200 });
    } finally {
      await proxy.close();
      await server.stop();
    }
  });

  it('an absolute endpoint naming the target is pointed back at the proxy, and the rewrite is recorded', async () => {
    let stream: ServerResponse | undefined;
    let fixture: HttpFixture | undefined;
    const legacySse = (seen: Seen, res: ServerResponse): boolean => {
      if (seen.method === 'GET' && seen.path === '/sse') {
        openSse(res);
        stream = res;
        // Split in two writes, CRLF line ends: the proxy must still find and rewrite it.
        res.write(`event: endpoint\r\ndata: http://127.0.0.1:${fixture!.port}/mess`);
        res.write('ages?sessionId=abc\r\n\r\n');
        return true;
      }
      if (seen.method === 'POST' && seen.path === '/messages?sessionId=abc') {
        res.writeHead(202).end();
        const message = seen.json;
        if (!message || !('id' in message)) return true;
        if (seen.rpc === 'initialize')
          sse(
            stream!,
            result(seen, {
              protocolVersion: '2024-11-05',
              capabilities: { tools: {} },
              serverInfo: { name: 'old-sse', version: '1' },
            }),
          );
        else if (seen.rpc === 'tools/call') sse(stream!, result(seen, { content: [{ type: 'text', text: 'old:ok' }] }));
        else sse(stream!, result(seen, {}));
        return true;
      }
      return false;
    };
    fixture = await startHttpFixture(legacySse);
    const records: TraceRecord[] = [];
    const proxy = await startHttpProxy({
      target: `http://127.0.0.1:${fixture.port}/sse`,
      onRecord: (r) => records.push(r),
    });
    try {
      const client = await McpClient.connect({ url: proxy.url }, { name: 'old-sse' });
      try {
        expect(client.protocolVersion).toBe('2024-11-05');
        expect((await client.callTool('anything', {})).content).toEqual([{ type: 'text', text: 'old:ok' }]);
      } finally {
        await client.close();
      }
      const origin = new URL(proxy.url).origin;
      expect(records.find((r) => r.event === 'endpoint')?.detail).toEqual({
        url: `http://127.0.0.1:${fixture.port}/messages?sessionId=abc`,
        rewritten: true,
        to: `${origin}/messages?sessionId=abc`,
      });
      // The client's POSTs went through the proxy (recorded there) and reached the fixture.
      expect(
        records.filter((r) => r.dir === 'out' && r.http?.url.endsWith('/messages?sessionId=abc')).map((r) => r.method),
      ).toEqual(expect.arrayContaining(['initialize', 'tools/call']));
      expect(fixture.seen('tools/call')).toHaveLength(1);
    } finally {
      await proxy.close();
      await fixture.close();
    }
  });
});

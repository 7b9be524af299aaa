/**
 * Tracing over HTTP: frame records carry the HTTP facts of their exchange (method, URL, status,
 * `mcp-*` and content-type headers), the probe attempts of the route detection are recorded like
 * any traffic, answers without a message become `http` events, and neither the `Authorization`
 * token nor a configured secret reaches a record or the JSONL file.
 */
import type { ServerResponse } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { jsonlFileSink } from '../src/inspect/trace/sinks.js';
import type { TraceRecord } from '../src/observe/trace-record.js';
import {
  cleanUp,
  legacyServer,
  openSse,
  result,
  sse,
  startHttpFixture,
  until,
  type HttpFixture,
  type Seen,
} from './support/http-fixture.js';
import { modernOverHttp, type HttpServerProcess } from './support/http-servers.js';
import { parseJsonl } from './support/jsonl.js';

const TOKEN = 'sekrit-bearer-token-0042';
const SECRET = 'config-secret-value-77';

let client: McpClient | undefined;
let fixture: HttpFixture | undefined;
let modern: HttpServerProcess | undefined;
const dirs: string[] = [];
afterEach(async () => {
  [client, fixture] = await cleanUp(client, fixture);
  await modern?.stop();
  modern = undefined;
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('tracing a legacy Streamable HTTP server', () => {
  it('frames carry status and session headers; probes, 202s and the session end are recorded; no credential leaks', async () => {
    fixture = await startHttpFixture(() => false, legacyServer({ version: '2025-06-18' }));
    const dir = await mkdtemp(path.join(tmpdir(), 'mcpwire-trace-http-'));
    dirs.push(dir);
    const jsonl = jsonlFileSink(path.join(dir, 'trace.jsonl'));
    const records: TraceRecord[] = [];
    const sink = (record: TraceRecord): void => {
      records.push(record);
      jsonl.sink(record);
    };
    client = await McpClient.connect(
      { url: fixture.url, headers: { Authorization: `Bearer ${TOKEN}` } },
      { trace: { sink, secrets: [SECRET] } },
    );
    const answer = await client.callTool('echo', { text: SECRET });
    expect(answer.content).toEqual([{ type: 'text', text: `echo:${SECRET}` }]);
    await client.close();
    client = undefined;
    await jsonl.close();

    const host = new URL(fixture.url).host;
    expect(new Set(records.map((r) => r.server))).toEqual(new Set([host]));
    // The 2026 probe went out and was refused by status alone (no session yet: 400).
    const probe = records.find((r) => r.kind === 'request' && r.method === 'server/discover');
    expect(probe?.http).toMatchObject({ method: 'POST', url: fixture.url });
    expect(records.find((r) => r.event === 'http' && r.detail?.request === 'server/discover')).toMatchObject({
      dir: 'in',
      detail: { status: 400, id: probe!.id },
      http: { method: 'POST', status: 400 },
    });

    // The initialize answer shows the status and the session the server assigned.
    const init = records.find((r) => r.kind === 'response' && r.method === 'initialize');
    expect(init).toMatchObject({
      protocolVersion: '2025-06-18',
      http: { method: 'POST', status: 200, headers: { 'mcp-session-id': 's1', 'content-type': 'application/json' } },
    });
    // Requests after it carry the session, the revision header and the redacted credential.
    const call = records.find((r) => r.kind === 'request' && r.method === 'tools/call');
    expect(call?.http).toEqual({
      method: 'POST',
      url: fixture.url,
      headers: {
        authorization: 'Bearer ***',
        'content-type': 'application/json',
        'mcp-session-id': 's1',
        'mcp-protocol-version': '2025-06-18',
      },
    });
    const callAnswer = records.find((r) => r.kind === 'response' && r.method === 'tools/call');
    expect(callAnswer?.http).toMatchObject({ status: 200 });
    expect(callAnswer?.latencyMs).toBeGreaterThanOrEqual(0);
    // A notification's record comes once the server took it, with that status.
    const initialized = records.find((r) => r.method === 'notifications/initialized');
    expect(initialized).toMatchObject({
      dir: 'out',
      kind: 'notification',
      http: { method: 'POST', status: 202, headers: { 'mcp-session-id': 's1' } },
    });
    // The optional GET stream (refused with 405) and the DELETE that ends the session.
    const events = records.filter((r) => r.event === 'http').map((r) => `${r.http?.method} ${r.http?.status}`);
    expect(events).toEqual(['POST 400', 'GET 405', 'DELETE 200']);
    expect(records.find((r) => r.http?.method === 'DELETE')?.http?.headers).toMatchObject({
      'mcp-session-id': 's1',
      authorization: 'Bearer ***',
    });
    expect(records.at(-1)).toMatchObject({ kind: 'event', event: 'close' });

    // Every request has one answer: a response, an error, or a status-only event naming it.
    for (const request of records.filter((r) => r.kind === 'request')) {
      const answered = records.filter(
        (r) =>
          (r.dir === 'in' && r.id === request.id && (r.kind === 'response' || r.kind === 'error')) ||
          (r.event === 'http' && r.detail?.id === request.id),
      );
      expect(answered, `answer to ${request.method}`).toHaveLength(1);
    }
    // The refused probe's send failed with the client's reading of it; nothing else failed.
    expect(records.filter((r) => r.event === 'send-failed').map((r) => r.detail)).toEqual([
      { method: 'server/discover', id: probe!.id, code: 'TRANSPORT', error: expect.stringContaining('HTTP 400') },
    ]);

    const file = await readFile(path.join(dir, 'trace.jsonl'), 'utf8');
    for (const text of [JSON.stringify(records), file]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(SECRET);
    }
    expect(parseJsonl<TraceRecord>(file)).toEqual(records);
  });

  it('a session that expired: the 404, the failed send, the new handshake and the re-sent request are all in the trace', async () => {
    const server = legacyServer();
    fixture = await startHttpFixture(() => false, server);
    const records: TraceRecord[] = [];
    client = await McpClient.connect(
      { url: fixture.url, transport: 'http' },
      { era: 'legacy', trace: { sink: (r) => records.push(r) } },
    );
    // The optional GET stream opens after the handshake; let its refusal arrive first.
    await until(() => records.some((r) => r.event === 'http' && r.http?.method === 'GET'));
    server.expire();
    records.length = 0;
    await client.callTool('echo', { text: 'again' });
    // The new session opens its GET stream again, concurrently with the re-sent call: left out here.
    // The transport rejects the send (the client, not the transport, starts the new session).
    const posts = records.filter((r) => r.http?.method === 'POST' || r.event === 'send-failed');
    const lines = posts.map((r) =>
      r.kind === 'event' ? `${r.event} ${r.http?.status ?? String(r.detail?.code)}` : `${r.dir} ${r.kind} ${r.method}`,
    );
    expect(lines).toEqual([
      'out request tools/call',
      'http 404',
      'send-failed TRANSPORT',
      'out request initialize',
      'in response initialize',
      'out notification notifications/initialized',
      'out request tools/call',
      'in response tools/call',
    ]);
    const resent = records.filter((r) => r.kind === 'request' && r.method === 'tools/call');
    expect(resent.map((r) => r.http?.headers?.['mcp-session-id'])).toEqual(['s1', 's2']);
    expect(
      records.find((r) => r.kind === 'response' && r.method === 'initialize')?.http?.headers?.['mcp-session-id'],
    ).toBe('s2');
  });
});

describe('tracing an HTTP+SSE (2024-11-05) server', () => {
  it('records the refused Streamable HTTP probes, the connecting GET, each POST status and the messages of the stream', async () => {
    let stream: ServerResponse | undefined;
    const route = (seen: Seen, res: ServerResponse): boolean => {
      if (seen.method === 'GET' && seen.path === '/sse') {
        openSse(res);
        stream = res;
        sse(res, '/messages?sessionId=abc', { event: 'endpoint' });
        return true;
      }
      if (seen.method === 'POST' && seen.path === '/messages?sessionId=abc') {
        res.writeHead(202).end('Accepted');
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
        else sse(stream!, result(seen, { content: [{ type: 'text', text: 'old:ok' }] }));
        return true;
      }
      if (seen.method === 'POST') {
        res.writeHead(405).end();
        return true;
      }
      return false;
    };
    fixture = await startHttpFixture(route);
    const records: TraceRecord[] = [];
    client = await McpClient.connect(
      { url: `http://127.0.0.1:${fixture.port}/sse`, headers: { authorization: `Bearer ${TOKEN}` } },
      { name: 'old', trace: { sink: (r) => records.push(r) } },
    );
    expect(client.protocolVersion).toBe('2024-11-05');
    await client.callTool('anything', {});
    await client.close();
    client = undefined;

    const sseUrl = `http://127.0.0.1:${fixture.port}/sse`;
    const endpoint = `http://127.0.0.1:${fixture.port}/messages?sessionId=abc`;
    const summary = records.map((r) =>
      r.kind === 'event'
        ? `${r.event} ${r.http ? `${r.http.method} ${r.http.status}` : ''}`.trim()
        : `${r.dir} ${r.kind} ${r.method} ${r.http?.method ?? ''}`.trim(),
    );
    expect(summary).toEqual([
      // Streamable HTTP first: both the probe and initialize are refused by status, then that transport closes.
      'out request server/discover POST',
      'http POST 405',
      'send-failed',
      'out request initialize POST',
      'http POST 405',
      'send-failed',
      'close',
      // The HTTP+SSE route: the connecting GET, then each POST's 202 and the answers on the stream.
      'http GET 200',
      'out request initialize POST',
      'http POST 202',
      'in response initialize GET',
      'out notification notifications/initialized POST',
      'out request tools/call POST',
      'http POST 202',
      'in response tools/call GET',
      'close',
    ]);
    expect(records.filter((r) => r.kind === 'request').map((r) => r.http?.url)).toEqual([
      sseUrl,
      sseUrl,
      endpoint,
      endpoint,
    ]);
    expect(records.find((r) => r.kind === 'response' && r.method === 'initialize')?.http).toMatchObject({
      method: 'GET',
      url: sseUrl,
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
    });
    expect(records.find((r) => r.method === 'notifications/initialized')?.http?.status).toBe(202);
    expect(JSON.stringify(records)).not.toContain(TOKEN);
  });
});

describe('tracing a modern Streamable HTTP server', () => {
  it('requests carry MCP-Protocol-Version and Mcp-Method; the revision comes from the answered discover', async () => {
    modern = await modernOverHttp();
    const records: TraceRecord[] = [];
    client = await McpClient.connect({ url: modern.url }, { name: 'modern', trace: { sink: (r) => records.push(r) } });
    await client.callTool('echo', { text: 'hi' });
    const call = records.find((r) => r.kind === 'request' && r.method === 'tools/call');
    expect(call).toMatchObject({
      protocolVersion: '2026-07-28',
      http: {
        method: 'POST',
        headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
      },
    });
    const discover = records.find((r) => r.kind === 'response' && r.method === 'server/discover');
    expect(discover).toMatchObject({ protocolVersion: '2026-07-28', http: { status: 200 } });
    expect(
      records.find((r) => r.kind === 'request' && r.method === 'server/discover')?.protocolVersion,
    ).toBeUndefined();
  });
});

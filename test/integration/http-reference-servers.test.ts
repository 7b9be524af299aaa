/**
 * Real servers over real HTTP on loopback: server-everything in its Streamable HTTP (2025-11-25,
 * sessions, SSE responses) and HTTP+SSE (2024-11-05 transport) modes, and the modern fixture on
 * the official v2 server package (2026-07-28 stateless, MRTR, listen). Every message the client
 * sends is checked against the official schema of the negotiated revision.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/mcp-client.js';
import { PROCESS_HTTP_ROUTES } from '../../src/client/http-routes.js';
import { isMcpError } from '../../src/protocol/errors.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamable-http.js';
import { recordHttpExchanges, type RecordingTransport } from '../kit/recording-transport.js';
import {
  everythingOverHttp,
  modernOverHttp,
  type HttpServerProcess,
  longRunProgress,
} from '../support/http-servers.js';
import { until } from '../support/wait.js';
import { invalidSent } from './support/wire-conformance.js';

/** A 2026-07-28 listen acknowledgement whose filter names `uri`. */
function isAcknowledgementOf(message: unknown, uri: string): boolean {
  const m = message as { method?: string; params?: { notifications?: { resourceSubscriptions?: string[] } } };
  return (
    m.method === 'notifications/subscriptions/acknowledged' &&
    (m.params?.notifications?.resourceSubscriptions ?? []).includes(uri)
  );
}

describe('server-everything over Streamable HTTP', () => {
  let server: HttpServerProcess;
  let client: McpClient;
  let recording: RecordingTransport;
  beforeAll(async () => {
    server = await everythingOverHttp('streamableHttp');
    // The client is handed the HTTP transport itself (it tells it the session); the recording observes its exchanges.
    const http = new StreamableHttpTransport(server.url, { name: 'everything' });
    recording = recordHttpExchanges(http);
    client = await McpClient.connect(http, {
      name: 'everything',
      handlers: {
        sampling: async () => ({
          role: 'assistant',
          content: { type: 'text', text: 'sampled over http' },
          model: 'test-model',
        }),
        elicitation: async () => ({ action: 'decline' }),
        roots: async () => [{ uri: 'file:///tmp', name: 'tmp' }],
      },
    });
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('negotiates the legacy era with a session', () => {
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect((recording.inner as StreamableHttpTransport).sessionId).toMatch(/^[\x21-\x7e]+$/);
    expect(client.serverInfo?.name).toBe('mcp-servers/everything');
  });

  it('lists and calls tools, with progress over the SSE response', async () => {
    const names = (await client.listTools()).map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['echo', 'get-sum', 'trigger-long-running-operation', 'trigger-sampling-request']),
    );
    expect((await client.callTool('get-sum', { a: 2, b: 40 })).content).toEqual([
      { type: 'text', text: 'The sum of 2 and 40 is 42.' },
    ]);
    const progress = await longRunProgress(client, 3, 0.3);
    expect(progress).toEqual([1, 2, 3]);
  });

  it('answers a server request (sampling) that arrives on the call stream', async () => {
    const answer = await client.callTool('trigger-sampling-request', { prompt: 'hello', maxTokens: 5 });
    expect(JSON.stringify(answer.content)).toContain('sampled over http');
  });

  it('reads resources and gets prompts', async () => {
    const resources = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const read = await client.readResource(resources[0]!.uri);
    expect(read.contents[0]!.uri).toBe(resources[0]!.uri);
    const prompt = await client.getPrompt('simple-prompt');
    expect(prompt.messages.length).toBeGreaterThan(0);
  });

  it('cancels a long call: CANCELLED at once, and the session still works', async () => {
    const controller = new AbortController();
    // Aborted while the server works on it: at its first progress report.
    const pending = client.callTool(
      'trigger-long-running-operation',
      { duration: 10, steps: 100 },
      { signal: controller.signal, onProgress: () => controller.abort() },
    );
    expect(isMcpError(await pending.catch((e: unknown) => e), 'CANCELLED')).toBe(true);
    expect((await client.callTool('echo', { message: 'still here' })).content).toEqual([
      { type: 'text', text: 'Echo: still here' },
    ]);
  });

  it('sent only schema-valid messages', () => {
    expect(invalidSent(recording, client.protocolVersion)).toEqual([]);
  });
});

describe('server-everything over HTTP+SSE (2024-11-05 transport), found by detection', () => {
  let server: HttpServerProcess;
  afterAll(async () => {
    PROCESS_HTTP_ROUTES.clear();
    await server?.stop();
  });

  it('falls back from Streamable HTTP to the SSE endpoint and works end to end', async () => {
    server = await everythingOverHttp('sse');
    const client = await McpClient.connect({ url: server.url }, { name: 'everything-sse' });
    try {
      expect(client.era).toBe('legacy');
      expect((await client.callTool('echo', { message: 'over sse' })).content).toEqual([
        { type: 'text', text: 'Echo: over sse' },
      ]);
      const progress = await longRunProgress(client, 2, 0.2);
      expect(progress).toEqual([1, 2]);
    } finally {
      await client.close();
    }
  });

  it('a killed server fails the pending call at once (the stream was the connection)', async () => {
    const client = await McpClient.connect({ url: server.url }, { name: 'everything-sse' });
    let progressed = false;
    const pending = client
      .callTool(
        'trigger-long-running-operation',
        { duration: 10, steps: 100 },
        { onProgress: () => (progressed = true) },
      )
      .catch((e: unknown) => e);
    const closed = client.closed;
    await until(() => progressed, { what: 'the first progress of the long call' });
    await server.stop();
    const error = await pending;
    expect(isMcpError(error, 'CONNECTION_CLOSED')).toBe(true);
    expect((error as Error).message).toContain('the SSE stream from');
    expect((await closed).error?.code).toBe('CONNECTION_CLOSED');
    await client.close();
  });
});

describe('the modern fixture (official v2 server) over Streamable HTTP', () => {
  let server: HttpServerProcess;
  let client: McpClient;
  let recording: RecordingTransport;
  beforeAll(async () => {
    server = await modernOverHttp();
    // The client is handed the HTTP transport itself (it tells it the session); the recording observes its exchanges.
    const http = new StreamableHttpTransport(server.url, { name: 'modern' });
    recording = recordHttpExchanges(http);
    client = await McpClient.connect(http, {
      name: 'modern',
      handlers: {
        elicitation: async () => ({ action: 'accept', content: { ok: true } }),
        sampling: async () => ({ role: 'assistant', content: { type: 'text', text: '42' }, model: 'm' }),
        roots: async () => [{ uri: 'file:///srv', name: 'srv' }],
      },
    });
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('is modern, stateless: discover only, no session', () => {
    expect(client.era).toBe('modern');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect((recording.inner as StreamableHttpTransport).sessionId).toBeUndefined();
  });

  it('leaves out the tool with an invalid x-mcp-header marking and mirrors valid ones into headers', async () => {
    const names = (await client.listTools()).map((t) => t.name);
    expect(names).toContain('region-query');
    expect(names).not.toContain('bad-header-tool');
    const answer = await client.callTool('region-query', {
      region: 'Zürich',
      query: 'q',
      limit: 7,
      flags: { dry: true },
    });
    expect(answer.content).toEqual([
      { type: 'text', text: `region==?base64?${Buffer.from('Zürich').toString('base64')}?= limit=7 dry=true` },
    ]);
  });

  it('fulfils multi-round-trip input (elicitation, sampling, roots) over HTTP', async () => {
    expect((await client.callTool('confirm', { what: 'deploy' })).content).toEqual([
      { type: 'text', text: 'accept:{"ok":true}:confirm:deploy' },
    ]);
    expect(JSON.stringify((await client.callTool('ask-model', { question: 'q' })).content)).toContain('42');
    expect(JSON.stringify((await client.callTool('where', {})).content)).toContain('file:///srv');
  });

  it('streams progress, reads resources, gets prompts', async () => {
    const progress: number[] = [];
    await client.callTool('slow', { ms: 100, steps: 2 }, { onProgress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2]);
    expect((await client.readResource('test://static/hello')).contents).toEqual([
      { uri: 'test://static/hello', mimeType: 'text/plain', text: 'hello world' },
    ]);
    expect((await client.getPrompt('greet', { name: 'Ada' })).messages.length).toBe(1);
  });

  it('a resource subscription arrives through the long-lived subscriptions/listen stream', async () => {
    const updated = new Promise<string>((resolve) => client.on('resourceUpdated', (p) => resolve(p.uri)));
    const unsubscribe = await client.subscribeResource('test://static/hello');
    // The listen stream re-opens with the new filter; the server acknowledges it once registered.
    await until(() => recording.received.some((r) => isAcknowledgementOf(r.message, 'test://static/hello')), {
      what: 'the acknowledged subscription',
    });
    await client.callTool('touch', { uri: 'test://static/hello' });
    expect(await updated).toBe('test://static/hello');
    await unsubscribe();
  });

  it('cancels a never-answering call by closing its stream', async () => {
    const controller = new AbortController();
    const waiting = (server.stderr().match(/^waiting /gm) ?? []).length;
    const pending = client.callTool('never-answer', {}, { signal: controller.signal });
    // Aborted once the server's handler runs (it says so on stderr).
    await until(() => (server.stderr().match(/^waiting /gm) ?? []).length > waiting, {
      what: 'the never-answer handler to start',
    });
    controller.abort();
    expect(isMcpError(await pending.catch((e: unknown) => e), 'CANCELLED')).toBe(true);
    expect(recording.sent.some((r) => (r.message as { method?: string }).method === 'notifications/cancelled')).toBe(
      false,
    );
  });

  it('sent only schema-valid messages', () => {
    expect(invalidSent(recording, client.protocolVersion)).toEqual([]);
  });
});

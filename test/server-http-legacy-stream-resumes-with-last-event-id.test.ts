/**
 * SSE polling on the kit's legacy Streamable HTTP sessions (2025-11-25, SEP-1699), over a real
 * loopback listener: a POST answered with SSE opens with a priming event (an id, `retry`, empty
 * data); a handler may close the response early (`context.closeStream()`) and go on; a GET with
 * `Last-Event-ID` gets the events of that stream the client missed, then the rest, the answer
 * last; the replay buffer is bounded (an id older than what is kept replays nothing); older
 * revisions get no priming event; mcpwire's own client resumes such a call by itself.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { McpServer } from '../src/server/index.js';
import { startKitHttp, type KitHttp } from './support/kit-http.js';
import { exchange, sseEvents, type Exchange, type SseEvent } from './support/kit-wire.js';
import { until, within } from './support/wait.js';

let kit: KitHttp | undefined;
let gate: { opened: Promise<void>; open(): void };
let waiting: boolean;
let aborted: unknown[];

function newGate(): void {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  gate = { opened, open };
}

function makeServer(): McpServer {
  const server = new McpServer({ name: 'polling', version: '1', logger: () => undefined });
  server.registerTool({
    name: 'poll_me',
    inputSchema: { type: 'object', properties: { before: { type: 'number' }, close: { type: 'boolean' } } },
    handler: async ({ before, close }, context) => {
      for (let i = 1; i <= Number(before ?? 1); i++) context.progress(i);
      if (close !== false) context.closeStream();
      waiting = true;
      context.signal.addEventListener('abort', () => aborted.push(context.signal.reason));
      await gate.opened;
      context.progress(1_000_000, undefined, 'after the close');
      return { content: [{ type: 'text', text: 'resumed result' }] };
    },
  });
  return server;
}

afterEach(() => {
  gate?.open();
});

async function start(): Promise<void> {
  newGate();
  waiting = false;
  aborted = [];
  kit = await startKitHttp(makeServer(), { path: '/mcp', sessions: true });
}

/** One HTTP exchange with the kit; resolves with the whole body (SSE bodies end with their stream). */
function send(method: string, headers: Record<string, string>, body?: unknown): Promise<Exchange> {
  return exchange(kit!.url, { method, headers, body });
}

async function openSession(revision: string): Promise<string> {
  const made = await send(
    'POST',
    {},
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    },
  );
  const session = made.headers['mcp-session-id'] as string;
  await send(
    'POST',
    { 'mcp-session-id': session, 'mcp-protocol-version': revision },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
  );
  return session;
}

function callPollMe(session: string, revision: string, before = 1): ReturnType<typeof exchange> {
  return send(
    'POST',
    { 'mcp-session-id': session, 'mcp-protocol-version': revision },
    {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'poll_me', arguments: { before }, _meta: { progressToken: 'p' } },
    },
  );
}

describe('legacy Streamable HTTP SSE polling', () => {
  it('primes the stream, closes it when the handler asks, and a GET with Last-Event-ID gets the rest, the answer last', async () => {
    await start();
    const session = await openSession('2025-11-25');
    const post = await callPollMe(session, '2025-11-25');
    expect(post.headers['content-type']).toBe('text/event-stream');
    const first = sseEvents(post.text);
    expect(first[0]).toMatchObject({ data: '', retry: '500' });
    expect(first[0]!.id).toBeTruthy();
    expect(first.map((e) => e.data).join()).not.toContain('resumed result');
    await until(() => waiting, { what: 'the handler to wait after closing its stream' });

    const lastSeen = first.at(-1)!.id!;
    const resumed = send('GET', {
      accept: 'text/event-stream',
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
      'last-event-id': lastSeen,
    });
    gate.open();
    const rest = sseEvents((await resumed).text).map((e) => JSON.parse(e.data));
    expect(rest.map((m) => m.method ?? m.id)).toEqual(['notifications/progress', 7]);
    expect(rest[0].params).toMatchObject({ progress: 1_000_000, message: 'after the close' });
    expect(rest[1].result.content[0].text).toBe('resumed result');
  });

  it('replays what the client missed after the id it names (the answer already buffered when it comes back)', async () => {
    await start();
    const session = await openSession('2025-11-25');
    const post = await callPollMe(session, '2025-11-25', 2);
    const seen = sseEvents(post.text);
    expect(seen).toHaveLength(3); // the priming event and two progress notifications
    await until(() => waiting, { what: 'the handler to wait after closing its stream' });
    gate.open();

    const fromPriming = sseEvents(
      (await send('GET', { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': seen[0]!.id! }))
        .text,
    );
    expect(fromPriming.map((e) => e.id)).toEqual([seen[1]!.id, seen[2]!.id, expect.any(String), expect.any(String)]);
    expect(JSON.parse(fromPriming.at(-1)!.data).result.content[0].text).toBe('resumed result');

    const fromLast = sseEvents(
      (await send('GET', { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': seen[2]!.id! }))
        .text,
    );
    expect(fromLast.map((e) => JSON.parse(e.data).method ?? 'answer')).toEqual(['notifications/progress', 'answer']);
  });

  it('does not cancel the call when the client drops its stream: the rest comes on the resumed stream', async () => {
    await start();
    const session = await openSession('2025-11-25');
    const firstEvents: SseEvent[] = [];
    const req = http.request(kit!.url, {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
      },
    });
    const gone = new Promise<void>((resolve) => req.once('close', () => resolve()));
    req.once('error', () => undefined); // the socket is destroyed on purpose
    req.once('response', (res) => {
      res.setEncoding('utf8');
      let text = '';
      res.on('data', (chunk: string) => {
        text += chunk;
        firstEvents.splice(0, firstEvents.length, ...sseEvents(text.slice(0, text.lastIndexOf('\n\n') + 2)));
      });
      res.on('error', () => undefined);
    });
    req.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'poll_me', arguments: { close: false }, _meta: { progressToken: 'p' } },
      }),
    );
    await until(() => waiting && firstEvents.length === 2, { what: 'the priming event and the first progress' });
    req.destroy();
    await within(gone, { what: 'the dropped request to close' });

    const resumed = send('GET', {
      accept: 'text/event-stream',
      'mcp-session-id': session,
      'last-event-id': firstEvents[1]!.id!,
    });
    gate.open();
    const rest = sseEvents((await resumed).text).map((e) => JSON.parse(e.data));
    expect(rest.at(-1).result.content[0].text).toBe('resumed result');
    expect(aborted).toEqual([]);
  });

  it('keeps a bounded replay buffer: an id older than what is kept replays nothing, a kept one the rest', async () => {
    const server = makeServer();
    newGate();
    waiting = false;
    aborted = [];
    kit = await startKitHttp(server, { path: '/mcp', sessions: true });
    const session = await openSession('2025-11-25');
    const post = await callPollMe(session, '2025-11-25', 400);
    const seen = sseEvents(post.text);
    expect(seen).toHaveLength(401);
    await until(() => waiting, { what: 'the handler to wait after closing its stream' });

    // Trimmed: no part of the stream is replayed; the GET is the session's standalone stream,
    // whose first event is the next list change.
    const stop = new AbortController();
    const trimmed = await fetch(kit.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': seen[0]!.id! },
      signal: stop.signal,
    });
    try {
      expect(trimmed.status).toBe(200);
      await until(() => kit!.handler.openStreams === 1, { what: 'the standalone stream' });
      server.registerTool({ name: 'late', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
      const reader = trimmed.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      while (!text.includes('\n\n')) text += (await within(reader.read(), { what: 'an event' })).value ?? '';
      expect(JSON.parse(sseEvents(text)[0]!.data).method).toBe('notifications/tools/list_changed');
    } finally {
      stop.abort();
    }

    gate.open();
    const replay = sseEvents(
      (await send('GET', { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': seen[150]!.id! }))
        .text,
    );
    expect(replay[0]!.id).toBe(seen[151]!.id);
    expect(replay.length).toBe(401 - 151 + 2);
    expect(JSON.parse(replay.at(-1)!.data).id).toBe(7);
  });

  it('sends no priming event to a client of an older revision', async () => {
    await start();
    const session = await openSession('2025-06-18');
    const post = await callPollMe(session, '2025-06-18');
    const seen = sseEvents(post.text);
    expect(seen.every((e) => e.data !== '' && e.retry === undefined)).toBe(true);
    expect(JSON.parse(seen[0]!.data).method).toBe('notifications/progress');
  });

  it("lets mcpwire's own client resume a call whose stream the server closed", async () => {
    await start();
    const client = await McpClient.connect({ url: kit!.url }, { era: 'legacy' });
    try {
      const call = client.callTool('poll_me', {});
      await until(() => waiting, { what: 'the handler to wait after closing its stream' });
      gate.open();
      const result = await within(call, { what: 'the resumed call to settle' });
      expect(result.content).toEqual([{ type: 'text', text: 'resumed result' }]);
    } finally {
      await client.close();
    }
  });
});

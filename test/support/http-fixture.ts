/**
 * A scriptable MCP server over real HTTP on 127.0.0.1 (port 0), in the test process: each test
 * says how to answer, and every request is recorded (method, path, headers, parsed body). It
 * knows the legacy Streamable HTTP session dance and the modern envelope just well enough to be
 * driven by the client; everything else is the test's `route`.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { expect } from 'vitest';
import { PROCESS_HTTP_ROUTES } from '../../src/client/http-routes.js';
import { until } from './wait.js';

/** The shared bounded poll, kept importable from here where tests already import it. */
export { until } from './wait.js';

/** One recorded HTTP request. */
export interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed JSON body, when it was JSON. */
  json: Record<string, unknown> | undefined;
  /** The JSON-RPC method of the body, if any. */
  rpc: string | undefined;
}

/** What a route does with one request: answer it (return true) or leave it to the default. */
export type Route = (seen: Seen, res: ServerResponse, req: IncomingMessage) => boolean | Promise<boolean>;

export interface HttpFixture {
  url: string;
  port: number;
  requests: Seen[];
  /** Requests of one JSON-RPC method (or HTTP method for GET/DELETE). */
  seen(rpcOrHttpMethod: string): Seen[];
  /** Sockets the server still has open. */
  openSockets(): number;
  /** Waits (bounded) until the client has closed every socket; returns how many are left. */
  socketsDrained(timeoutMs?: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * Starts a fixture. `route` is asked first for every request; unanswered requests get the
 * defaults of `legacyDefaults` (or 404 when none).
 */
export async function startHttpFixture(route: Route, fallback: Route = () => false): Promise<HttpFixture> {
  const requests: Seen[] = [];
  const sockets = new Set<Socket>();
  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let json: Record<string, unknown> | undefined;
    try {
      json = body ? (JSON.parse(body) as Record<string, unknown>) : undefined;
    } catch {
      json = undefined;
    }
    const seen: Seen = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      body,
      json,
      rpc: typeof json?.method === 'string' ? json.method : undefined,
    };
    requests.push(seen);
    try {
      if (await route(seen, res, req)) return;
      if (await fallback(seen, res, req)) return;
      res.writeHead(404).end('no route');
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    }
  };
  // A request aborted while its body is read rejects `answer`: its socket goes, no rejection is left unhandled.
  const server = createServer((req, res) => void answer(req, res).catch(() => res.destroy()));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    requests,
    seen: (name) => requests.filter((r) => r.rpc === name || (r.rpc === undefined && r.method === name)),
    openSockets: () => sockets.size,
    async socketsDrained(timeoutMs = 5_000) {
      await until(() => sockets.size === 0, timeoutMs).catch(() => undefined);
      return sockets.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Answers with one JSON body. */
export function json(res: ServerResponse, value: unknown, status = 200, headers: Record<string, string> = {}): true {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
  return true;
}

/** Refuses with 401 and the `WWW-Authenticate` challenge `challenge` (no body). */
export function unauthorized(res: ServerResponse, challenge: string): true {
  res.writeHead(401, { 'www-authenticate': challenge }).end();
  return true;
}

/** Opens an SSE response; write events with {@link sse}. */
export function openSse(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
  res.flushHeaders();
}

/** The fields of one SSE event besides `data`. */
export interface SseFields {
  id?: string;
  event?: string;
  retry?: number;
}

/** One SSE event as text (`data` JSON-encoded unless a string). */
export function sseText(data: unknown, fields: SseFields = {}): string {
  let text = '';
  if (fields.id !== undefined) text += `id: ${fields.id}\n`;
  if (fields.event !== undefined) text += `event: ${fields.event}\n`;
  if (fields.retry !== undefined) text += `retry: ${fields.retry}\n`;
  return `${text}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** Writes one SSE event (`data` JSON-encoded unless a string). */
export function sse(res: ServerResponse, data: unknown, fields: SseFields = {}): void {
  res.write(sseText(data, fields));
}

/**
 * Writes `text`, then drops the connection as soon as those bytes have left for the client: the
 * client is sure to read them and then sees the connection end mid-response (no timer guessing
 * how long the bytes take).
 */
export function writeThenDrop(res: ServerResponse, text: string): void {
  res.write(text, () => res.socket?.destroy());
}

export function result(seen: Seen, value: Record<string, unknown>): Record<string, unknown> {
  return { jsonrpc: '2.0', id: seen.json?.id, result: value };
}

export function rpcError(seen: Seen, code: number, message: string, data?: unknown): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id: seen.json?.id ?? null,
    error: { code, message, ...(data === undefined ? {} : { data }) },
  };
}

/** Options of {@link legacyServer}. */
export interface LegacyServerOptions {
  /** The revision `initialize` answers (default 2025-11-25). */
  version?: string;
  /** Session ids to hand out, in order (default `s1`, `s2`, …); `null` = stateless. */
  sessions?: boolean;
  /** How GET is answered: 405 (default), or an SSE stream the test writes to via `getStreams`. */
  get?: 'none' | 'sse';
  /** The tools `tools/list` returns. */
  tools?: Array<Record<string, unknown>>;
}

/**
 * A legacy Streamable HTTP server: `initialize` (with a session id), `notifications/initialized`,
 * `tools/list`, `tools/call echo`, `ping`, 202 for notifications and responses, DELETE, and
 * optional GET streams (collected in `getStreams`). Requests for a session that is not live get
 * 404, like the spec says. Use it as the fallback of {@link startHttpFixture}.
 */
export function legacyServer(
  options: LegacyServerOptions = {},
): Route & { live: Set<string>; getStreams: ServerResponse[]; expire(): void } {
  const live = new Set<string>();
  const getStreams: ServerResponse[] = [];
  let next = 1;
  const tools = options.tools ?? [
    { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
  ];
  const route = ((seen: Seen, res: ServerResponse) => {
    const session = seen.headers['mcp-session-id'] as string | undefined;
    if (seen.method === 'DELETE') {
      if (session) live.delete(session);
      res.writeHead(200).end();
      return true;
    }
    if (options.sessions !== false && seen.rpc !== 'initialize' && (session === undefined || !live.has(session))) {
      res.writeHead(session === undefined ? 400 : 404).end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32000, message: session === undefined ? 'Bad Request: no session' : 'Session not found' },
        }),
      );
      return true;
    }
    if (seen.method === 'GET') {
      if (options.get !== 'sse') {
        res.writeHead(405).end();
        return true;
      }
      openSse(res);
      getStreams.push(res);
      return true;
    }
    const message = seen.json ?? {};
    if (!('id' in message) || !('method' in message)) {
      res.writeHead(202).end();
      return true;
    }
    switch (seen.rpc) {
      case 'initialize': {
        const headers: Record<string, string> = {};
        if (options.sessions !== false) {
          const id = `s${next++}`;
          live.add(id);
          headers['mcp-session-id'] = id;
        }
        return json(
          res,
          result(seen, {
            protocolVersion: options.version ?? '2025-11-25',
            capabilities: { tools: { listChanged: true } },
            serverInfo: { name: 'scripted-http', version: '1.0.0' },
          }),
          200,
          headers,
        );
      }
      case 'tools/list':
        return json(res, result(seen, { tools }));
      case 'tools/call': {
        const params = message.params as { name?: string; arguments?: { text?: string } };
        return json(
          res,
          result(seen, { content: [{ type: 'text', text: `${params.name}:${params.arguments?.text ?? ''}` }] }),
        );
      }
      case 'ping':
        return json(res, result(seen, {}));
      default:
        return json(res, rpcError(seen, -32601, `Method not found: ${seen.rpc}`));
    }
  }) as unknown as Route & { live: Set<string>; getStreams: ServerResponse[]; expire(): void };
  route.live = live;
  route.getStreams = getStreams;
  route.expire = () => live.clear();
  return route;
}

/** How {@link httpSseServer} answers one POSTed request, on the event stream. */
export type SseAnswer = (seen: Seen, stream: ServerResponse) => void;

/** Options of {@link httpSseServer}. */
export interface HttpSseServerOptions {
  /** The tools `tools/list` answers with (when given and `answers` has no `tools/list`). */
  tools?: Array<Record<string, unknown>>;
  /** The capabilities `initialize` answers (default `{ tools: {} }`). */
  capabilities?: Record<string, unknown>;
  /** Answers by JSON-RPC method, over the defaults. */
  answers?: Record<string, SseAnswer>;
}

/**
 * A 2024-11-05 HTTP+SSE server: a GET opens the event stream (collected in `streams`) with its
 * `endpoint` event (`/messages`); every POST is accepted (202) and answered on the first stream:
 * `initialize` (2024-11-05, server `old` 0.1), `ping`, `tools/list` with `tools`, or by `answers`.
 * Use it as the route (or fallback) of {@link startHttpFixture}.
 */
export function httpSseServer(options: HttpSseServerOptions = {}): Route & { streams: ServerResponse[] } {
  const streams: ServerResponse[] = [];
  const answers: Record<string, SseAnswer> = {
    initialize: (seen, stream) =>
      sse(
        stream,
        result(seen, {
          protocolVersion: '2024-11-05',
          capabilities: options.capabilities ?? { tools: {} },
          serverInfo: { name: 'old', version: '0.1' },
        }),
        { event: 'message' },
      ),
    ping: (seen, stream) => sse(stream, result(seen, {}), { event: 'message' }),
    ...(options.tools
      ? { 'tools/list': (seen, stream) => sse(stream, result(seen, { tools: options.tools! }), { event: 'message' }) }
      : {}),
    ...options.answers,
  };
  const route = ((seen: Seen, res: ServerResponse) => {
    if (seen.method === 'GET') {
      openSse(res);
      sse(res, '/messages', { event: 'endpoint' });
      streams.push(res);
      return true;
    }
    res.writeHead(202).end('Accepted');
    if (seen.rpc !== undefined) answers[seen.rpc]?.(seen, streams[0]!);
    return true;
  }) as unknown as Route & { streams: ServerResponse[] };
  route.streams = streams;
  return route;
}

/**
 * The shared end of an HTTP test: closes the client, asserts the client left no socket open on
 * the fixture, closes the fixture, forgets cached route verdicts. Returns `[undefined, undefined]`
 * so `[client, fixture] = await cleanUp(client, fixture)` resets both.
 */
export async function cleanUp(
  client: { close(): Promise<void> } | undefined,
  fixture: HttpFixture | undefined,
): Promise<[undefined, undefined]> {
  await client?.close();
  if (fixture) expect(await fixture.socketsDrained()).toBe(0);
  await fixture?.close();
  PROCESS_HTTP_ROUTES.clear();
  return [undefined, undefined];
}

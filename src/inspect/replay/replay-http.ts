/**
 * A recorded session served over Streamable HTTP (`mcpwire replay --http HOST:PORT`): one endpoint,
 * `/mcp`, any path accepted. Every POST without a session id goes to the replay not yet bound to a
 * session; the POST whose `initialize` it answers gives it an `Mcp-Session-Id` (legacy recordings),
 * and the next client starts the recording afresh. A modern (2026) recording has no session: its
 * POSTs all share one replay. Answers come as SSE events on the POST's response (so what the
 * server sent while a request ran comes first); GET opens a session's stream for what belongs to
 * no request; DELETE ends a session.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { McpError } from '../../protocol/errors.js';
import type { JsonRpcId } from '../../protocol/jsonrpc.js';
import { NodeSink } from '../../transport/http-server/node-exchange.js';
import type { ResponseSink } from '../../transport/http-server/http-exchange.js';
import { HttpServerTransport, PostRoute } from '../../transport/http-server/post-pipe.js';
import { sseMessage } from '../../transport/http-server/sse-writer.js';
import { ReplayPlayer, type ReplayOptions, type ReplayStats } from './replay-player.js';
import { ReplayPostChannel } from './replay-post-channel.js';
import type { ReplayScript } from './replay-script.js';
import { ReplaySession } from './replay-session.js';

/** Options of {@link startReplayHttp}. */
export interface ReplayHttpOptions extends ReplayOptions {
  script: ReplayScript;
  /** Default 127.0.0.1, port 0 (any free port). */
  host?: string;
  port?: number;
}

/** A running HTTP replay. */
export interface ReplayHttp {
  /** The endpoint clients use (`http://HOST:PORT/mcp`). */
  readonly url: string;
  /** What each replayed session did, in the order they started. */
  stats(): ReplayStats[];
  /** Stops listening and ends every session and connection. Idempotent. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

interface Entry {
  id: string;
  transport: HttpServerTransport<undefined, ReplayPostChannel>;
  /** The session's GET streams: what belongs to no request goes there (dropped when none is open). */
  streams: Set<ResponseSink>;
  session: ReplaySession;
}

/** Starts serving `options.script` and resolves once it listens. */
export async function startReplayHttp(options: ReplayHttpOptions): Promise<ReplayHttp> {
  const { script, host = '127.0.0.1', port = 0, ...playerOptions } = options;
  const sessions = new Map<string, Entry>();
  const all: Entry[] = [];
  let fresh: Entry | undefined;
  const open = (): Entry => {
    const streams = new Set<ResponseSink>();
    const transport = new HttpServerTransport<undefined, ReplayPostChannel>((message) => {
      const event = sseMessage(JSON.stringify(message));
      for (const stream of streams) stream.write(event);
    });
    const session = new ReplaySession(transport, new ReplayPlayer(script, playerOptions));
    // A request ended (answered, or cancelled): its POST is told, and ends after its last one.
    session.connection.onInboundEnd((id) => transport.ended(id, session.connection.isClosed));
    void transport.closed.then(() => {
      for (const stream of streams) stream.end();
      streams.clear();
    });
    const entry = { id: randomUUID(), transport, streams, session };
    all.push(entry);
    return entry;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const sessionId = header(req, 'mcp-session-id');
    const known = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (sessionId !== undefined && !known) return plain(res, 404, 'Not Found: no such replay session');
    if (req.method === 'GET') {
      if (!known) return plain(res, 405, 'Method Not Allowed: a GET stream needs a session');
      const stream = new NodeSink(res);
      stream.open(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      known.streams.add(stream);
      stream.onClose(() => known.streams.delete(stream));
      return;
    }
    if (req.method === 'DELETE') {
      if (!known) return plain(res, 405, 'Method Not Allowed: no session to end');
      sessions.delete(known.id);
      await known.session.close();
      return plain(res, 200, '');
    }
    if (req.method !== 'POST') return plain(res, 405, 'Method Not Allowed');
    const text = await readBody(req);
    let body: unknown;
    try {
      body = text === undefined ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (body === undefined || typeof body !== 'object' || body === null)
      return rpcError(res, 400, -32700, 'Parse error: the body is not a JSON-RPC message');
    const items = Array.isArray(body) ? (body as unknown[]) : [body];
    const requests = items.filter(
      (item): item is { id: JsonRpcId; method: string } =>
        typeof item === 'object' &&
        item !== null &&
        typeof (item as { method?: unknown }).method === 'string' &&
        (item as { id?: unknown }).id !== undefined,
    );
    const entry = known ?? (fresh ??= open());
    if (requests.length === 0) {
      res.writeHead(202).end();
      entry.transport.deliver(items, undefined);
      return;
    }
    const starts = !known && script.era === 'legacy' && requests.some((r) => r.method === 'initialize');
    if (starts) {
      sessions.set(entry.id, entry);
      fresh = undefined;
    }
    const sink = new NodeSink(res);
    const channel = new ReplayPostChannel(sink, starts ? { 'mcp-session-id': entry.id } : {});
    const ids = requests.map((r) => r.id);
    const route = new PostRoute(channel, ids, undefined);
    // The client closed the response before its answers: that cancels the requests still open.
    const stop = sink.onClose(() => {
      route.clientGone = true;
      for (const id of ids) entry.session.connection.cancelInbound(id, closedEarly);
    });
    entry.transport.deliver(items, route);
    const answers = await route.done;
    stop();
    channel.finish(answers);
  };

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${address.port}/mcp`,
    stats: () => all.map((entry) => entry.session.player.stats()),
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        await Promise.all(all.map((entry) => entry.session.close()));
        for (const socket of sockets) socket.destroy();
        await closed;
      })()),
  };
}

const closedEarly = new McpError('CANCELLED', 'the client closed the response before its answer');

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

/** The body as text, or undefined past 4 MiB or when the client broke off. */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.once('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.once('error', () => resolve(undefined));
  });
}

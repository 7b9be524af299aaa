/**
 * The HTTP recording proxy behind `mcpwire proxy --url <target>`: a reverse proxy on loopback
 * for Streamable HTTP (both eras) and the 2024-11-05 HTTP+SSE transport. The client talks to the
 * proxy's URL as if it were the server's; every request goes to the target with the same
 * method, path, query, body and end-to-end headers, and every response comes back as it
 * arrives — SSE streams event by event, long-lived GET streams for as long as they last.
 *
 * Listener: `node:http`. Upstream: the transports' own HTTP client path, `exchange()` of
 * `transport/http/dispatch.ts` on one undici Agent per proxy: it yields the response body as the
 * chunks come off the socket (no web-stream layer, no decompression), pauses the socket while the
 * client is slow to read, takes an AbortSignal for the client-went-away case, and the Agent's
 * `destroy()` closes every pooled socket at once on `close()`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Agent } from 'undici';
import { errorMessage, McpError } from '../../protocol/errors.js';
import { redactUrl } from '../../util/redact.js';
import { TraceBuilder } from '../../observe/trace-builder.js';
import type { TraceRecord } from '../../observe/trace-record.js';
import { forwardExchange, type ExchangeContext } from './http-exchange.js';
import { guardedRecorder, type TextSink } from './record-sink.js';
import { ProxySessions } from './proxy-sessions.js';

/** Options of {@link startHttpProxy}. */
export interface HttpProxyOptions {
  /** The server's URL (`http:` or `https:`): the MCP endpoint, or the SSE URL of an HTTP+SSE server. */
  target: string | URL;
  /** Where to listen (default 127.0.0.1, port 0 = any free port). */
  listen?: { host?: string; port?: number };
  /**
   * Added to every upstream request, replacing a client header of the same name (e.g. `Authorization`). Redacted in
   * records.
   */
  headers?: Record<string, string>;
  /** Receives every record, synchronously, in the order things happened. A throw is caught and reported once. */
  onRecord: (record: TraceRecord) => void;
  /** Values replaced by `***` in records; the values of `headers` are added to them. */
  secrets?: Iterable<string>;
  /** The display name in records (default: the target's host). */
  server?: string;
  /** Where the one report of a failing `onRecord` goes (default `process.stderr`). */
  errorOutput?: TextSink;
}

/** A running proxy. */
export interface HttpProxy {
  /** The URL clients use: the listener's origin and the target's path and query. */
  readonly url: string;
  /**
   * Stops listening, ends every open exchange (long-lived streams included: their clients see
   * the connection end), and closes every upstream socket. Resolves when all are closed.
   * Idempotent.
   */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts a recording reverse proxy for `target` and resolves once it listens.
 *
 * What is changed on the way, and only this: hop-by-hop headers (`Connection` and those it
 * names, `Keep-Alive`, `Transfer-Encoding`, `TE`, `Trailer`, `Upgrade`, `Proxy-*`) and `Host`
 * are not forwarded; `Content-Length` is recomputed; an `Accept-Encoding` becomes `identity` (a
 * compressed body could not be recorded); `headers` are added; in an SSE stream, an `endpoint`
 * event whose absolute URL names the target's origin is pointed at the proxy (recorded as an
 * `endpoint` event with `rewritten: true`).
 *
 * Records: each request body as an `out` frame (or `invalid`) with its method, URL and request
 * headers; a request without a body (GET, DELETE) as an `http-request` event; each JSON
 * response body and each SSE `message` event as an `in` frame with the status and response
 * headers; a response without a body (202) as an `http-response` event with the status;
 * `upstream-error` (the target could not be reached: the client gets 502) and `aborted` (the
 * client went away: the upstream request is aborted too). HTTP facts carry only the headers a
 * trace keeps, credentials redacted. Each client session is its own trace session (see
 * {@link ProxySessions}: by `Mcp-Session-Id`, else by connection); `listen` and `close` are the
 * proxy's own, in a session holding only them.
 *
 * Rejects with `INVALID_ARGUMENT` for a target that is not an http(s) URL, and with `TRANSPORT`
 * when the address cannot be listened on (in use, not local).
 */
export async function startHttpProxy(options: HttpProxyOptions): Promise<HttpProxy> {
  const target = parseTarget(options.target);
  const host = options.listen?.host ?? '127.0.0.1';
  const port = options.listen?.port ?? 0;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  const secrets = [...(options.secrets ?? []), ...Object.values(headers)].filter((s) => s.length >= 4);
  const server = options.server ?? target.host;
  // The proxy's own records (listen, close); each client session gets a builder of its own.
  const builder = new TraceBuilder({ server, secrets });
  const record = guardedRecorder(options.onRecord, options.errorOutput ?? process.stderr, 'mcpwire proxy');
  // No header or body timeouts: a tool call may take minutes and a GET stream lasts for hours;
  // the client owns its timeouts, and its going away aborts the upstream request.
  const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0 });
  const life = new AbortController();
  const sockets = new Set<Socket>();
  const ctx: ExchangeContext = {
    target,
    proxyOrigin: '',
    headers,
    secrets,
    sessions: new ProxySessions(() => new TraceBuilder({ server, secrets })),
    builder,
    record,
    dispatcher,
    life: life.signal,
  };

  const listener = createServer((req, res) => {
    forwardExchange(ctx, req, res).catch(() => {
      // forwardExchange does not reject; this is the last fence for a bug, not a path.
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  listener.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  try {
    await listen(listener, host, port);
  } catch (error) {
    await dispatcher.destroy();
    throw new McpError('TRANSPORT', `the proxy could not listen on ${host}:${port}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  const address = listener.address() as AddressInfo;
  ctx.proxyOrigin = `http://${address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
  const url = `${ctx.proxyOrigin}${target.pathname}${target.search}`;
  record(builder.event('listen', { url, target: redactUrl(target) }, 'out'));

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      life.abort();
      const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
      listener.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await closed;
      await dispatcher.destroy();
      record(builder.event('close', {}, 'out'));
    })();
    return closing;
  };
  return { url, close, [Symbol.asyncDispose]: close };
}

function parseTarget(target: string | URL): URL {
  let url: URL;
  try {
    url = new URL(String(target));
  } catch (error) {
    throw new McpError(
      'INVALID_ARGUMENT',
      `the proxy target is not a URL: ${JSON.stringify(String(target).slice(0, 200))}`,
      { cause: error },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new McpError('INVALID_ARGUMENT', `the proxy target must be an http: or https: URL, not ${url.protocol}`);
  }
  return url;
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

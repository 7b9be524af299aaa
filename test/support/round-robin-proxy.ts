/**
 * A load balancer written in the test: an HTTP reverse proxy on 127.0.0.1:0 in front of N
 * backends, one backend per request in turn (round robin, no stickiness), unbuffered both ways
 * (request and response bodies are streamed chunk by chunk, so SSE passes through as it is
 * written). It keeps the `Host` header, like a proxy configured to, and counts which backend
 * served what. A backend it cannot reach gives 502 at once; one that dies mid-response cuts the
 * client's connection (as a real proxy does once the status line is sent). `dropNext()` cuts
 * a client's connection mid-stream; `kill(i)` kills a backend (its `kill` hook) and takes it out
 * of the rotation, like a health check would.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/** A backend: its base URL (`http://127.0.0.1:PORT`), and how to kill it (e.g. a node's SIGKILL). */
export interface ProxyTarget {
  url: string;
  kill?: () => void | Promise<void>;
}

/** One backend as the proxy keeps it. */
export interface ProxyBackend {
  readonly url: string;
  /** Requests routed to it. */
  served: number;
  /** Taken out of the rotation by {@link RoundRobinProxy.kill}. */
  down: boolean;
}

/** One request the proxy routed. */
export interface ProxyRecord {
  backend: number;
  method: string;
  path: string;
  /** The request's headers as the client sent them (`mcp-session-id`, `last-event-id`, …). */
  headers: IncomingHttpHeaders;
  /** The backend's status, or 502 when it could not be reached; undefined while the head is awaited. */
  status?: number;
  /** How the exchange ended: `done`, `dropped` (by `dropNext`), `backend-lost` (mid-response), `client-gone`. */
  end?: 'done' | 'dropped' | 'backend-lost' | 'client-gone';
}

/**
 * When a drop cuts a response: after the chunk for which `when(body, record)` first holds, `body`
 * being what that response passed on while a drop was pending.
 */
export interface DropOptions {
  /** Default: the first chunk of a response body. */
  when?: (bodySoFar: string, record: ProxyRecord) => boolean;
}

export interface RoundRobinProxy {
  /** `http://127.0.0.1:PORT` (append the endpoint's path). */
  readonly url: string;
  readonly port: number;
  readonly backends: readonly ProxyBackend[];
  /** The requests routed, in arrival order (the last `logLimit` of them). */
  readonly log: readonly ProxyRecord[];
  /** Routes the next request to backend `i` (the rotation then goes on from `i + 1`). */
  sendNextTo(i: number): void;
  /**
   * Cuts the client connection of the next response (one in flight or one to come) whose body
   * meets `when`, after passing that chunk on; the request to the backend is aborted too (the
   * backend sees its client gone). Resolves with the record of the response it cut.
   */
  dropNext(options?: DropOptions): Promise<ProxyRecord>;
  /**
   * Kills backend `i` through its `kill` hook (when it has one), takes it out of the rotation
   * and cuts the client connections of the responses it was streaming.
   */
  kill(i: number): Promise<void>;
  /** Stops listening, cuts every connection, frees the agent. Idempotent. */
  close(): Promise<void>;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) a proxy does not forward. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
]);

function forwarded(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

interface PendingDrop {
  when: (bodySoFar: string, record: ProxyRecord) => boolean;
  resolve: (record: ProxyRecord) => void;
}

/** Options of the proxy. */
export interface ProxyOptions {
  /** Most records kept in `log` (default 10,000; the oldest go first). The `served` counts are always exact. */
  logLimit?: number;
}

/** Starts the proxy in front of `targets`; the caller closes it. */
export async function listenRoundRobinProxy(
  targets: ReadonlyArray<string | ProxyTarget>,
  options: ProxyOptions = {},
): Promise<RoundRobinProxy> {
  const logLimit = options.logLimit ?? 10_000;
  if (targets.length === 0) throw new Error('a round-robin proxy needs at least one backend');
  const given = targets.map((t) => (typeof t === 'string' ? { url: t } : t));
  const backends: ProxyBackend[] = given.map((t) => ({ url: t.url.replace(/\/$/, ''), served: 0, down: false }));
  const log: ProxyRecord[] = [];
  // Connections to backends are reused (as a busy balancer's are), but an idle one is dropped
  // after 1 s, well before a Node backend's 5 s keep-alive timeout: a request is never sent on a
  // connection the backend is closing at that moment (which would give a spurious 502).
  const agent = new http.Agent({ keepAlive: true, timeout: 1_000 });
  /** Responses in flight by backend: cutting them is how a dead backend shows. */
  const streaming = backends.map(() => new Set<() => void>());
  const drops: PendingDrop[] = [];
  let next = 0;

  const pick = (): number | undefined => {
    for (let k = 0; k < backends.length; k++) {
      const i = (next + k) % backends.length;
      if (!backends[i]!.down) {
        next = i + 1;
        return i;
      }
    }
    return undefined;
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const index = pick();
    if (index === undefined) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('no backend is up');
      return;
    }
    const backend = backends[index]!;
    backend.served++;
    const record: ProxyRecord = {
      backend: index,
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
    };
    log.push(record);
    if (log.length > logLimit) log.splice(0, log.length - logLimit);
    const target = new URL(record.path, backend.url + '/');
    const upstream = http.request(target, {
      method: record.method,
      headers: forwarded(req.headers),
      agent,
    });
    upstream.setNoDelay(true);
    let body = '';
    const cut = (why: NonNullable<ProxyRecord['end']>): void => {
      record.end ??= why;
      streaming[index]!.delete(onKill);
      upstream.destroy();
      res.destroy();
      req.destroy();
    };
    const onKill = (): void => cut('backend-lost');
    streaming[index]!.add(onKill);
    req.pipe(upstream);
    // A client that goes away mid-request or mid-response: its errors end the exchange, never the test process.
    req.on('error', () => cut('client-gone'));
    res.on('error', () => cut('client-gone'));
    res.once('close', () => {
      if (!res.writableFinished) cut('client-gone');
    });
    upstream.on('error', () => {
      if (record.end) return;
      if (!res.headersSent) {
        record.status = 502;
        record.end = 'done';
        streaming[index]!.delete(onKill);
        req.resume();
        res.writeHead(502, { 'content-type': 'text/plain', connection: 'close' }).end(`backend ${index} unreachable`);
      } else cut('backend-lost');
    });
    upstream.once('response', (answer) => {
      record.status = answer.statusCode;
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwarded(answer.headers));
      res.flushHeaders();
      let dropping = false;
      answer.on('data', (chunk: Buffer) => {
        if (dropping) return;
        res.write(chunk);
        if (drops.length === 0) return;
        body += chunk.toString('utf8');
        const at = drops.findIndex((d) => d.when(body, record));
        if (at < 0) return;
        const [drop] = drops.splice(at, 1);
        // The chunk that met the condition reaches the client, nothing after it; then the connection goes.
        dropping = true;
        answer.pause();
        res.write('', () => {
          cut('dropped');
          drop!.resolve(record);
        });
      });
      answer.once('aborted', () => cut('backend-lost'));
      answer.on('error', () => cut('backend-lost'));
      answer.once('end', () => {
        if (record.end || dropping) return;
        record.end = 'done';
        streaming[index]!.delete(onKill);
        res.end();
      });
    });
  };

  const server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    backends,
    log,
    sendNextTo(i) {
      if (!backends[i]) throw new Error(`no backend ${i} (${backends.length} backends)`);
      next = i;
    },
    dropNext(options = {}) {
      return new Promise((resolve) => drops.push({ when: options.when ?? (() => true), resolve }));
    },
    async kill(i) {
      const backend = backends[i];
      if (!backend) throw new Error(`no backend ${i} (${backends.length} backends)`);
      backend.down = true;
      await given[i]!.kill?.();
      for (const cutOne of [...streaming[i]!]) cutOne();
    },
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      })),
  };
}

/** {@link listenRoundRobinProxy}, closed when the test finishes (call it inside a test). */
export async function startRoundRobinProxy(
  targets: ReadonlyArray<string | ProxyTarget>,
  options?: ProxyOptions,
): Promise<RoundRobinProxy> {
  const proxy = await listenRoundRobinProxy(targets, options);
  onTestFinished(() => proxy.close());
  return proxy;
}

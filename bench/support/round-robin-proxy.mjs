/**
 * A load balancer for the tests and the scaled bench (plain JavaScript, so a bench can run it;
 * `round-robin-proxy.d.mts` has its types, `test/support/round-robin-proxy.ts` adds
 * `startRoundRobinProxy`): an HTTP reverse proxy on 127.0.0.1:0 in front of N
 * backends, one backend per request in turn (round robin, no stickiness), unbuffered both ways
 * (request and response bodies are streamed chunk by chunk, so SSE passes through as it is
 * written). It keeps the `Host` header, like a proxy configured to, and counts which backend
 * served what. A backend it cannot reach gives 502 at once; one that dies mid-response cuts the
 * client's connection (as a real proxy does once the status line is sent). `dropNext()` cuts
 * a client's connection mid-stream; `kill(i)` kills a backend (its `kill` hook) and takes it out
 * of the rotation, like a health check would.
 */
import http from 'node:http';

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
function forwarded(headers) {
  const out = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}
/** Starts the proxy in front of `targets`; the caller closes it. */
export async function listenRoundRobinProxy(targets, options = {}) {
  const logLimit = options.logLimit ?? 10_000;
  if (targets.length === 0) throw new Error('a round-robin proxy needs at least one backend');
  const given = targets.map((t) => (typeof t === 'string' ? { url: t } : t));
  const backends = given.map((t) => ({ url: t.url.replace(/\/$/, ''), served: 0, down: false }));
  const log = [];
  // Connections to backends are reused (as a busy balancer's are), but an idle one is dropped
  // after 1 s, well before a Node backend's 5 s keep-alive timeout: a request is never sent on a
  // connection the backend is closing at that moment (which would give a spurious 502).
  const agent = new http.Agent({ keepAlive: true, timeout: 1_000 });
  /** Responses in flight by backend: cutting them is how a dead backend shows. */
  const streaming = backends.map(() => new Set());
  const drops = [];
  let next = 0;
  const pick = () => {
    for (let k = 0; k < backends.length; k++) {
      const i = (next + k) % backends.length;
      if (!backends[i].down) {
        next = i + 1;
        return i;
      }
    }
    return undefined;
  };
  const handle = (req, res) => {
    const index = pick();
    if (index === undefined) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('no backend is up');
      return;
    }
    const backend = backends[index];
    backend.served++;
    const record = {
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
    const cut = (why) => {
      record.end ??= why;
      streaming[index].delete(onKill);
      upstream.destroy();
      res.destroy();
      req.destroy();
    };
    const onKill = () => cut('backend-lost');
    streaming[index].add(onKill);
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
        streaming[index].delete(onKill);
        req.resume();
        res.writeHead(502, { 'content-type': 'text/plain', connection: 'close' }).end(`backend ${index} unreachable`);
      } else cut('backend-lost');
    });
    upstream.once('response', (answer) => {
      record.status = answer.statusCode;
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwarded(answer.headers));
      res.flushHeaders();
      let dropping = false;
      answer.on('data', (chunk) => {
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
          drop.resolve(record);
        });
      });
      answer.once('aborted', () => cut('backend-lost'));
      answer.on('error', () => cut('backend-lost'));
      answer.once('end', () => {
        if (record.end || dropping) return;
        record.end = 'done';
        streaming[index].delete(onKill);
        res.end();
      });
    });
  };
  const server = http.createServer(handle);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  let closed;
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
      await given[i].kill?.();
      for (const cutOne of [...streaming[i]]) cutOne();
    },
    close: () =>
      (closed ??= new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      })),
  };
}

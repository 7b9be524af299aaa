#!/usr/bin/env node
// A tiny round-robin HTTP load balancer for trying N nodes of an MCP server on one machine:
//   node examples/load-balancer.mjs LISTEN_HOST:PORT BACKEND_HOST:PORT [BACKEND_HOST:PORT ...]
// Each request goes to the next backend in turn (no stickiness), streamed both ways unbuffered
// (SSE passes through as it is written); a backend that cannot be reached gives 502. It keeps the
// Host header, so the backends see the address clients use. Logs `{"msg":"listening","url":…}` on
// stderr once it accepts connections; SIGTERM or SIGINT stops it. For demos and tests, not production.
import http from 'node:http';

const [listen, ...backends] = process.argv.slice(2);
const address = (value) => {
  const match = /^(.+):(\d{1,5})$/.exec(value ?? '');
  if (!match) {
    process.stderr.write(
      `load-balancer: expected HOST:PORT, got ${JSON.stringify(value)}\n` +
        'usage: node examples/load-balancer.mjs LISTEN_HOST:PORT BACKEND_HOST:PORT [BACKEND_HOST:PORT ...]\n',
    );
    process.exit(2);
  }
  return { host: match[1], port: Number(match[2]) };
};
const front = address(listen);
const targets = (backends.length > 0 ? backends : [undefined]).map(address);
const agent = new http.Agent({ keepAlive: true, timeout: 1_000 });
let next = 0;

const server = http.createServer((req, res) => {
  const target = targets[next++ % targets.length];
  const upstream = http.request({ ...target, agent, method: req.method, path: req.url, headers: req.headers });
  upstream.once('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    res.flushHeaders();
    answer.pipe(res);
    answer.once('aborted', () => res.destroy());
  });
  upstream.once('error', () => {
    if (res.headersSent) res.destroy();
    else res.writeHead(502, { 'content-type': 'text/plain' }).end(`backend ${target.host}:${target.port} unreachable`);
  });
  res.once('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
});
server.listen(front.port, front.host, () => {
  const url = `http://${front.host}:${server.address().port}`;
  process.stderr.write(`${JSON.stringify({ msg: 'listening', url, backends: targets.length })}\n`);
});
const stop = () => {
  server.close();
  server.closeAllConnections();
  agent.destroy();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

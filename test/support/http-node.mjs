// A plain HTTP backend for tests of the round-robin proxy (test/support/round-robin-proxy.ts),
// run as a node of test/support/nodes.ts: listens on 127.0.0.1:0 and prints {"port":N}.
//   GET  /who          {"name":$NODE_NAME,"pid":…}
//   POST /echo         streams the request body back, chunk by chunk, as it arrives
//   GET  /sse          an SSE stream: one `data: <n>` event at once, then one per POST /release
//   POST /release      the next event on every open /sse stream (?end=1: the last, then the end)
//   GET  /stats        {"open": streams open now, "closedEarly": streams the client left}
import http from 'node:http';

const name = process.env.NODE_NAME ?? 'node';
const streams = new Set();
let closedEarly = 0;

const server = http.createServer((req, res) => {
  // A client cut off by the proxy mid-request: not this process's failure.
  req.on('error', () => undefined);
  res.on('error', () => undefined);
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/who') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name, pid: process.pid }));
  } else if (url.pathname === '/echo' && req.method === 'POST') {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.flushHeaders();
    req.on('data', (chunk) => res.write(chunk));
    req.on('end', () => res.end());
  } else if (url.pathname === '/sse') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const stream = { res, n: 0 };
    const send = () => res.write(`data: ${++stream.n}\n\n`);
    stream.send = send;
    streams.add(stream);
    send();
    res.once('close', () => {
      if (streams.delete(stream) && !res.writableEnded) closedEarly++;
    });
  } else if (url.pathname === '/release' && req.method === 'POST') {
    const last = url.searchParams.get('end') === '1';
    for (const stream of [...streams]) {
      stream.send();
      if (last) {
        streams.delete(stream);
        stream.res.end();
      }
    }
    res.writeHead(204).end();
  } else if (url.pathname === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ open: streams.size, closedEarly }));
  } else {
    res.writeHead(404).end();
  }
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
process.once('SIGTERM', () => {
  for (const { res } of streams) res.destroy();
  server.close(() => process.exit(0));
  server.closeAllConnections();
});

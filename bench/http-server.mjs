#!/usr/bin/env node
// The benchmark's HTTP server: legacy Streamable HTTP, stateless (no session), around
// ./responses.mjs, on 127.0.0.1 with an OS-chosen port printed as {"port":N} on stdout.
//   node bench/http-server.mjs [--tools N] [--sse]
// POST /mcp: a request gets application/json, or with --sse a one-event text/event-stream;
// a notification gets 202. GET and DELETE get 405. Exits on SIGTERM or when stdin ends.
import { createServer } from 'node:http';
import { handle } from './responses.mjs';

const sseMode = process.argv.includes('--sse');
const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const line = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
    const out = handle(line);
    if (out === '') {
      res.writeHead(202).end();
      return;
    }
    const body = out.slice(0, -1);
    if (sseMode) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(`event: message\ndata: ${body}\n\n`);
    } else {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
const stop = () => {
  server.closeAllConnections();
  server.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();

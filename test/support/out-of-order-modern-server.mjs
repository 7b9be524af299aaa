#!/usr/bin/env node
// A hand-written 2026-only stdio server (no SDK, no kit) that answers out of order: it answers
// `ping` at once with -32601 (2026-07-28 has no ping) and holds its answer to the FIRST
// `server/discover` until the next request arrives, the way a server with an asynchronous
// discover handler may answer the client's probe after the ping behind it. Later discovers are
// answered at once. `initialize` gets -32601 without data (a server that never knew the legacy
// era); `tools/list` an empty list; anything else -32601.
// Flags: --record <file>  appends the method of every message received, one per line, before it
//                         is handled (a request answered proves every earlier line is recorded).
// Exits 0 on stdin EOF.
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const argv = process.argv.slice(2);
const recordAt = argv.indexOf('--record');
const record = recordAt >= 0 ? argv[recordAt + 1] : undefined;

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const notFound = (id, method) => send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
const discoverResult = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
  serverInfo: { name: 'out-of-order-modern', version: '1.0.0' },
  ttlMs: 0,
  cacheScope: 'public',
};

let held; // the id of the first discover, answered when the next request comes
let discovers = 0;
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (record) appendFileSync(record, `${message.method ?? 'answer'}\n`);
  if (message.id === undefined || message.method === undefined) return;
  if (held !== undefined && message.method !== 'ping') {
    send({ id: held, result: discoverResult });
    held = undefined;
  }
  switch (message.method) {
    case 'server/discover':
      if (++discovers === 1) held = message.id;
      else send({ id: message.id, result: discoverResult });
      return;
    case 'tools/list':
      return send({ id: message.id, result: { resultType: 'complete', tools: [], ttlMs: 0 } });
    default:
      return notFound(message.id, message.method);
  }
});
lines.on('close', () => process.exit(0));

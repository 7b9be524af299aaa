#!/usr/bin/env node
/**
 * Runs @modelcontextprotocol/server-everything in one of its HTTP modes (`streamableHttp` or
 * `sse`) on 127.0.0.1 with an OS-chosen port, whatever port and host it asks for, and prints
 * `{"port":N}` on stdout once it listens. Test fixture only.
 *
 * usage: node everything-on-loopback.mjs streamableHttp|sse
 */
import net from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';

const mode = process.argv[2] ?? 'streamableHttp';
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function patchedListen(...args) {
  const callback = args.find((arg) => typeof arg === 'function');
  this.once('listening', () => {
    const address = this.address();
    if (address && typeof address === 'object') process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
  });
  return listen.call(this, 0, '127.0.0.1', callback);
};
// The server logs with console.log; keep stdout for the port line alone.
console.log = console.error;
process.env.PORT = '0';
const require = createRequire(import.meta.url);
const entry = require.resolve('@modelcontextprotocol/server-everything/package.json');
process.argv = [process.argv[0], path.join(path.dirname(entry), 'dist/index.js'), mode];
await import(path.join(path.dirname(entry), 'dist/index.js'));

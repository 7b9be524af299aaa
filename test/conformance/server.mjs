#!/usr/bin/env node
// The conformance server: the official suite's server scenarios run against it.
//   node test/conformance/server.mjs --port PORT     (serves http://127.0.0.1:PORT/mcp; PORT 0: any)
// The kit of conformance-kit.mjs through `createHttpHandler` on node:http.
// Prints `{"msg":"listening","url":…}` on stderr when ready.
import http from 'node:http';
import { createHttpHandler } from 'mcpwire/server';
import { server } from './conformance-kit.mjs';

const at = process.argv.indexOf('--port');
const port = at === -1 ? 0 : Number(process.argv[at + 1]);

const handler = createHttpHandler(server, { path: '/mcp' });
const listener = http.createServer(handler);
listener.listen(port, '127.0.0.1', () => {
  process.stderr.write(
    `${JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${listener.address().port}/mcp` })}\n`,
  );
});
const stop = async () => {
  await handler.close({ graceMs: 2000 });
  await server.close(); // cancels the tasks still running (their sleeps hold the event loop)
  listener.closeAllConnections();
  listener.close();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

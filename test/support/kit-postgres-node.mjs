// A kit server node on the PostgreSQL state (dist/), for tests that run several as processes
// (test/support/nodes.ts): listens on 127.0.0.1:0 with legacy sessions on, prints {"port":N}.
// Environment: DATABASE_URL, TABLE_PREFIX, NODE_ID, STATE_SECRET, LEASE_MS (the task and SSE
// stream leases). Tool `gate` (task support optional) runs until it is aborted; tool `poll_me`
// reports progress 1, closes its SSE stream (SSE polling) and then runs until it is aborted.
import http from 'node:http';
import { createHttpHandler, McpServer } from '../../dist/server/index.js';
import { postgresState } from '../../dist/server/postgres/index.js';

const state = postgresState({
  connectionString: process.env.DATABASE_URL,
  tablePrefix: process.env.TABLE_PREFIX,
  nodeId: process.env.NODE_ID,
  stateSecret: process.env.STATE_SECRET,
  logger: () => undefined,
});
const server = new McpServer({
  name: 'pg-node',
  version: '1',
  logger: () => undefined,
  state,
  tasks: { leaseMs: Number(process.env.LEASE_MS ?? 30_000) },
});
server.registerTool({
  name: 'gate',
  inputSchema: { type: 'object' },
  taskSupport: 'optional',
  handler: (_args, context) =>
    new Promise((resolve) => context.signal.addEventListener('abort', () => resolve({ content: [] }))),
});
server.registerTool({
  name: 'poll_me',
  inputSchema: { type: 'object' },
  handler: (_args, context) => {
    context.progress(1);
    context.closeStream();
    return new Promise((resolve) => context.signal.addEventListener('abort', () => resolve({ content: [] })));
  },
});
const handler = createHttpHandler(server, {
  path: '/mcp',
  sessions: true,
  streamLeaseMs: Number(process.env.LEASE_MS ?? 30_000),
});
const listener = http.createServer(handler);
listener.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: listener.address().port })));
process.once('SIGTERM', async () => {
  await handler.close({ graceMs: 1_000 });
  await server.close();
  await state.close();
  listener.closeAllConnections();
  listener.close(() => process.exit(0));
});

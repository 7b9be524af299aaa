// One node of a kit server on Redis state, from dist/ (the built mcpwire/server and
// mcpwire/server/redis subpaths), run by test/support/nodes.ts: listens on 127.0.0.1:0 at /mcp
// (legacy sessions on) and prints {"port":N}. Environment: REDIS_URL, MCP_NODE_ID,
// MCP_STATE_SECRET, KEY_PREFIX, LEASE_MS (the tasks' lease). Tools: `gate` (task-capable, runs
// until cancelled), `whoami` ({ node }). On SIGTERM it closes the handler, the listener, the
// server and the Redis state, and never calls process.exit: it ends only when nothing is left open.
import http from 'node:http';
import { createHttpHandler, McpServer } from '../../dist/server/index.js';
import { redisState } from '../../dist/server/redis/index.js';

const nodeId = process.env.MCP_NODE_ID;
const redis = await redisState({
  url: process.env.REDIS_URL,
  nodeId,
  stateSecret: process.env.MCP_STATE_SECRET,
  keyPrefix: process.env.KEY_PREFIX,
});
const server = new McpServer({
  name: 'redis-node',
  version: '1',
  logger: () => undefined,
  state: redis,
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
  name: 'whoami',
  inputSchema: { type: 'object' },
  handler: () => ({ structuredContent: { node: nodeId } }),
});
const handler = createHttpHandler(server, { path: '/mcp', sessions: true });
const listener = http.createServer(handler);
listener.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: listener.address().port })}\n`));
process.once('SIGTERM', async () => {
  await handler.close({ graceMs: 1_000 });
  listener.closeAllConnections();
  await new Promise((resolve) => listener.close(resolve));
  await server.close();
  await redis.close();
});

#!/usr/bin/env node
// One node of a scaled-out kit server (from dist/), for the scaled benchmark (scaled.mjs) and the
// test of 200 clients over the round-robin proxy: Streamable HTTP at /mcp on 127.0.0.1:0 with
// legacy sessions on, printing {"port":N} on stdout once listening. Logs nothing.
//
//   node bench/server/kit-node.mjs --state memory|postgres|redis
//
// Environment: DATABASE_URL (postgres), REDIS_URL (redis), STATE_PREFIX (table or key prefix),
// MCP_STATE_SECRET (the same on every node of a shared store), MCP_NODE_ID (optional).
// Tools:
//   echo {text}        answers text (the stateless headline call)
//   job {text}         answers text; task support optional (a 2026 client with the tasks extension gets a task)
//   progress {steps}   reports progress 1..steps (of steps), then answers steps
//   touch {uri}        tells the subscribers of uri it changed (`notifications/resources/updated`, across the nodes)
// Resources: the template bench://client/{id} (subscribe to one to hear its `touch`es).
// SIGTERM closes the handler, the server, the store and the listener, and exits.
import http from 'node:http';
import { createHttpHandler, McpServer } from '../../dist/server/index.js';

const argv = process.argv.slice(2);
const store = argv.includes('--state') ? argv[argv.indexOf('--state') + 1] : 'memory';
const env = process.env;
const TEXT = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

async function stateFor(kind) {
  if (kind === 'memory') return { state: undefined, close: async () => undefined };
  const common = { nodeId: env.MCP_NODE_ID, stateSecret: env.MCP_STATE_SECRET };
  if (kind === 'postgres') {
    const { postgresState } = await import('../../dist/server/postgres/index.js');
    const state = postgresState({
      ...common,
      connectionString: env.DATABASE_URL,
      ...(env.STATE_PREFIX ? { tablePrefix: env.STATE_PREFIX } : {}),
      logger: () => undefined,
    });
    return { state, close: () => state.close() };
  }
  if (kind === 'redis') {
    const { redisState } = await import('../../dist/server/redis/index.js');
    const state = await redisState({
      ...common,
      url: env.REDIS_URL,
      ...(env.STATE_PREFIX ? { keyPrefix: env.STATE_PREFIX } : {}),
    });
    return { state, close: () => state.close() };
  }
  throw new Error(`--state must be memory, postgres or redis, not ${JSON.stringify(kind)}`);
}

const { state, close } = await stateFor(store);
const server = new McpServer({
  name: 'scaled',
  version: '1.0.0',
  logger: () => undefined,
  ...(state ? { state } : {}),
});
server.registerTool({
  name: 'echo',
  inputSchema: TEXT,
  handler: ({ text }) => ({ content: [{ type: 'text', text }] }),
});
server.registerTool({
  name: 'job',
  inputSchema: TEXT,
  taskSupport: 'optional',
  handler: ({ text }) => ({ content: [{ type: 'text', text }] }),
});
server.registerTool({
  name: 'progress',
  inputSchema: { type: 'object', properties: { steps: { type: 'integer', minimum: 1 } }, required: ['steps'] },
  handler: ({ steps }, context) => {
    for (let step = 1; step <= steps; step++) context.progress(step, steps);
    return { content: [{ type: 'text', text: String(steps) }] };
  },
});
server.registerTool({
  name: 'touch',
  inputSchema: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] },
  handler: ({ uri }) => {
    server.notifyResourceUpdated(uri);
    return { content: [{ type: 'text', text: uri }] };
  },
});
server.registerResourceTemplate({
  uriTemplate: 'bench://client/{id}',
  name: 'client',
  read: (uri) => [{ uri, text: 'touched' }],
});

const handler = createHttpHandler(server, { path: '/mcp', sessions: true });
const listener = http.createServer(handler);
listener.keepAliveTimeout = 60_000;
listener.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: listener.address().port })}\n`));
process.once('SIGTERM', async () => {
  await handler.close({ graceMs: 1_000 });
  listener.closeAllConnections();
  await new Promise((resolve) => listener.close(resolve));
  await server.close();
  await close();
  process.exit(0);
});

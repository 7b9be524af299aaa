// One node of a kit server on a shared state, from dist/ (the built mcpwire/server and its
// mcpwire/server/postgres or mcpwire/server/redis subpath), run by test/support/nodes.ts: listens
// on 127.0.0.1:0 at /mcp with legacy sessions on and prints {"port":N}. Environment: STORE
// (postgres or redis), DATABASE_URL or REDIS_URL, STATE_PREFIX (tables' or keys' prefix),
// MCP_NODE_ID, MCP_STATE_SECRET, LEASE_MS (task and SSE stream leases), TASK_TTL_MS,
// REQUEST_STATE_TTL_MS, BEARER (set: every request needs `Authorization: Bearer <subject>`,
// the token naming its principal). Resources `note://a`, `note://b`. Tools:
// - `gate` (task support optional): reports progress 1, runs until aborted;
// - `aborts`: { node, aborts } (how many `gate` calls were aborted here);
// - `ask`: elicits a name, answers `hello NAME from NODE` (2026: multi-round-trip, requestState);
// - `register` { name }: registers a tool of that name here (a list_changed on every node);
// - `touch` { uri }: a resources/updated for `uri`;
// - `burst` { n }: reports progress 1…n at once, then answers (a stream longer than the log keeps);
// - `whoami`: { node }.
// On SIGTERM it closes the handler, the listener, the server and the state, and never calls
// process.exit: it ends only when nothing is left open.
import http from 'node:http';
import { createHttpHandler, McpServer } from '../../dist/server/index.js';

const env = process.env;
const nodeId = env.MCP_NODE_ID;
const shared = { nodeId, stateSecret: env.MCP_STATE_SECRET };
let state;
if (env.STORE === 'postgres') {
  const { postgresState } = await import('../../dist/server/postgres/index.js');
  state = postgresState({
    connectionString: env.DATABASE_URL,
    tablePrefix: env.STATE_PREFIX,
    maxConnections: 4,
    logger: () => undefined,
    ...shared,
  });
} else if (env.STORE === 'redis') {
  const { redisState } = await import('../../dist/server/redis/index.js');
  state = await redisState({ url: env.REDIS_URL, keyPrefix: env.STATE_PREFIX, ...shared });
} else throw new Error(`kit-node.mjs: STORE must be postgres or redis, got ${env.STORE}`);

const leaseMs = Number(env.LEASE_MS ?? 30_000);
const server = new McpServer({
  name: 'kit-node',
  version: '1',
  logger: () => undefined,
  state: withRequestStateTtl(state, env.REQUEST_STATE_TTL_MS),
  tasks: { leaseMs, ...(env.TASK_TTL_MS ? { ttlMs: Number(env.TASK_TTL_MS) } : {}) },
});
/** The state's seams and secret, plus `requestStateTtlMs` when given (the state itself otherwise). */
function withRequestStateTtl(given, ttl) {
  if (!ttl) return given;
  const picked = { requestStateTtlMs: Number(ttl) };
  for (const key of ['nodeId', 'stateSecret', 'bus', 'tasks', 'sessions', 'events'])
    if (given[key] !== undefined) picked[key] = given[key];
  return picked;
}

let aborts = 0;
const object = { type: 'object' };
server.registerTool({
  name: 'gate',
  inputSchema: object,
  taskSupport: 'optional',
  handler: (_args, context) =>
    new Promise((resolve) => {
      context.progress(1);
      context.signal.addEventListener('abort', () => {
        aborts++;
        resolve({ content: [] });
      });
    }),
});
server.registerTool({
  name: 'aborts',
  inputSchema: object,
  handler: () => ({ structuredContent: { node: nodeId, aborts } }),
});
server.registerTool({
  name: 'ask',
  inputSchema: object,
  handler: async (_args, context) => {
    const answer = await context.elicit({
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)} from ${nodeId}` }] };
  },
});
server.registerTool({
  name: 'register',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  handler: ({ name }) => {
    server.registerTool({ name, inputSchema: object, handler: () => ({ content: [] }) });
    return { content: [] };
  },
});
server.registerTool({
  name: 'touch',
  inputSchema: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] },
  handler: ({ uri }) => {
    server.notifyResourceUpdated(uri);
    return { content: [] };
  },
});
server.registerTool({
  name: 'burst',
  inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
  handler: ({ n }, context) => {
    for (let i = 1; i <= n; i++) context.progress(i, n);
    return { content: [{ type: 'text', text: `${n} sent` }] };
  },
});
server.registerTool({
  name: 'whoami',
  inputSchema: object,
  handler: () => ({ structuredContent: { node: nodeId } }),
});
for (const uri of ['note://a', 'note://b'])
  server.registerResource({ uri, name: uri, read: () => [{ uri, text: `the note at ${uri}` }] });

let handler;
const listener = http.createServer((req, res) => handler(req, res));
await new Promise((resolve) => listener.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${listener.address().port}/mcp`;
// A token is its subject: enough to tell principals apart.
const verifyToken = (token) => Promise.resolve({ subject: token, clientId: 'kit-node-client', scopes: [] });
handler = createHttpHandler(server, {
  path: '/mcp',
  sessions: true,
  streamLeaseMs: leaseMs,
  ...(env.BEARER ? { auth: { resource: url, authorizationServers: ['https://as.example'], verifyToken } } : {}),
});
process.once('SIGTERM', async () => {
  await handler.close({ graceMs: 1_000 });
  listener.closeAllConnections();
  await new Promise((resolve) => listener.close(resolve));
  await server.close();
  await state.close();
});
// Only now: whoever waits for the port may signal at once.
process.stdout.write(`${JSON.stringify({ port: listener.address().port })}\n`);

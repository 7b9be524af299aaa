/**
 * A 2026 tool call run as a task while the task store is down (a real PostgreSQL cluster stopped
 * mid-test), through the fetch handler: the router rejects with `STATE_UNAVAILABLE` and the HTTP
 * core answers 503 with `Retry-After` and the one message naming no internals. Runs once the
 * router room (`src/server/router/`, where a task store failure rejects so) is merged and the HTTP
 * engine imports its `routeRequest` from there.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createFetchHandler, McpServer } from '../src/server/index.js';
import { postgresState, type PostgresState } from '../src/server/postgres/index.js';
import { modernPost } from './support/fetch-requests.js';
import { skipWithoutPostgres, startPostgres, type PostgresCluster } from './support/postgres-cluster.js';

const ROUTER = existsSync(new URL('../src/server/router/route-request.ts', import.meta.url));
const TASKS = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };

describe.skipIf(skipWithoutPostgres() || !ROUTER)('a task-run tools/call with the task store down', () => {
  let cluster: PostgresCluster;
  let state: PostgresState;
  beforeAll(async () => {
    cluster = await startPostgres();
    state = postgresState({
      connectionString: cluster.url,
      connectTimeoutMs: 2_000,
      queryTimeoutMs: 2_000,
      logger: () => undefined,
    });
  }, 120_000);
  afterAll(async () => {
    await state?.close();
    await cluster?.stop();
  });

  it('is 503 with Retry-After and says the state store is unavailable, naming no internals', async () => {
    const server = new McpServer({
      name: 'tasked',
      version: '1',
      logger: () => undefined,
      state: { tasks: state.tasks, stateSecret: 'a secret of sixteen or more' },
    });
    server.registerTool({
      name: 'work',
      inputSchema: { type: 'object' },
      taskSupport: 'optional',
      handler: () => ({ content: [] }),
    });
    const handler = createFetchHandler(server);
    onTestFinished(async () => {
      await handler.close({ graceMs: 1000 });
      await server.close();
    });
    const call = (): Request =>
      modernPost(
        'tools/call',
        { name: 'work', arguments: {} },
        { meta: TASKS, headers: { accept: 'application/json' } },
      );
    expect((await handler(call())).status).toBe(200);
    await cluster.down();
    onTestFinished(() => cluster.up());
    const down = await handler(call());
    const text = await down.text();
    expect(down.status, text).toBe(503);
    expect(down.headers.get('retry-after')).toBe('1');
    expect(JSON.parse(text)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: 'Service Unavailable: the state store is unavailable; try again' },
    });
  }, 120_000);
});

/**
 * A 2026 tool call run as a task while the task store is down, on a real PostgreSQL cluster the
 * test stops mid-traffic: the router rejects with `STATE_UNAVAILABLE` (what the Streamable HTTP
 * core answers 503 with `Retry-After`), a message transport answers a JSON-RPC error saying the
 * state store is unavailable and to try again, the follow-up task methods say the same, nothing
 * of the store's own error reaches the client (it is in the server's log), and the same calls are
 * served again once the store is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer, type ServerLogRecord } from '../src/server/index.js';
import { postgresState, type PostgresState } from '../src/server/postgres/index.js';
import { routeRequest } from '../src/server/router/route-request.js';
import type { RequestLink } from '../src/server/router/request-link.js';
import { rawKitPeer } from './support/kit-memory.js';
import { skipWithoutPostgres, startPostgres, type PostgresCluster } from './support/postgres-cluster.js';
import { eventually, within } from './support/wait.js';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': TASKS,
};
const UNAVAILABLE = 'the state store is unavailable; try again';

describe.skipIf(skipWithoutPostgres())('a task-run tools/call with the task store down', () => {
  let cluster: PostgresCluster;
  let state: PostgresState;
  let logged: ServerLogRecord[];

  beforeAll(async () => {
    cluster = await startPostgres();
    state = postgresState({ connectionString: cluster.url, connectTimeoutMs: 2_000, logger: () => undefined });
  }, 120_000);

  afterAll(async () => {
    await state?.close();
    await cluster?.stop();
  });

  function taskServer(): McpServer {
    logged = [];
    const server = new McpServer({
      name: 'tasked',
      version: '1',
      logger: (record) => logged.push(record),
      state: { tasks: state.tasks, stateSecret: 'a secret of sixteen or more' },
    });
    server.registerTool({
      name: 'work',
      inputSchema: { type: 'object' },
      taskSupport: 'optional',
      handler: () => ({ content: [{ type: 'text', text: 'done' }] }),
    });
    return server;
  }

  const call = { name: 'work', arguments: {}, _meta: META };

  it('is answered "the state store is unavailable; try again" over a message transport, and served once it is back', async () => {
    const peer = rawKitPeer(taskServer());
    const before = (await peer.ask('tools/call', call)) as { result: { resultType: string; taskId: string } };
    expect(before.result.resultType).toBe('task');
    await cluster.down();
    try {
      const refused = await within(peer.ask('tools/call', call), {
        what: 'the call with the store down',
        timeoutMs: 20_000,
      });
      expect(refused.error).toEqual({ code: -32603, message: UNAVAILABLE });
      const polled = await within(peer.ask('tasks/get', { taskId: before.result.taskId, _meta: META }), {
        what: 'tasks/get with the store down',
        timeoutMs: 20_000,
      });
      expect(polled.error).toEqual({ code: -32603, message: UNAVAILABLE });
      // The operator reads the store's own failure in the log; the client reads none of it.
      expect(logged).toContainEqual(expect.objectContaining({ level: 'error', msg: 'the task could not be created' }));
      const told = JSON.stringify(peer.received);
      for (const record of logged) if (record.error) expect(told).not.toContain(record.error);
    } finally {
      await cluster.up();
    }
    const again = await eventually(
      async () => {
        const answer = (await peer.ask('tools/call', call)) as { result?: { resultType: string } };
        return answer.result?.resultType === 'task' ? answer : undefined;
      },
      { what: 'a task made once the store is back', timeoutMs: 30_000 },
    );
    expect(again.result).toMatchObject({ resultType: 'task', status: 'working' });
  }, 120_000);

  it('rejects routeRequest with STATE_UNAVAILABLE, the error the HTTP core answers 503', async () => {
    const server = taskServer();
    const link: RequestLink = {
      legacy: undefined,
      canInitialize: false,
      notify: () => undefined,
      signal: new AbortController().signal,
    };
    const request = { jsonrpc: '2.0' as const, id: 7, method: 'tools/call', params: call };
    await cluster.down();
    try {
      const failure = await within(
        routeRequest(server.core, request, link).then(
          () => undefined,
          (error: unknown) => error,
        ),
        { what: 'the routed call with the store down', timeoutMs: 20_000 },
      );
      expect(failure).toMatchObject({ name: 'McpError', code: 'STATE_UNAVAILABLE', message: UNAVAILABLE });
    } finally {
      await cluster.up();
      await server.close();
    }
  }, 120_000);
});

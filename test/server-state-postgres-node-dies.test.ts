/**
 * Two kit server processes on one PostgreSQL state (`test/support/kit-postgres-node.mjs`, run from
 * dist/): a task started on the first is seen working from the second; once the first is
 * SIGKILLed its lease is no longer renewed, and the second reports the task `failed` ("the server
 * running the task stopped") within the lease time, never `working` forever. A legacy call's SSE
 * stream on the first, resumed with `Last-Event-ID` on the second once the first is SIGKILLed,
 * ends within the lease with an error for the call, never waiting forever.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, modernRequest, sseEvents } from './support/kit-wire.js';
import { startNodes } from './support/nodes.js';
import { skipWithoutPostgres, startPostgres, type PostgresCluster } from './support/postgres-cluster.js';
import { until } from './support/wait.js';

// `pg` has no type declarations here: the test's own inspection pool, typed as used.
const require = createRequire(import.meta.url);
const pg = require('pg') as { Pool: new (options: object) => InspectPool };
interface InspectPool {
  on(event: 'error', listener: () => void): void;
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  end(): Promise<void>;
}

const NODE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support/kit-postgres-node.mjs');
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const LEASE_MS = 1_500;

describe.skipIf(skipWithoutPostgres())('a kit node on PostgreSQL state that dies', () => {
  let cluster: PostgresCluster;
  let inspect: InspectPool;
  beforeAll(async () => {
    cluster = await startPostgres();
    inspect = new pg.Pool({ connectionString: cluster.url, max: 1 });
    inspect.on('error', () => undefined); // its connection may be cut as the cluster stops
  }, 120_000);
  afterAll(async () => {
    await inspect?.end();
    await cluster?.stop();
  });

  it('leaves its task failed on the surviving node within the lease', async () => {
    const prefix = `d${randomBytes(4).toString('hex')}_`;
    const set = await startNodes(2, {
      script: NODE,
      env: (i) => ({
        DATABASE_URL: cluster.url,
        TABLE_PREFIX: prefix,
        NODE_ID: `node-${i}`,
        STATE_SECRET: 'the secret both nodes share',
        LEASE_MS: String(LEASE_MS),
      }),
    });
    const [first, second] = set.urls('/mcp') as [string, string];
    let id = 1;
    const call = async (url: string, method: string, params: Record<string, unknown>): Promise<any> =>
      (
        await modernRequest(url, method, params, {
          id: id++,
          capabilities: TASKS,
          headers: { accept: 'application/json' },
        })
      ).json;
    const task = (await call(first, 'tools/call', { name: 'gate', arguments: {} })).result;
    expect(task).toMatchObject({ resultType: 'task', status: 'working' });
    // Alive, its node renews the lease (the stored lease moves on), and the task stays working.
    const leaseUntil = async (): Promise<number> =>
      Number(
        (await inspect.query(`SELECT lease_until FROM "${prefix}task" WHERE task_id = $1`, [task.taskId])).rows[0]!
          .lease_until,
      );
    const firstLease = await leaseUntil();
    await until(async () => (await leaseUntil()) > firstLease, { what: 'the lease to be renewed', timeoutMs: 15_000 });
    expect((await call(second, 'tasks/get', { taskId: task.taskId })).result.status).toBe('working');
    await set.sigkill(0);
    await until(
      async () =>
        expect((await call(second, 'tasks/get', { taskId: task.taskId })).result).toMatchObject({ status: 'failed' }),
      { what: 'the task to fail on the surviving node', timeoutMs: LEASE_MS + 10_000 },
    );
  });

  it('ends a legacy stream resumed on the surviving node with an error for its call, within the lease', async () => {
    const prefix = `d${randomBytes(4).toString('hex')}_`;
    const set = await startNodes(2, {
      script: NODE,
      env: (i) => ({
        DATABASE_URL: cluster.url,
        TABLE_PREFIX: prefix,
        NODE_ID: `node-${i}`,
        STATE_SECRET: 'the secret both nodes share',
        LEASE_MS: String(LEASE_MS),
      }),
    });
    const [first, second] = set.urls('/mcp') as [string, string];
    const made = await exchange(first, {
      body: {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
    });
    const headers = {
      'mcp-session-id': made.headers['mcp-session-id'] as string,
      'mcp-protocol-version': '2025-11-25',
    };
    await exchange(first, { headers, body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    const call = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'poll_me', _meta: { progressToken: 'p' } },
    };
    // The handler closes its stream after the progress (SSE polling): the call goes on on node 0.
    const polled = sseEvents((await exchange(first, { headers, body: call })).text);
    expect(polled.map((event) => event.id)).toEqual([
      expect.stringMatching(/^node-0\./),
      expect.stringMatching(/^node-0\./),
    ]);
    await set.sigkill(0);
    const resumed = await exchange(second, {
      method: 'GET',
      headers: { ...headers, accept: 'text/event-stream', 'last-event-id': polled.at(-1)!.id! },
      timeoutMs: LEASE_MS + 15_000,
    });
    expect(resumed.status).toBe(200);
    expect(sseEvents(resumed.text).map((event) => JSON.parse(event.data))).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'the server running the request stopped' } },
    ]);
  });
});

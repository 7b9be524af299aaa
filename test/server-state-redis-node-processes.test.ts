/**
 * Kit nodes as separate processes on one real `redis-server`, run from dist/ (the built
 * `mcpwire/server/redis` subpath loading `ioredis`): a task made on one node is seen from the
 * other; SIGKILL its node and the task is `failed` within the lease, as the surviving node reads
 * it; a node told SIGTERM closes its handler, server and Redis state and then exits by itself
 * (code 0, no forced exit): nothing — no connection, no timer — was left open.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modernRequest } from './support/kit-wire.js';
import { startNodes } from './support/nodes.js';
import { skipWithoutRedis, startRedis, type RedisServer } from './support/redis-server.js';
import { eventually } from './support/wait.js';

const NODE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support/kit-redis-node.mjs');
const WITH_TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

describe.skipIf(skipWithoutRedis())('kit node processes on one Redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  let nextId = 1;
  async function call(url: string, method: string, params: Record<string, unknown>): Promise<any> {
    const answer = await modernRequest(`${url}/mcp`, method, params, {
      id: nextId++,
      capabilities: WITH_TASKS,
      headers: { accept: 'application/json' },
    });
    return answer.json;
  }

  it("fail a killed node's task within the lease on the other, and exit by themselves on SIGTERM", async () => {
    const keyPrefix = `processes:${randomUUID()}:`;
    const nodes = await startNodes(2, {
      script: NODE,
      env: (i) => ({
        REDIS_URL: redis.url,
        MCP_NODE_ID: `node-${i}`,
        MCP_STATE_SECRET: 'the secret both nodes share',
        KEY_PREFIX: keyPrefix,
        LEASE_MS: '2000',
      }),
    });
    const [first, second] = nodes.nodes as [(typeof nodes.nodes)[0], (typeof nodes.nodes)[0]];
    expect((await call(second.url, 'tools/call', { name: 'whoami', arguments: {} })).result.structuredContent).toEqual({
      node: 'node-1',
    });
    const task = (await call(first.url, 'tools/call', { name: 'gate', arguments: {} })).result;
    expect(task.resultType).toBe('task');
    expect((await call(second.url, 'tasks/get', { taskId: task.taskId })).result.status).toBe('working');
    await nodes.sigkill(0);
    const failed = await eventually(
      async () => {
        const seen = (await call(second.url, 'tasks/get', { taskId: task.taskId })).result;
        return seen.status === 'failed' ? seen : undefined;
      },
      { what: "the dead node's task to fail within its lease", timeoutMs: 20_000 },
    );
    expect(failed.error).toEqual({ code: -32603, message: 'the server running the task stopped' });
    expect(await nodes.sigterm(1, 15_000)).toBe(0);
  });
});

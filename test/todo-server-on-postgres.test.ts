/**
 * The todo server on a real PostgreSQL cluster the test starts itself (initdb and pg_ctl in a
 * temporary directory, a loopback port; removed after): 200 concurrent add_task calls give 200
 * rows and no error; two server processes over HTTP on one database, with requests alternating
 * between them, see one consistent task list; the data survives a restart of both.
 * Needs `npm run build` and the PostgreSQL 15 binaries (skipped without them, except in CI, where they fail).
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { skipWithoutPostgres, startPostgres, type PostgresCluster } from './support/postgres-cluster.js';
import { waitUntilGone } from './support/processes.js';
import { ALICE, BOB, loadTodo, startTodoHttp, TODO_DIR } from './support/todo-server.js';

let cluster: PostgresCluster | undefined;

beforeAll(async () => {
  if (!skipWithoutPostgres()) cluster = await startPostgres();
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
}, 120_000);

async function startHttpServer(url: string): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const server = await startTodoHttp(['--http', '127.0.0.1:0'], { ...process.env, DATABASE_URL: url });
  return {
    url: server.url,
    child: server.child,
    stop: async () => {
      server.child.kill('SIGTERM');
      if (!(await waitUntilGone(server.child.pid!, 15_000))) server.child.kill('SIGKILL');
    },
  };
}

describe.skipIf(skipWithoutPostgres())('the todo server on PostgreSQL', () => {
  it('stores 200 concurrent add_task calls as 200 rows, without an error', async () => {
    const { app } = await loadTodo();
    const { openPgStore } = await import(`${TODO_DIR}/pg-store.mjs`);
    const repository = await openPgStore(cluster!.url, { max: 10 });
    try {
      const server = app.createTodoServer({ name: 'pg', version: '0' }, repository, () => undefined);
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => server.callTool('add_task', { user_id: BOB, title: `task ${i}` })),
      );
      expect(results.filter((r: any) => r.isError)).toEqual([]);
      const listed = await server.callTool('list_tasks', { user_id: BOB });
      expect(listed.structuredContent.count).toBe(200);
      expect(new Set(listed.structuredContent.tasks.map((t: any) => t.task_id)).size).toBe(200);
    } finally {
      await repository.close();
    }
  });

  it('gives one consistent list through two server processes, alternating requests, and keeps it across restarts', async () => {
    const servers = await Promise.all([startHttpServer(cluster!.url), startHttpServer(cluster!.url)]);
    const clients: McpClient[] = [];
    try {
      for (const s of servers) clients.push(await McpClient.connect({ url: s.url }));
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        const result = await clients[i % 2]!.callTool('add_task', { user_id: ALICE, title: `step ${i}` });
        ids.push((result.structuredContent as any).task.task_id);
      }
      await clients[1]!.callTool('complete_task', { user_id: ALICE, task_id: ids[0] });
      await clients[0]!.callTool('delete_task', { user_id: ALICE, task_id: ids[5] });
      const fromA = (await clients[0]!.callTool('list_tasks', { user_id: ALICE })).structuredContent as any;
      const fromB = (await clients[1]!.callTool('list_tasks', { user_id: ALICE })).structuredContent as any;
      expect(fromA).toEqual(fromB);
      expect(fromA.tasks.map((t: any) => t.title)).toEqual(['step 0', 'step 1', 'step 2', 'step 3', 'step 4']);
      expect(fromA.tasks[0].is_completed).toBe(true);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      await Promise.all(servers.map((s) => s.stop()));
    }
    const again = await startHttpServer(cluster!.url);
    const client = await McpClient.connect({ url: again.url });
    try {
      expect(
        ((await client.callTool('list_tasks', { user_id: ALICE, status: 'completed' })).structuredContent as any).count,
      ).toBe(1);
    } finally {
      await client.close();
      await again.stop();
    }
  });
});

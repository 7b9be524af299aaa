/**
 * The todo server's stores compile each statement once and run it as often as calls come: on
 * PostgreSQL (a cluster the test starts) every query is a named prepared statement, and after
 * every tool has run N times the connection's `pg_prepared_statements` holds one statement per
 * query, each executed N times; on SQLite every statement is prepared when the store opens and
 * none while the tools run.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postgresAvailable, startPostgres, type PostgresCluster } from './support/postgres-cluster.js';
import { ALICE, loadTodo, tempDir, TODO_DIR } from './support/todo-server.js';

const RUNS = 4;
// The drivers have no type declarations here; the test only spies on one and opens a pool of the other.
const require = createRequire(import.meta.url);
const Database = require('better-sqlite3') as { prototype: { prepare(sql: string): unknown } };
const pg = require('pg') as { Pool: new (options: object) => PgPool };

interface PgPool {
  on(event: 'error', listener: () => void): void;
  query(text: string): Promise<{ rows: unknown[] }>;
  end(): Promise<void>;
}

/** Runs every tool of the todo server `RUNS` times (list in its three filters), each on a task of its own. */
async function runEveryTool(server: any): Promise<void> {
  for (let i = 0; i < RUNS; i++) {
    const added = await server.callTool('add_task', { user_id: ALICE, title: `task ${i}` });
    expect(added.isError, JSON.stringify(added)).toBeFalsy();
    const id = added.structuredContent.task.task_id;
    for (const status of ['all', 'pending', 'completed'])
      expect((await server.callTool('list_tasks', { user_id: ALICE, status })).isError).toBeFalsy();
    expect((await server.callTool('get_task', { user_id: ALICE, task_id: id })).isError).toBeFalsy();
    expect(
      (await server.callTool('update_task', { user_id: ALICE, task_id: id, title: 'renamed' })).isError,
    ).toBeFalsy();
    expect((await server.callTool('complete_task', { user_id: ALICE, task_id: id })).isError).toBeFalsy();
    expect((await server.callTool('delete_task', { user_id: ALICE, task_id: id })).isError).toBeFalsy();
  }
}

describe('the SQLite store', () => {
  it('prepares every statement when it opens, and none while the tools run', async () => {
    const { app, store } = await loadTodo();
    const dir = tempDir();
    const prepare = vi.spyOn(Database.prototype, 'prepare');
    try {
      const repository = store.openSqliteStore(`${dir.dir}/todo.db`);
      const atOpen = prepare.mock.calls.length;
      expect(atOpen).toBeGreaterThan(0);
      try {
        await runEveryTool(app.createTodoServer({ name: 'sqlite', version: '0' }, repository, () => undefined));
        expect(prepare.mock.calls.length).toBe(atOpen);
      } finally {
        await repository.close();
      }
    } finally {
      prepare.mockRestore();
      dir.remove();
    }
  });
});

let cluster: PostgresCluster | undefined;
beforeAll(async () => {
  if (postgresAvailable()) cluster = await startPostgres();
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
}, 120_000);

describe.skipIf(!postgresAvailable())('the PostgreSQL store', () => {
  it('runs each query as one named prepared statement per connection, executed once per call', async () => {
    const { app } = await loadTodo();
    const { openPgStore } = await import(`${TODO_DIR}/pg-store.mjs`);
    // One connection, shared with the check below: prepared statements belong to a connection.
    const pool = new pg.Pool({ connectionString: cluster!.url, max: 1 });
    // end() resolves before its connection is gone: the cluster's shutdown may still reach it.
    pool.on('error', () => undefined);
    try {
      const repository = await openPgStore(cluster!.url, { pool });
      await runEveryTool(app.createTodoServer({ name: 'pg', version: '0' }, repository, () => undefined));
      await repository.close();
      const { rows } = await pool.query(
        'SELECT name, (generic_plans + custom_plans)::int AS runs FROM pg_prepared_statements ORDER BY name',
      );
      expect(rows).toEqual(
        [
          ['todo_add', RUNS],
          ['todo_complete', RUNS],
          ['todo_get', RUNS],
          ['todo_list_all', RUNS],
          ['todo_list_completed', RUNS],
          ['todo_list_pending', RUNS],
          ['todo_remove', RUNS],
          ['todo_update', RUNS],
        ].map(([name, runs]) => ({ name, runs })),
      );
    } finally {
      await pool.end();
    }
  });
});

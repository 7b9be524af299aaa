/**
 * The todo server's tools invoked directly (in process, through the kit's `callTool`, the
 * same path as a wire call) on a real SQLite file: the happy path, validation, not found, another
 * user's task reported exactly like a missing one, and a real database failure (the table
 * dropped by another connection). Every result is checked by the kit against the tool's
 * outputSchema before it is returned; the log lines carry ids and outcomes, never task text.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALICE, BOB, loadTodo, NOBODYS_TASK, tempDir } from './support/todo-server.js';

const { app, store, schemas } = await loadTodo();
// better-sqlite3 ships no types; the test needs only open, exec and close.
const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => {
  exec(sql: string): void;
  close(): void;
};

let temp: ReturnType<typeof tempDir>;
let repository: any;
let server: any;
let logs: Array<Record<string, unknown>>;

beforeEach(() => {
  temp = tempDir();
  repository = store.openSqliteStore(path.join(temp.dir, 'tasks.db'));
  logs = [];
  server = app.createTodoServer({ name: 'todo-test', version: '0' }, repository, (record: Record<string, unknown>) =>
    logs.push(record),
  );
});
afterEach(async () => {
  await repository.close();
  temp.remove();
});

async function call(tool: string, args: Record<string, unknown>): Promise<any> {
  const result = await server.callTool(tool, args);
  // The text block always holds what structuredContent holds.
  expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  return result;
}

const TASK_SHAPE = {
  task_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
  user_id: ALICE,
  created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
  updated_at: expect.any(String),
};

describe('the todo tools, directly', () => {
  it('add, get, list by status, update, complete and delete a task', async () => {
    const added = await call('add_task', { user_id: ALICE, title: 'Buy milk', description: 'two litres' });
    expect(added.isError).toBeUndefined();
    expect(added.structuredContent).toEqual({
      success: true,
      task: { ...TASK_SHAPE, title: 'Buy milk', description: 'two litres', is_completed: false },
    });
    const id = added.structuredContent.task.task_id;
    await call('add_task', { user_id: ALICE, title: 'Call mum' });

    expect((await call('get_task', { user_id: ALICE, task_id: id })).structuredContent.task.title).toBe('Buy milk');
    expect((await call('list_tasks', { user_id: ALICE })).structuredContent).toMatchObject({
      success: true,
      count: 2,
      tasks: [{ title: 'Buy milk' }, { title: 'Call mum', description: null }],
    });

    const updated = await call('update_task', { user_id: ALICE, task_id: id, title: 'Buy oat milk' });
    expect(updated.structuredContent.task).toMatchObject({ title: 'Buy oat milk', description: 'two litres' });
    const completed = await call('complete_task', { user_id: ALICE, task_id: id });
    expect(completed.structuredContent.task.is_completed).toBe(true);
    expect(
      (await call('list_tasks', { user_id: ALICE, status: 'completed' })).structuredContent.tasks.map(
        (t: any) => t.task_id,
      ),
    ).toEqual([id]);
    expect(
      (await call('list_tasks', { user_id: ALICE, status: 'pending' })).structuredContent.tasks.map(
        (t: any) => t.title,
      ),
    ).toEqual(['Call mum']);

    expect((await call('delete_task', { user_id: ALICE, task_id: id })).structuredContent).toEqual({
      success: true,
      task_id: id,
      deleted: true,
    });
    expect((await call('get_task', { user_id: ALICE, task_id: id })).structuredContent.error.code).toBe(
      'TASK_NOT_FOUND',
    );
  });

  it.each([
    ['add_task', { user_id: 'not-a-uuid', title: 'x' }, ['/user_id']],
    ['add_task', { user_id: ALICE, title: '' }, ['/title']],
    ['add_task', { user_id: ALICE, title: 'x'.repeat(201) }, ['/title']],
    ['add_task', { user_id: ALICE, title: 'ok', description: 'd'.repeat(1001) }, ['/description']],
    ['add_task', { user_id: ALICE }, ['/title']],
    ['add_task', { user_id: ALICE, title: 'ok', owner: 'me' }, ['/owner']],
    ['list_tasks', { user_id: ALICE, status: 'done' }, ['/status']],
    ['get_task', { user_id: ALICE, task_id: 42 }, ['/task_id']],
  ])('%s with %j is VALIDATION_ERROR naming %j, and nothing is stored', async (tool, args, paths) => {
    const result = await call(tool, args);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', message: expect.any(String), paths },
    });
    expect((await call('list_tasks', { user_id: ALICE })).structuredContent.count).toBe(0);
  });

  it('accepts a title of exactly 200 characters and a description of exactly 1,000', async () => {
    const result = await call('add_task', { user_id: ALICE, title: 't'.repeat(200), description: 'd'.repeat(1000) });
    expect(result.structuredContent.success).toBe(true);
  });

  it('update_task with nothing to change is VALIDATION_ERROR', async () => {
    const id = (await call('add_task', { user_id: ALICE, title: 'a' })).structuredContent.task.task_id;
    expect((await call('update_task', { user_id: ALICE, task_id: id })).structuredContent.error.code).toBe(
      'VALIDATION_ERROR',
    );
  });

  it.each(['get_task', 'update_task', 'complete_task', 'delete_task'])(
    '%s of a task that does not exist is TASK_NOT_FOUND',
    async (tool) => {
      const result = await call(tool, {
        user_id: ALICE,
        task_id: NOBODYS_TASK,
        ...(tool === 'update_task' ? { title: 'x' } : {}),
      });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual({
        success: false,
        error: { code: 'TASK_NOT_FOUND', message: expect.any(String) },
      });
    },
  );

  it.each(['get_task', 'update_task', 'complete_task', 'delete_task'])(
    "%s of another user's task answers exactly as for a missing one, and changes nothing",
    async (tool) => {
      const bobs = (await call('add_task', { user_id: BOB, title: "Bob's secret" })).structuredContent.task;
      const extra = tool === 'update_task' ? { title: 'hijacked' } : {};
      const other = await call(tool, { user_id: ALICE, task_id: bobs.task_id, ...extra });
      const missing = await call(tool, { user_id: ALICE, task_id: NOBODYS_TASK, ...extra });
      expect(other).toEqual(missing);
      expect(JSON.stringify(other)).not.toContain("Bob's secret");
      expect((await call('get_task', { user_id: BOB, task_id: bobs.task_id })).structuredContent.task).toEqual(bobs);
      expect((await call('list_tasks', { user_id: ALICE })).structuredContent.count).toBe(0);
    },
  );

  it('a database failure is DATABASE_ERROR with a safe message; the cause is in the server log only', async () => {
    await call('add_task', { user_id: ALICE, title: 'before the failure' });
    // A real failure of the store: another connection drops the table under the server.
    const intruder = new Database(path.join(temp.dir, 'tasks.db'));
    intruder.exec('DROP TABLE tasks');
    intruder.close();
    for (const [tool, args] of [
      ['add_task', { user_id: ALICE, title: 'after' }],
      ['list_tasks', { user_id: ALICE }],
      ['get_task', { user_id: ALICE, task_id: NOBODYS_TASK }],
    ] as const) {
      const result = await call(tool, args);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual({
        success: false,
        error: { code: 'DATABASE_ERROR', message: expect.any(String) },
      });
      expect(JSON.stringify(result)).not.toMatch(/no such table|SQLITE|tasks\.db/i);
    }
    expect(logs).toContainEqual(
      expect.objectContaining({
        msg: 'tool failed',
        tool: 'add_task',
        code: 'DATABASE_ERROR',
        error: expect.stringMatching(/no such table/),
      }),
    );
  });

  it('logs one line per call with tool, user, outcome and duration, and never task text', async () => {
    const id = (await call('add_task', { user_id: ALICE, title: 'Private title', description: 'private words' }))
      .structuredContent.task.task_id;
    await call('get_task', { user_id: ALICE, task_id: NOBODYS_TASK });
    await call('add_task', { user_id: 'Private title', title: '' });
    const lines = logs.filter((r) => r.msg === 'tool call');
    expect(lines).toEqual([
      {
        level: 'info',
        msg: 'tool call',
        tool: 'add_task',
        outcome: 'ok',
        duration_ms: expect.any(Number),
        user_id: ALICE,
      },
      {
        level: 'warning',
        msg: 'tool call',
        tool: 'get_task',
        outcome: 'TASK_NOT_FOUND',
        duration_ms: expect.any(Number),
        user_id: ALICE,
        task_id: NOBODYS_TASK,
      },
      {
        level: 'warning',
        msg: 'tool call',
        tool: 'add_task',
        outcome: 'VALIDATION_ERROR',
        duration_ms: expect.any(Number),
      },
    ]);
    expect(JSON.stringify(logs)).not.toMatch(/Private|private words/);
    expect(id).toBeTruthy();
  });

  it('offers exactly the seven tools, each with an outputSchema admitting both envelopes', () => {
    expect(Object.keys(schemas.OUTPUT).sort()).toEqual([
      'add_task',
      'complete_task',
      'delete_task',
      'get_task',
      'import_tasks',
      'list_tasks',
      'update_task',
    ]);
    expect(schemas.ERROR_CODES).toEqual([
      'VALIDATION_ERROR',
      'TASK_NOT_FOUND',
      'AUTHORIZATION_ERROR',
      'DATABASE_ERROR',
    ]);
  });
});

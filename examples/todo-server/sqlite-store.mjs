// The SQLite task store (better-sqlite3): one file in WAL mode, one transaction per call. Every
// method takes the owner's id, and a task of another user is not there for it (undefined / false),
// exactly like a missing one.
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS tasks (
  task_id      TEXT PRIMARY KEY,
  user_id      TEXT NOT NULL,
  title        TEXT NOT NULL,
  description  TEXT,
  is_completed INTEGER NOT NULL DEFAULT 0,
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tasks_by_user ON tasks (user_id, created_at);
`;

/**
 * @typedef {{
 *   task_id: string,
 *   user_id: string,
 *   title: string,
 *   description: string | null,
 *   is_completed: boolean,
 *   created_at: string,
 *   updated_at: string,
 * }} Task
 * @typedef {'all' | 'pending' | 'completed'} Status
 * @typedef {{
 *   add(userId: string, fields: { title: string, description?: string }): Promise<Task>,
 *   list(userId: string, status: Status): Promise<Task[]>,
 *   get(userId: string, taskId: string): Promise<Task | undefined>,
 *   update(
 *     userId: string,
 *     taskId: string,
 *     fields: { title?: string, description?: string },
 *   ): Promise<Task | undefined>,
 *   complete(userId: string, taskId: string): Promise<Task | undefined>,
 *   remove(userId: string, taskId: string): Promise<boolean>,
 *   close(): Promise<void>,
 * }} TaskRepository
 */

/** @returns {Task} */
function toTask(row) {
  return { ...row, is_completed: row.is_completed === 1 };
}

/**
 * Opens (creating when needed) the database file at `file`. Throws when it cannot be opened.
 * @returns {TaskRepository}
 */
export function openSqliteStore(file) {
  const db = new Database(file, { fileMustExist: false });
  db.pragma('journal_mode = WAL');
  // WAL + NORMAL: a committed transaction survives a killed process (not a power cut).
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);

  // Each statement is compiled once, here, and run as often as the calls come.
  const statements = {
    insert: db.prepare(
      'INSERT INTO tasks VALUES (@task_id, @user_id, @title, @description, @is_completed, @created_at, @updated_at)',
    ),
    listAll: db.prepare('SELECT * FROM tasks WHERE user_id = ? ORDER BY created_at, rowid'),
    listPending: db.prepare('SELECT * FROM tasks WHERE user_id = ? AND is_completed = 0 ORDER BY created_at, rowid'),
    listCompleted: db.prepare('SELECT * FROM tasks WHERE user_id = ? AND is_completed = 1 ORDER BY created_at, rowid'),
    select: db.prepare('SELECT * FROM tasks WHERE task_id = ? AND user_id = ?'),
    update: db.prepare(
      'UPDATE tasks SET title = @title, description = @description, updated_at = @updated_at WHERE task_id = @task_id',
    ),
    complete: db.prepare('UPDATE tasks SET is_completed = 1, updated_at = @updated_at WHERE task_id = @task_id'),
    remove: db.prepare('DELETE FROM tasks WHERE task_id = ? AND user_id = ?'),
  };
  const select = (userId, taskId) => statements.select.get(taskId, userId);
  const run = (fn) => db.transaction(fn).immediate();

  return {
    async add(userId, { title, description }) {
      return run(() => {
        const now = new Date().toISOString();
        const task = {
          task_id: randomUUID(),
          user_id: userId,
          title,
          description: description ?? null,
          is_completed: 0,
          created_at: now,
          updated_at: now,
        };
        statements.insert.run(task);
        return toTask(task);
      });
    },
    async list(userId, status) {
      return run(() => {
        const list =
          status === 'pending'
            ? statements.listPending
            : status === 'completed'
              ? statements.listCompleted
              : statements.listAll;
        return list.all(userId).map(toTask);
      });
    },
    async get(userId, taskId) {
      return run(() => {
        const row = select(userId, taskId);
        return row && toTask(row);
      });
    },
    async update(userId, taskId, fields) {
      return run(() => {
        const row = select(userId, taskId);
        if (!row) return undefined;
        const next = {
          ...row,
          title: fields.title ?? row.title,
          description: fields.description ?? row.description,
          updated_at: new Date().toISOString(),
        };
        statements.update.run(next);
        return toTask(next);
      });
    },
    async complete(userId, taskId) {
      return run(() => {
        const row = select(userId, taskId);
        if (!row) return undefined;
        const next = { ...row, is_completed: 1, updated_at: new Date().toISOString() };
        statements.complete.run(next);
        return toTask(next);
      });
    },
    async remove(userId, taskId) {
      return run(() => statements.remove.run(taskId, userId).changes === 1);
    },
    async close() {
      if (db.open) db.close();
    },
  };
}

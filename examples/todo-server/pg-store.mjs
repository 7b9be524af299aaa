// The PostgreSQL task store (pg, with a pool): the path for several stateless server processes
// behind a load balancer sharing one database. Same interface as sqlite-store.mjs; one
// transaction per call; a task of another user is not there for it, exactly like a missing one.
import { randomUUID } from 'node:crypto';
import pg from 'pg';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS tasks (
  task_id      UUID PRIMARY KEY,
  user_id      UUID NOT NULL,
  title        TEXT NOT NULL,
  description  TEXT,
  is_completed BOOLEAN NOT NULL DEFAULT FALSE,
  created_at   TIMESTAMPTZ NOT NULL,
  updated_at   TIMESTAMPTZ NOT NULL,
  seq          BIGSERIAL
);
CREATE INDEX IF NOT EXISTS tasks_by_user ON tasks (user_id, created_at, seq);
`;

const COLUMNS = 'task_id, user_id, title, description, is_completed, created_at, updated_at';

// Every query is a named prepared statement: parsed and planned once per pooled connection, then
// only bound and run (pg sends Parse for a name the connection has not seen, Bind/Execute after).
const STATEMENTS = {
  add: `INSERT INTO tasks (${COLUMNS}) VALUES ($1, $2, $3, $4, FALSE, $5, $5) RETURNING ${COLUMNS}`,
  list_all: `SELECT ${COLUMNS} FROM tasks WHERE user_id = $1 ORDER BY created_at, seq`,
  list_pending: `SELECT ${COLUMNS} FROM tasks WHERE user_id = $1 AND NOT is_completed ORDER BY created_at, seq`,
  list_completed: `SELECT ${COLUMNS} FROM tasks WHERE user_id = $1 AND is_completed ORDER BY created_at, seq`,
  get: `SELECT ${COLUMNS} FROM tasks WHERE task_id = $1 AND user_id = $2`,
  update: `UPDATE tasks SET title = COALESCE($3, title), description = COALESCE($4, description), updated_at = $5
    WHERE task_id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
  complete: `UPDATE tasks SET is_completed = TRUE, updated_at = $3 WHERE task_id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
  remove: 'DELETE FROM tasks WHERE task_id = $1 AND user_id = $2',
};

function toTask(row) {
  return {
    ...row,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/**
 * Connects to `url` (a `postgres://` URL) and makes the table when missing. Rejects when the
 * database cannot be reached. With `pool` (a `pg.Pool` the caller owns and ends), uses it instead.
 * @returns {Promise<import('./sqlite-store.mjs').TaskRepository>}
 */
export async function openPgStore(url, { max = 10, pool: given } = {}) {
  const pool = given ?? new pg.Pool({ connectionString: url, max });
  // An idle client's error (the server went away) must not crash the process; the next call fails instead.
  if (!given) pool.on('error', () => undefined);
  // Two processes starting at once may both create the table: serialise them on an advisory lock.
  await transaction(pool, async (db) => {
    await db.query('SELECT pg_advisory_xact_lock(727274)');
    await db.query(SCHEMA);
  });
  const run = (name, values) => pool.query({ name: `todo_${name}`, text: STATEMENTS[name], values });

  return {
    async add(userId, { title, description }) {
      const now = new Date().toISOString();
      const { rows } = await run('add', [randomUUID(), userId, title, description ?? null, now]);
      return toTask(rows[0]);
    },
    async list(userId, status) {
      const { rows } = await run(
        status === 'pending' ? 'list_pending' : status === 'completed' ? 'list_completed' : 'list_all',
        [userId],
      );
      return rows.map(toTask);
    },
    async get(userId, taskId) {
      const { rows } = await run('get', [taskId, userId]);
      return rows[0] && toTask(rows[0]);
    },
    async update(userId, taskId, fields) {
      const { rows } = await run('update', [
        taskId,
        userId,
        fields.title ?? null,
        fields.description ?? null,
        new Date().toISOString(),
      ]);
      return rows[0] && toTask(rows[0]);
    },
    async complete(userId, taskId) {
      const { rows } = await run('complete', [taskId, userId, new Date().toISOString()]);
      return rows[0] && toTask(rows[0]);
    },
    async remove(userId, taskId) {
      const { rowCount } = await run('remove', [taskId, userId]);
      return rowCount === 1;
    },
    async close() {
      if (!given) await pool.end();
    },
  };
}

async function transaction(pool, work) {
  const db = await pool.connect();
  try {
    await db.query('BEGIN');
    const result = await work(db);
    await db.query('COMMIT');
    return result;
  } catch (error) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    db.release();
  }
}

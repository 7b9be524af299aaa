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

function toTask(row) {
  return {
    ...row,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/**
 * Connects to `url` (a `postgres://` URL) and makes the table when missing. Rejects when the
 * database cannot be reached.
 * @returns {Promise<import('./sqlite-store.mjs').TaskRepository>}
 */
export async function openPgStore(url, { max = 10 } = {}) {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client's error (the server went away) must not crash the process; the next call fails instead.
  pool.on('error', () => undefined);
  // Two processes starting at once may both create the table: serialise them on an advisory lock.
  await transaction(pool, async (db) => {
    await db.query('SELECT pg_advisory_xact_lock(727274)');
    await db.query(SCHEMA);
  });

  return {
    async add(userId, { title, description }) {
      const now = new Date().toISOString();
      const { rows } = await pool.query(
        `INSERT INTO tasks (${COLUMNS}) VALUES ($1, $2, $3, $4, FALSE, $5, $5) RETURNING ${COLUMNS}`,
        [randomUUID(), userId, title, description ?? null, now],
      );
      return toTask(rows[0]);
    },
    async list(userId, status) {
      const filter = status === 'pending' ? ' AND NOT is_completed' : status === 'completed' ? ' AND is_completed' : '';
      const { rows } = await pool.query(
        `SELECT ${COLUMNS} FROM tasks WHERE user_id = $1${filter} ORDER BY created_at, seq`,
        [userId],
      );
      return rows.map(toTask);
    },
    async get(userId, taskId) {
      const { rows } = await pool.query(`SELECT ${COLUMNS} FROM tasks WHERE task_id = $1 AND user_id = $2`, [
        taskId,
        userId,
      ]);
      return rows[0] && toTask(rows[0]);
    },
    async update(userId, taskId, fields) {
      const { rows } = await pool.query(
        `UPDATE tasks SET title = COALESCE($3, title), description = COALESCE($4, description), updated_at = $5 WHERE task_id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
        [taskId, userId, fields.title ?? null, fields.description ?? null, new Date().toISOString()],
      );
      return rows[0] && toTask(rows[0]);
    },
    async complete(userId, taskId) {
      const { rows } = await pool.query(
        `UPDATE tasks SET is_completed = TRUE, updated_at = $3 WHERE task_id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
        [taskId, userId, new Date().toISOString()],
      );
      return rows[0] && toTask(rows[0]);
    },
    async remove(userId, taskId) {
      const { rowCount } = await pool.query('DELETE FROM tasks WHERE task_id = $1 AND user_id = $2', [taskId, userId]);
      return rowCount === 1;
    },
    async close() {
      await pool.end();
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

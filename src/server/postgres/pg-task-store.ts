/**
 * The PostgreSQL {@link TaskStore}: one row per task in `<prefix>task`, written (committed) before
 * `create` resolves. A change is made in one transaction holding the row (`SELECT … FOR UPDATE`),
 * so answers and cancels from several nodes never overwrite each other. An expired row is deleted
 * when touched, and in bounded batches as tasks are made (at most once per `sweepEveryMs`); an
 * unfinished task whose lease ran out is stored `failed` when next read.
 */
import { McpError } from '../../protocol/errors.js';
import {
  LEASE_LOST,
  TERMINAL_STATUSES,
  type NewTask,
  type StoredTask,
  type TaskInputRequest,
  type TaskOutcome,
  type TaskStatus,
  type TaskStore,
} from '../state/task-store.js';
import type { PgDatabase, Query } from './pg-database.js';
import { num } from './rows.js';

const WHAT = 'task store';
const COLUMNS =
  'task_id, principal, owner, status, created_at, last_updated_at, ttl_ms, poll_interval_ms, expires_at, lease_until, input_requests, input_responses, result, error, cancel_requested';

interface TaskRow {
  task_id: string;
  principal: string | null;
  owner: string;
  status: TaskStatus;
  created_at: string;
  last_updated_at: string;
  ttl_ms: string;
  poll_interval_ms: string;
  expires_at: string;
  lease_until: string;
  input_requests: StoredTask['inputRequests'];
  input_responses: StoredTask['inputResponses'];
  result: StoredTask['result'] | null;
  error: StoredTask['error'] | null;
  cancel_requested: boolean;
}

export class PgTaskStore implements TaskStore {
  readonly shared: boolean = true;
  private sweptAt = Number.NEGATIVE_INFINITY;
  private readonly sql;

  /**
   * @param maxTasks most unfinished tasks held at once (across all nodes)
   * @param sweepEveryMs least time between two deletions of expired rows
   */
  constructor(
    private readonly db: PgDatabase,
    private readonly maxTasks: number,
    private readonly sweepEveryMs: number,
    private readonly sweepBatch: number,
  ) {
    const t = db.tables.task;
    const unfinished = `status IN ('working', 'input_required')`;
    this.sql = {
      create: db.statement(
        `INSERT INTO ${t} (task_id, principal, owner, status, created_at, last_updated_at, ttl_ms, poll_interval_ms,
           expires_at, lease_until)
         SELECT $1, $2, $3, 'working', $4, $4, $5, $6, $4::bigint + $5::bigint, $4::bigint + $7::bigint
         WHERE (SELECT count(*) FROM ${t} WHERE ${unfinished} AND lease_until > $4 AND expires_at > $4) < $8
         RETURNING ${COLUMNS}`,
      ),
      get: db.statement(`SELECT ${COLUMNS} FROM ${t} WHERE task_id = $1`),
      lock: db.statement(`SELECT ${COLUMNS} FROM ${t} WHERE task_id = $1 FOR UPDATE`),
      write: db.statement(
        `UPDATE ${t} SET status = $2, last_updated_at = $3, lease_until = $4, input_requests = $5,
           input_responses = $6, result = $7, error = $8, cancel_requested = $9
         WHERE task_id = $1`,
      ),
      remove: db.statement(`DELETE FROM ${t} WHERE task_id = $1 AND expires_at <= $2`),
      renew: db.statement(
        `UPDATE ${t} SET lease_until = GREATEST(lease_until, $3)
         WHERE task_id = ANY($2::text[]) AND owner = $1 AND ${unfinished} AND lease_until > $4 AND expires_at > $4`,
      ),
      sweep: db.statement(
        `DELETE FROM ${t} WHERE task_id IN (SELECT task_id FROM ${t} WHERE expires_at <= $1 LIMIT $2)`,
      ),
    };
  }

  async create(task: NewTask, now: number): Promise<StoredTask> {
    await this.sweep(now);
    const { rows } = await this.db.run<TaskRow>(WHAT, this.sql.create, [
      task.taskId,
      task.principal ?? null,
      task.owner,
      now,
      task.ttlMs,
      task.pollIntervalMs,
      task.leaseMs,
      this.maxTasks,
    ]);
    if (!rows[0]) throw new McpError('INVALID_STATE', `too many tasks in progress (maxTasks ${this.maxTasks})`);
    return toTask(rows[0]);
  }

  async get(taskId: string, principal: string | undefined, now: number): Promise<StoredTask | undefined> {
    const { rows } = await this.db.run<TaskRow>(WHAT, this.sql.get, [taskId]);
    const row = rows[0];
    if (!row || (row.principal ?? undefined) !== principal) return undefined;
    const task = toTask(row);
    if (now >= task.expiresAt) {
      await this.db.run(WHAT, this.sql.remove, [taskId, now]);
      return undefined;
    }
    // A lost lease is persisted under the row's lock (another node may be answering at once).
    if (!TERMINAL_STATUSES.has(task.status) && now >= task.leaseUntil) return this.change(taskId, now, () => true);
    return task;
  }

  async ask(taskId: string, key: string, request: TaskInputRequest, now: number): Promise<boolean> {
    const after = await this.change(taskId, now, (task) => {
      if (TERMINAL_STATUSES.has(task.status)) return false;
      task.inputRequests[key] = { method: request.method, params: request.params };
      delete task.inputResponses[key];
      task.status = 'input_required';
      task.lastUpdatedAt = now;
      return true;
    });
    return after !== undefined && !TERMINAL_STATUSES.has(after.status);
  }

  respond(taskId: string, responses: Record<string, unknown>, now: number): Promise<StoredTask | undefined> {
    return this.change(taskId, now, (task) => {
      let changed = false;
      for (const [key, value] of Object.entries(responses)) {
        if (!Object.hasOwn(task.inputRequests, key) || !isObject(value)) continue;
        delete task.inputRequests[key];
        task.inputResponses[key] = value;
        changed = true;
      }
      if (task.status === 'input_required' && Object.keys(task.inputRequests).length === 0) {
        task.status = 'working';
        task.lastUpdatedAt = now;
      }
      return changed;
    });
  }

  async settle(taskId: string, outcome: TaskOutcome, now: number): Promise<boolean> {
    let settled = false;
    await this.change(taskId, now, (task) => {
      if (TERMINAL_STATUSES.has(task.status)) return false;
      task.status = outcome.status;
      if (outcome.status === 'completed') task.result = outcome.result;
      else task.error = outcome.error;
      task.inputRequests = {};
      task.lastUpdatedAt = now;
      return (settled = true);
    });
    return settled;
  }

  cancel(taskId: string, now: number): Promise<StoredTask | undefined> {
    return this.change(taskId, now, (task) => {
      const was = task.cancelRequested;
      task.cancelRequested = true;
      if (TERMINAL_STATUSES.has(task.status)) return !was;
      task.status = 'cancelled';
      task.inputRequests = {};
      task.lastUpdatedAt = now;
      return true;
    });
  }

  async renew(owner: string, taskIds: readonly string[], leaseUntil: number, now: number): Promise<void> {
    if (taskIds.length > 0) await this.db.run(WHAT, this.sql.renew, [owner, taskIds, leaseUntil, now]);
  }

  /** Nothing to release: the pool belongs to the state. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Applies `mutate` to the task under its row lock (after expiry and the lease are applied) and
   * writes it when anything changed; resolves with the task after, or undefined when it is gone.
   */
  private change(taskId: string, now: number, mutate: (task: StoredTask) => boolean): Promise<StoredTask | undefined> {
    return this.db.transaction(WHAT, async (query: Query) => {
      const row = (await query<TaskRow>(this.sql.lock, [taskId])).rows[0];
      if (!row) return undefined;
      const task = toTask(row);
      if (now >= task.expiresAt) {
        await query(this.sql.remove, [taskId, now]);
        return undefined;
      }
      let changed = false;
      if (!TERMINAL_STATUSES.has(task.status) && now >= task.leaseUntil) {
        task.status = 'failed';
        task.error = LEASE_LOST;
        task.inputRequests = {};
        task.lastUpdatedAt = now;
        changed = true;
      }
      if (mutate(task) || changed)
        await query(this.sql.write, [
          taskId,
          task.status,
          task.lastUpdatedAt,
          task.leaseUntil,
          JSON.stringify(task.inputRequests),
          JSON.stringify(task.inputResponses),
          task.result === undefined ? null : JSON.stringify(task.result),
          task.error === undefined ? null : JSON.stringify(task.error),
          task.cancelRequested,
        ]);
      return task;
    });
  }

  /** Deletes a batch of expired tasks, at most once per `sweepEveryMs`. */
  private async sweep(now: number): Promise<void> {
    if (now - this.sweptAt < this.sweepEveryMs) return;
    this.sweptAt = now;
    await this.db.run(WHAT, this.sql.sweep, [now, this.sweepBatch]);
  }
}

function toTask(row: TaskRow): StoredTask {
  return {
    taskId: row.task_id,
    status: row.status,
    createdAt: num(row.created_at),
    lastUpdatedAt: num(row.last_updated_at),
    ttlMs: num(row.ttl_ms),
    pollIntervalMs: num(row.poll_interval_ms),
    expiresAt: num(row.expires_at),
    principal: row.principal ?? undefined,
    owner: row.owner,
    leaseUntil: num(row.lease_until),
    inputRequests: row.input_requests,
    inputResponses: row.input_responses,
    result: row.result ?? undefined,
    error: row.error ?? undefined,
    cancelRequested: row.cancel_requested,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The {@link TaskStore} on Redis: one hash per task (`<prefix>task:<taskId>`, layout in
 * `task-scripts.ts`), written before `create` resolves and expiring with the task's TTL
 * (`PEXPIRE`), so nothing outlives it; at most `maxTasks` unfinished at once across all nodes
 * (the sorted set `<prefix>tasks:running`). Every transition (created, input asked and answered,
 * settled, cancelled, lease renewed or lost) is one Lua script, atomic against every other node.
 */
import type { Redis } from 'ioredis';
import { McpError } from '../../protocol/errors.js';
import {
  newStoredTask,
  type NewTask,
  type StoredTask,
  type TaskInputRequest,
  type TaskOutcome,
  type TaskStatus,
  type TaskStore,
} from '../state/task-store.js';
import { guarded } from './redis-connection.js';
import { defineScript, pairs, type RedisScript } from './redis-scripts.js';
import { ASK, CANCEL, CREATE, GET, RENEW, RESPOND, SETTLE } from './task-scripts.js';

export class RedisTaskStore implements TaskStore {
  readonly shared: boolean = true;
  private readonly scripts: Record<'create' | 'get' | 'ask' | 'respond' | 'settle' | 'cancel' | 'renew', RedisScript>;
  private readonly running: string;

  /** At most `maxTasks` unfinished at once; `prefix` starts every key; `where` names the store in errors. */
  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly maxTasks: number,
    private readonly where: string,
  ) {
    this.running = `${prefix}tasks:running`;
    this.scripts = {
      create: defineScript(redis, 'task_create', 2, CREATE),
      get: defineScript(redis, 'task_get', 2, GET),
      ask: defineScript(redis, 'task_ask', 2, ASK),
      respond: defineScript(redis, 'task_respond', 2, RESPOND),
      settle: defineScript(redis, 'task_settle', 2, SETTLE),
      cancel: defineScript(redis, 'task_cancel', 2, CANCEL),
      renew: defineScript(redis, 'task_renew', 2, RENEW),
    };
  }

  create(task: NewTask, now: number): Promise<StoredTask> {
    return guarded(this.where, 'tasks.create', async () => {
      const stored = newStoredTask(task, now);
      const fields: Record<string, string> = {
        taskId: stored.taskId,
        status: stored.status,
        createdAt: String(now),
        lastUpdatedAt: String(now),
        ttlMs: String(stored.ttlMs),
        pollIntervalMs: String(stored.pollIntervalMs),
        expiresAt: String(stored.expiresAt),
        owner: stored.owner,
        leaseUntil: String(stored.leaseUntil),
        cancelRequested: '0',
      };
      if (task.principal !== undefined) fields.principal = task.principal;
      const args = [now, this.maxTasks, Math.max(1, task.ttlMs), stored.leaseUntil, ...Object.entries(fields).flat()];
      if ((await this.scripts.create.run(this.keys(task.taskId), args)) !== 1)
        throw new McpError('INVALID_STATE', `too many tasks in progress (maxTasks ${this.maxTasks})`);
      return stored;
    });
  }

  get(taskId: string, principal: string | undefined, now: number): Promise<StoredTask | undefined> {
    return guarded(this.where, 'tasks.get', async () => {
      const task = parseTask(await this.scripts.get.run(this.keys(taskId), [now]));
      return task && task.principal === principal ? task : undefined;
    });
  }

  ask(taskId: string, key: string, request: TaskInputRequest, now: number): Promise<boolean> {
    return guarded(this.where, 'tasks.ask', async () => {
      const json = JSON.stringify({ method: request.method, params: request.params });
      return (await this.scripts.ask.run(this.keys(taskId), [now, key, json])) === 1;
    });
  }

  respond(taskId: string, responses: Record<string, unknown>, now: number): Promise<StoredTask | undefined> {
    return guarded(this.where, 'tasks.respond', async () => {
      const args: Array<string | number> = [now];
      for (const [key, value] of Object.entries(responses))
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) args.push(key, JSON.stringify(value));
      return parseTask(await this.scripts.respond.run(this.keys(taskId), args));
    });
  }

  settle(taskId: string, outcome: TaskOutcome, now: number): Promise<boolean> {
    return guarded(this.where, 'tasks.settle', async () => {
      const [field, value] = outcome.status === 'completed' ? ['result', outcome.result] : ['error', outcome.error];
      const args = [now, outcome.status, field, JSON.stringify(value)];
      return (await this.scripts.settle.run(this.keys(taskId), args)) === 1;
    });
  }

  cancel(taskId: string, now: number): Promise<StoredTask | undefined> {
    return guarded(this.where, 'tasks.cancel', async () =>
      parseTask(await this.scripts.cancel.run(this.keys(taskId), [now])),
    );
  }

  renew(owner: string, taskIds: readonly string[], leaseUntil: number, now: number): Promise<void> {
    return guarded(this.where, 'tasks.renew', async () => {
      await Promise.all(taskIds.map((id) => this.scripts.renew.run(this.keys(id), [now, owner, leaseUntil])));
    });
  }

  /** The connection is the state set's to release (`redisState().close()`). */
  close(): Promise<void> {
    return Promise.resolve();
  }

  /** The task's key and the set of running tasks: every script's KEYS. */
  private keys(taskId: string): string[] {
    return [`${this.prefix}task:${taskId}`, this.running];
  }
}

/** A task from its hash's fields (a script's HGETALL reply), or undefined for none. */
function parseTask(reply: unknown): StoredTask | undefined {
  const fields = pairs(reply);
  if (fields.taskId === undefined) return undefined;
  const inputRequests: Record<string, TaskInputRequest> = {};
  const inputResponses: Record<string, Record<string, unknown>> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (field.startsWith('in:')) inputRequests[field.slice(3)] = JSON.parse(value) as TaskInputRequest;
    else if (field.startsWith('out:')) inputResponses[field.slice(4)] = JSON.parse(value) as Record<string, unknown>;
  }
  return {
    taskId: fields.taskId,
    status: fields.status as TaskStatus,
    createdAt: Number(fields.createdAt),
    lastUpdatedAt: Number(fields.lastUpdatedAt),
    ttlMs: Number(fields.ttlMs),
    pollIntervalMs: Number(fields.pollIntervalMs),
    expiresAt: Number(fields.expiresAt),
    principal: fields.principal,
    owner: fields.owner ?? '',
    leaseUntil: Number(fields.leaseUntil),
    inputRequests,
    inputResponses,
    result: fields.result === undefined ? undefined : (JSON.parse(fields.result) as Record<string, unknown>),
    error: fields.error === undefined ? undefined : (JSON.parse(fields.error) as StoredTask['error']),
    cancelRequested: fields.cancelRequested === '1',
  };
}

/**
 * The {@link TaskStore} on Redis: one hash per task (`<prefix>task:<taskId>`, layout in
 * `task-scripts.ts`), written before `create` resolves and expiring with the task's TTL
 * (`PEXPIRE`), so nothing outlives it. Every transition (input asked and answered, settled,
 * cancelled, lease renewed or lost) is one Lua script, atomic against every other node.
 */
import type { Redis } from 'ioredis';
import type { NewTask, StoredTask, TaskInputRequest, TaskOutcome, TaskStatus, TaskStore } from '../state/task-store.js';
import { guarded } from './redis-connection.js';
import { defineScript, pairs, type RedisScript } from './redis-scripts.js';
import { ASK, CANCEL, GET, RENEW, RESPOND, SETTLE } from './task-scripts.js';

export class RedisTaskStore implements TaskStore {
  readonly shared: boolean = true;
  private readonly scripts: Record<'get' | 'ask' | 'respond' | 'settle' | 'cancel' | 'renew', RedisScript>;

  /** `prefix` starts every key; `where` names the store in errors. */
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly where: string,
  ) {
    this.scripts = {
      get: defineScript(redis, 'task_get', 1, GET),
      ask: defineScript(redis, 'task_ask', 1, ASK),
      respond: defineScript(redis, 'task_respond', 1, RESPOND),
      settle: defineScript(redis, 'task_settle', 1, SETTLE),
      cancel: defineScript(redis, 'task_cancel', 1, CANCEL),
      renew: defineScript(redis, 'task_renew', 1, RENEW),
    };
  }

  create(task: NewTask, now: number): Promise<StoredTask> {
    return guarded(this.where, 'tasks.create', async () => {
      const stored: StoredTask = {
        taskId: task.taskId,
        status: 'working',
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs: task.ttlMs,
        pollIntervalMs: task.pollIntervalMs,
        expiresAt: now + task.ttlMs,
        principal: task.principal,
        owner: task.owner,
        leaseUntil: now + task.leaseMs,
        inputRequests: {},
        inputResponses: {},
        result: undefined,
        error: undefined,
        cancelRequested: false,
      };
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
      const key = this.key(task.taskId);
      const replies = await this.redis.multi().hset(key, fields).pexpire(key, Math.max(1, task.ttlMs)).exec();
      const failed = replies?.find(([error]) => error);
      if (!replies || failed) throw failed?.[0] ?? new Error('the transaction was discarded');
      return stored;
    });
  }

  get(taskId: string, principal: string | undefined, now: number): Promise<StoredTask | undefined> {
    return guarded(this.where, 'tasks.get', async () => {
      const task = parseTask(await this.scripts.get.run([this.key(taskId)], [now]));
      return task && task.principal === principal ? task : undefined;
    });
  }

  ask(taskId: string, key: string, request: TaskInputRequest, now: number): Promise<boolean> {
    return guarded(this.where, 'tasks.ask', async () => {
      const json = JSON.stringify({ method: request.method, params: request.params });
      return (await this.scripts.ask.run([this.key(taskId)], [now, key, json])) === 1;
    });
  }

  respond(taskId: string, responses: Record<string, unknown>, now: number): Promise<StoredTask | undefined> {
    return guarded(this.where, 'tasks.respond', async () => {
      const args: Array<string | number> = [now];
      for (const [key, value] of Object.entries(responses))
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) args.push(key, JSON.stringify(value));
      return parseTask(await this.scripts.respond.run([this.key(taskId)], args));
    });
  }

  settle(taskId: string, outcome: TaskOutcome, now: number): Promise<boolean> {
    return guarded(this.where, 'tasks.settle', async () => {
      const [field, value] = outcome.status === 'completed' ? ['result', outcome.result] : ['error', outcome.error];
      const args = [now, outcome.status, field, JSON.stringify(value)];
      return (await this.scripts.settle.run([this.key(taskId)], args)) === 1;
    });
  }

  cancel(taskId: string, now: number): Promise<StoredTask | undefined> {
    return guarded(this.where, 'tasks.cancel', async () =>
      parseTask(await this.scripts.cancel.run([this.key(taskId)], [now])),
    );
  }

  renew(owner: string, taskIds: readonly string[], leaseUntil: number, now: number): Promise<void> {
    return guarded(this.where, 'tasks.renew', async () => {
      await Promise.all(taskIds.map((id) => this.scripts.renew.run([this.key(id)], [now, owner, leaseUntil])));
    });
  }

  /** The connection is the state set's to release (`redisState().close()`). */
  close(): Promise<void> {
    return Promise.resolve();
  }

  private key(taskId: string): string {
    return `${this.prefix}task:${taskId}`;
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

/**
 * The in-memory {@link TaskStore}: one process's tasks, at most `maxTasks` (beyond it the oldest
 * ended task is dropped, or creation fails), each gone after its TTL (expired tasks are dropped
 * whenever the store is used: no timer).
 */
import { McpError } from '../../protocol/errors.js';
import {
  LEASE_LOST,
  newStoredTask,
  TERMINAL_STATUSES,
  type NewTask,
  type StoredTask,
  type TaskInputRequest,
  type TaskOutcome,
  type TaskStore,
} from './task-store.js';

/** Options of {@link MemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /** Most tasks held at once (default 1000). */
  maxTasks?: number;
}

export class MemoryTaskStore implements TaskStore {
  readonly shared: boolean = false;
  private readonly tasks = new Map<string, StoredTask>();
  private readonly maxTasks: number;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.maxTasks = options.maxTasks ?? 1000;
  }

  create(task: NewTask, now: number): Promise<StoredTask> {
    this.sweep(now);
    if (this.tasks.size >= this.maxTasks) {
      const ended = [...this.tasks.values()].find((t) => TERMINAL_STATUSES.has(t.status));
      if (!ended)
        return Promise.reject(new McpError('INVALID_STATE', `too many tasks in progress (maxTasks ${this.maxTasks})`));
      this.tasks.delete(ended.taskId);
    }
    const stored = newStoredTask(task, now);
    this.tasks.set(task.taskId, stored);
    return Promise.resolve(copy(stored));
  }

  get(taskId: string, principal: string | undefined, now: number): Promise<StoredTask | undefined> {
    const task = this.live(taskId, now);
    return Promise.resolve(task && task.principal === principal ? copy(task) : undefined);
  }

  ask(taskId: string, key: string, request: TaskInputRequest, now: number): Promise<boolean> {
    const task = this.live(taskId, now);
    if (!task || TERMINAL_STATUSES.has(task.status)) return Promise.resolve(false);
    task.inputRequests[key] = { method: request.method, params: request.params };
    delete task.inputResponses[key];
    task.status = 'input_required';
    task.lastUpdatedAt = now;
    return Promise.resolve(true);
  }

  respond(taskId: string, responses: Record<string, unknown>, now: number): Promise<StoredTask | undefined> {
    const task = this.live(taskId, now);
    if (!task) return Promise.resolve(undefined);
    for (const [key, value] of Object.entries(responses)) {
      if (!Object.hasOwn(task.inputRequests, key) || !isObject(value)) continue;
      delete task.inputRequests[key];
      task.inputResponses[key] = value;
    }
    if (task.status === 'input_required' && Object.keys(task.inputRequests).length === 0) {
      task.status = 'working';
      task.lastUpdatedAt = now;
    }
    return Promise.resolve(copy(task));
  }

  settle(taskId: string, outcome: TaskOutcome, now: number): Promise<boolean> {
    const task = this.live(taskId, now);
    if (!task || TERMINAL_STATUSES.has(task.status)) return Promise.resolve(false);
    task.status = outcome.status;
    if (outcome.status === 'completed') task.result = outcome.result;
    else task.error = outcome.error;
    task.inputRequests = {};
    task.lastUpdatedAt = now;
    return Promise.resolve(true);
  }

  cancel(taskId: string, now: number): Promise<StoredTask | undefined> {
    const task = this.live(taskId, now);
    if (!task) return Promise.resolve(undefined);
    task.cancelRequested = true;
    if (!TERMINAL_STATUSES.has(task.status)) {
      task.status = 'cancelled';
      task.inputRequests = {};
      task.lastUpdatedAt = now;
    }
    return Promise.resolve(copy(task));
  }

  renew(owner: string, taskIds: readonly string[], leaseUntil: number, now: number): Promise<void> {
    for (const id of taskIds) {
      const task = this.live(id, now);
      if (task && task.owner === owner && !TERMINAL_STATUSES.has(task.status))
        task.leaseUntil = Math.max(task.leaseUntil, leaseUntil);
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.tasks.clear();
    return Promise.resolve();
  }

  /** The task unless it expired (then it is dropped); an unfinished task whose lease ran out fails here. */
  private live(taskId: string, now: number): StoredTask | undefined {
    const task = this.tasks.get(taskId);
    if (!task) return undefined;
    if (now >= task.expiresAt) {
      this.tasks.delete(taskId);
      return undefined;
    }
    if (!TERMINAL_STATUSES.has(task.status) && now >= task.leaseUntil) {
      task.status = 'failed';
      task.error = LEASE_LOST;
      task.inputRequests = {};
      task.lastUpdatedAt = now;
    }
    return task;
  }

  private sweep(now: number): void {
    for (const [id, task] of this.tasks) if (now >= task.expiresAt) this.tasks.delete(id);
  }
}

function copy(task: StoredTask): StoredTask {
  return structuredClone(task);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

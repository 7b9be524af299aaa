/**
 * The tasks of the 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) that
 * one server process holds: a task is a tool call the server answered with `CreateTaskResult`
 * and runs on; the client polls it with `tasks/get`, answers its input with `tasks/update` and
 * stops it with `tasks/cancel`. Held in memory, bounded in number, each kept for its `ttlMs`
 * after creation (expired tasks are dropped when the store is next used: no timer).
 */
import { randomUUID } from 'node:crypto';
import { McpError } from '../protocol/errors.js';
import { EXTENSION_IDS } from '../protocol/meta-keys.js';

/** The extension's identifier, under `capabilities.extensions` on both sides. */
export const TASKS_EXTENSION = EXTENSION_IDS.tasks;

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** One pending input request of a task, keyed in `inputRequests`. */
interface PendingInput {
  method: string;
  params: Record<string, unknown>;
  resolve(answer: Record<string, unknown>): void;
}

/** One task: its wire facts and what runs it. */
export class TaskRecord {
  status: TaskStatus = 'working';
  readonly createdAt = new Date().toISOString();
  lastUpdatedAt = this.createdAt;
  /** The tool's result once `completed`. */
  result: Record<string, unknown> | undefined;
  /** The JSON-RPC error once `failed`. */
  error: { code: number; message: string } | undefined;
  private readonly pending = new Map<string, PendingInput>();

  constructor(
    readonly taskId: string,
    readonly ttlMs: number,
    readonly pollIntervalMs: number,
    private readonly expiresAt: number,
    /** Aborted by `tasks/cancel`, expiry and the server's close: the handler's signal. */
    readonly controller: AbortController,
  ) {}

  get terminal(): boolean {
    return TERMINAL.has(this.status);
  }

  expired(now: number): boolean {
    return now >= this.expiresAt;
  }

  /** Moves to `status` unless the task already ended (a late result of a cancelled task is dropped). */
  settle(
    status: 'completed' | 'failed' | 'cancelled',
    outcome?: { result?: Record<string, unknown>; error?: { code: number; message: string } },
  ): boolean {
    if (this.terminal) return false;
    this.status = status;
    this.result = outcome?.result;
    this.error = outcome?.error;
    this.pending.clear();
    this.touch();
    if (status === 'cancelled') this.controller.abort(new McpError('CANCELLED', `task ${this.taskId} was cancelled`));
    return true;
  }

  /**
   * Parks the handler on one input request until `tasks/update` answers it under `key`; the task
   * is `input_required` while any is pending. Rejects with `CANCELLED` when the task ends first.
   */
  ask(key: string, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (this.terminal) return Promise.reject(new McpError('CANCELLED', `task ${this.taskId} has ended`, { method }));
    const signal = this.controller.signal;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.pending.delete(key);
        reject(
          new McpError('CANCELLED', `task ${this.taskId} was cancelled while it waited for ${method}`, { method }),
        );
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(key, {
        method,
        params,
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      });
      this.status = 'input_required';
      this.touch();
    });
  }

  /** Hands `tasks/update` answers to the input requests waiting for them; unknown keys are ignored. */
  answer(responses: Record<string, unknown>): void {
    for (const [key, value] of Object.entries(responses)) {
      const waiting = this.pending.get(key);
      if (!waiting || typeof value !== 'object' || value === null || Array.isArray(value)) continue;
      this.pending.delete(key);
      waiting.resolve(value as Record<string, unknown>);
    }
    if (this.pending.size === 0 && this.status === 'input_required') {
      this.status = 'working';
      this.touch();
    }
  }

  /** The task as `CreateTaskResult` carries it (no result, error or input requests). */
  summary(): Record<string, unknown> {
    return {
      taskId: this.taskId,
      status: this.status,
      createdAt: this.createdAt,
      lastUpdatedAt: this.lastUpdatedAt,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
    };
  }

  /** The task as `tasks/get` returns it (SEP-2663 DetailedTask): the result, error or input requests inlined. */
  detailed(): Record<string, unknown> {
    const out = this.summary();
    if (this.status === 'completed' && this.result) out.result = this.result;
    if (this.status === 'failed' && this.error) out.error = this.error;
    if (this.status === 'input_required')
      out.inputRequests = Object.fromEntries(
        [...this.pending].map(([key, p]) => [key, { method: p.method, params: p.params }]),
      );
    return out;
  }

  private touch(): void {
    this.lastUpdatedAt = new Date().toISOString();
  }
}

/** Options of {@link TaskStore}. */
export interface TaskStoreOptions {
  /** How long a task is kept after its creation (default one hour). */
  ttlMs?: number;
  /** How often clients are told to poll (default 500 ms). */
  pollIntervalMs?: number;
  /** Most tasks held at once (default 1000); beyond it the oldest ended task is dropped, or creation fails. */
  maxTasks?: number;
}

/** The tasks of one server. */
export class TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly ttlMs: number;
  private readonly pollIntervalMs: number;
  private readonly maxTasks: number;

  constructor(options: TaskStoreOptions = {}) {
    this.ttlMs = options.ttlMs ?? 3_600_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.maxTasks = options.maxTasks ?? 1000;
  }

  /**
   * A new `working` task whose handler `controller` aborts. Throws `INVALID_STATE` when
   * `maxTasks` are held and none has ended.
   */
  create(controller: AbortController): TaskRecord {
    this.sweep();
    if (this.tasks.size >= this.maxTasks) {
      const ended = [...this.tasks.values()].find((task) => task.terminal);
      if (!ended) throw new McpError('INVALID_STATE', `too many tasks in progress (maxTasks ${this.maxTasks})`);
      this.tasks.delete(ended.taskId);
    }
    const task = new TaskRecord(randomUUID(), this.ttlMs, this.pollIntervalMs, Date.now() + this.ttlMs, controller);
    this.tasks.set(task.taskId, task);
    return task;
  }

  /** The task of `taskId`, or undefined when it is unknown or expired. */
  get(taskId: unknown): TaskRecord | undefined {
    this.sweep();
    return typeof taskId === 'string' ? this.tasks.get(taskId) : undefined;
  }

  /** Cancels every task still running (the server is closing). Idempotent. */
  cancelAll(): void {
    for (const task of this.tasks.values()) task.settle('cancelled');
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, task] of this.tasks) {
      if (!task.expired(now)) continue;
      task.settle('cancelled');
      this.tasks.delete(id);
    }
  }
}

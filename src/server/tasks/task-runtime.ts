/**
 * The tasks of the 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) as this
 * node runs them: a task is a tool call the server answered with `CreateTaskResult` and runs on;
 * the client polls it with `tasks/get`, answers its input with `tasks/update` and stops it with
 * `tasks/cancel`, on any node. What a task is lives in the {@link TaskStore} seam; this node keeps
 * only what runs its own tasks (each handler's controller and its input waiters), re-reads a task
 * when the change bus says it changed, and renews its lease while a handler runs (one unref'd
 * timer, only while this node runs a task). A task that expires or is cancelled has its handler
 * aborted.
 */
import { McpError } from '../../protocol/errors.js';
import { EXTENSION_IDS } from '../../protocol/meta-keys.js';
import type { ChangeBus } from '../state/change-bus.js';
import {
  TERMINAL_STATUSES,
  type StoredTask,
  type TaskInputRequest,
  type TaskOutcome,
  type TaskStore,
} from '../state/task-store.js';
import type { ServerLogger } from '../server-types.js';
import { isStateUnavailable, stateUnavailable } from '../state/state-unavailable.js';

/** The extension's identifier, under `capabilities.extensions` on both sides. */
export const TASKS_EXTENSION = EXTENSION_IDS.tasks;

/** Options of {@link TaskRuntime} (McpServer's `tasks`). */
export interface TaskRuntimeOptions {
  /** How long a task is kept after its creation (default one hour). */
  ttlMs?: number;
  /** How often clients are told to poll (default 500 ms). */
  pollIntervalMs?: number;
  /** How long a node's claim on a running task holds unrenewed (default 30 s): a dead node's tasks fail after it. */
  leaseMs?: number;
}

/** One task this node runs. */
interface LocalTask {
  readonly principal: string | undefined;
  readonly expiresAt: number;
  readonly controller: AbortController;
  /** Input requests waiting for `tasks/update`, by key. */
  readonly waiters: Map<string, (answer: Record<string, unknown>) => void>;
}

/** This node's side of the tasks of one server. */
export class TaskRuntime {
  private readonly local = new Map<string, LocalTask>();
  private readonly ttlMs: number;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private renewer: NodeJS.Timeout | undefined;

  constructor(
    readonly store: TaskStore,
    private readonly bus: ChangeBus,
    /** Whose node id names this node's tasks (read when first needed: see `state/node-id.ts`). */
    private readonly node: { readonly nodeId: string },
    private readonly logger: ServerLogger,
    options: TaskRuntimeOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 3_600_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.leaseMs = options.leaseMs ?? 30_000;
  }

  /**
   * Stores a new `working` task run here by the handler `controller` aborts; resolves once
   * stored (only then may its id reach the client). Rejects `INVALID_STATE` when the store is
   * full, `STATE_UNAVAILABLE` when it cannot be reached.
   */
  async create(taskId: string, principal: string | undefined, controller: AbortController): Promise<StoredTask> {
    const now = Date.now();
    this.sweep(now);
    const stored = await this.reach('the task could not be created', taskId, () =>
      this.store.create(
        {
          taskId,
          principal,
          owner: this.node.nodeId,
          ttlMs: this.ttlMs,
          pollIntervalMs: this.pollIntervalMs,
          leaseMs: this.leaseMs,
        },
        now,
      ),
    );
    this.local.set(taskId, { principal, expiresAt: stored.expiresAt, controller, waiters: new Map() });
    this.renewing();
    return stored;
  }

  /**
   * The task of `taskId` for `principal`, or undefined when unknown, expired or another's.
   * Rejects `STATE_UNAVAILABLE` when the store cannot be reached.
   */
  get(taskId: string, principal: string | undefined): Promise<StoredTask | undefined> {
    const now = Date.now();
    this.sweep(now);
    return this.reach('the task could not be read', taskId, () => this.store.get(taskId, principal, now));
  }

  /**
   * Parks a handler of this node on one input request until `tasks/update` (on any node) answers
   * it under `key`; the task is `input_required` meanwhile. Rejects with `CANCELLED` when the
   * task ends first.
   */
  ask(taskId: string, key: string, request: TaskInputRequest): Promise<Record<string, unknown>> {
    const task = this.local.get(taskId);
    const method = request.method;
    if (!task || task.controller.signal.aborted)
      return Promise.reject(new McpError('CANCELLED', `task ${taskId} has ended`, { method }));
    const signal = task.controller.signal;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        task.waiters.delete(key);
        reject(new McpError('CANCELLED', `task ${taskId} was cancelled while it waited for ${method}`, { method }));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      task.waiters.set(key, (answer) => {
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
      });
      this.store.ask(taskId, key, request, Date.now()).then(
        (asked) => {
          if (!asked) this.abort(taskId, new McpError('CANCELLED', `task ${taskId} has ended`, { method }));
        },
        (error: unknown) => this.failed('the task store refused an input request', taskId, error),
      );
    });
  }

  /**
   * Answers input requests (`tasks/update`) and wakes the owner. Resolves with the task after, or
   * undefined. Rejects `STATE_UNAVAILABLE` when the store or the bus cannot be reached.
   */
  async respond(
    taskId: string,
    principal: string | undefined,
    responses: Record<string, unknown>,
  ): Promise<StoredTask | undefined> {
    if (!(await this.get(taskId, principal))) return undefined;
    return this.reach('the task could not be answered', taskId, async () => {
      const task = await this.store.respond(taskId, responses, Date.now());
      if (task) await this.bus.publish({ type: 'task', taskId });
      return task;
    });
  }

  /**
   * Cancels a task (`tasks/cancel`) and wakes the owner, which aborts its handler. Idempotent.
   * Rejects `STATE_UNAVAILABLE` when the store or the bus cannot be reached.
   */
  async cancel(taskId: string, principal: string | undefined): Promise<StoredTask | undefined> {
    if (!(await this.get(taskId, principal))) return undefined;
    return this.reach('the task could not be cancelled', taskId, async () => {
      const task = await this.store.cancel(taskId, Date.now());
      if (task) await this.bus.publish({ type: 'task', taskId });
      return task;
    });
  }

  /** Ends a task of this node with its handler's outcome (dropped when it already ended). */
  async settle(taskId: string, outcome: TaskOutcome): Promise<void> {
    this.local.delete(taskId);
    this.renewing();
    await this.store.settle(taskId, outcome, Date.now());
  }

  /** The bus says `taskId` changed: a task of this node re-reads its row (answers, cancel). */
  changed(taskId: string): void {
    if (this.local.has(taskId)) void this.reread(taskId);
  }

  /** The bus may have lost messages: every task of this node re-reads its row. */
  resync(): void {
    for (const taskId of this.local.keys()) void this.reread(taskId);
  }

  /** Cancels every task this node runs (the server is closing). Idempotent. */
  async cancelAll(): Promise<void> {
    const ids = [...this.local.keys()];
    for (const taskId of ids) this.abort(taskId, new McpError('CANCELLED', `task ${taskId} was cancelled`));
    const now = Date.now();
    await Promise.all(ids.map((taskId) => this.store.cancel(taskId, now).catch(() => undefined)));
  }

  /** Never rejects: a store failure is logged, and the task's handler goes on until its lease tells. */
  private async reread(taskId: string): Promise<void> {
    const local = this.local.get(taskId);
    if (!local) return;
    let task: StoredTask | undefined;
    try {
      task = await this.store.get(taskId, local.principal, Date.now());
    } catch (error) {
      return this.failed('the task store could not be read', taskId, error);
    }
    if (!task || task.cancelRequested || TERMINAL_STATUSES.has(task.status))
      return this.abort(taskId, new McpError('CANCELLED', `task ${taskId} was cancelled`));
    for (const [key, answer] of Object.entries(task.inputResponses)) {
      const waiter = local.waiters.get(key);
      if (!waiter) continue;
      local.waiters.delete(key);
      waiter(answer);
    }
  }

  private abort(taskId: string, reason: McpError): void {
    const task = this.local.get(taskId);
    if (!task) return;
    this.local.delete(taskId);
    this.renewing();
    task.controller.abort(reason);
  }

  /** Aborts the handlers of this node's tasks that expired. */
  private sweep(now: number): void {
    for (const [taskId, task] of this.local)
      if (now >= task.expiresAt) this.abort(taskId, new McpError('CANCELLED', `task ${taskId} was cancelled`));
  }

  /** Renews this node's leases every third of `leaseMs` while it runs a task; no timer otherwise. */
  private renewing(): void {
    if (this.local.size > 0 && !this.renewer) {
      this.renewer = setInterval(
        () => {
          const now = Date.now();
          this.sweep(now);
          this.store
            .renew(this.node.nodeId, [...this.local.keys()], now + this.leaseMs, now)
            .catch((error: unknown) => this.failed('the task leases could not be renewed', undefined, error));
        },
        Math.max(1, Math.floor(this.leaseMs / 3)),
      );
      this.renewer.unref();
    } else if (this.local.size === 0 && this.renewer) {
      clearInterval(this.renewer);
      this.renewer = undefined;
    }
  }

  /**
   * `work` on the shared state for a request: a store's refusal of its own (`INVALID_STATE`, a
   * store full of running tasks) passes through; any other failure is the store out of reach,
   * logged for the operator under `msg` and rejected as `STATE_UNAVAILABLE` (its text names no
   * internals).
   */
  private async reach<T>(msg: string, taskId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isStateUnavailable(error) || (error instanceof McpError && error.code === 'INVALID_STATE')) throw error;
      this.failed(msg, taskId, error);
      throw stateUnavailable(error);
    }
  }

  private failed(msg: string, taskId: string | undefined, error: unknown): void {
    this.logger({
      level: 'error',
      msg,
      ...(taskId === undefined ? {} : { taskId }),
      error: error instanceof Error ? error.message : 'a non-Error value',
    });
  }
}

/** The task as `CreateTaskResult` carries it (no result, error or input requests). */
export function taskSummary(task: StoredTask): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
}

/** The task as `tasks/get` returns it (SEP-2663 DetailedTask): the result, error or input requests inlined. */
export function taskDetails(task: StoredTask): Record<string, unknown> {
  const out = taskSummary(task);
  if (task.status === 'completed' && task.result) out.result = task.result;
  if (task.status === 'failed' && task.error) out.error = task.error;
  if (task.status === 'input_required') out.inputRequests = task.inputRequests;
  return out;
}

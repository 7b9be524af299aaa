/**
 * The task store seam (2026-07-28 tasks extension, SEP-2663): what a task is on every node —
 * status, input requests and their answers, result or error, cancel requested, the node that runs
 * it and how long its lease holds, its TTL. The node that runs a task (its owner) keeps only the
 * handler's signal and waiters in memory; every other fact lives here, so `tasks/get`,
 * `tasks/update` and `tasks/cancel` may land on any node. After a write another node must act on
 * (answers, a cancel), the kit publishes `{ type: 'task' }` on the change bus; the owner re-reads.
 *
 * Rules every implementation keeps (`test/support/state-contract.ts` checks them):
 * - `create` resolves only once `get` on any node finds the task (the id goes to the client after);
 * - a task past `expiresAt` is gone (not found, and deleted when next touched or by trimming);
 * - an unfinished task whose `leaseUntil` passed is `failed` (its owner died), persisted so;
 * - a terminal task (`completed`, `failed`, `cancelled`) never changes status again;
 * - `get` of another principal's task finds nothing.
 */

/** The states of a task. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The statuses a task ends in. */
export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** One input request of a task (`elicitation/create`, `sampling/createMessage`, `roots/list`). */
export interface TaskInputRequest {
  method: string;
  params: Record<string, unknown>;
}

/** A JSON-RPC error a `failed` task carries. */
export interface TaskError {
  code: number;
  message: string;
}

/** The error of a task whose owner's lease ran out. */
export const LEASE_LOST: TaskError = { code: -32603, message: 'the server running the task stopped' };

/** A task as stored. Times are epoch milliseconds. */
export interface StoredTask {
  readonly taskId: string;
  status: TaskStatus;
  readonly createdAt: number;
  lastUpdatedAt: number;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** `createdAt + ttlMs`: from then on the task is gone. */
  readonly expiresAt: number;
  /** Who made it (see `principal.ts`); another principal does not find it. */
  readonly principal: string | undefined;
  /** The node id of the process running the handler. */
  readonly owner: string;
  /** Until when the owner's lease holds; the owner renews it while the handler runs. */
  leaseUntil: number;
  /** Input requests still waiting for an answer, by key (`input_required` while any is). */
  inputRequests: Record<string, TaskInputRequest>;
  /** Answers given by `tasks/update` to keys asked for, by key; the owner takes them from here. */
  inputResponses: Record<string, Record<string, unknown>>;
  /** The tool's result once `completed`. */
  result: Record<string, unknown> | undefined;
  /** The error once `failed`. */
  error: TaskError | undefined;
  /** Set by `tasks/cancel` (on any node): the owner aborts the handler. */
  cancelRequested: boolean;
}

/** What {@link TaskStore.create} is given. */
export interface NewTask {
  /** Unguessable (the kit uses a random UUID). */
  taskId: string;
  principal: string | undefined;
  owner: string;
  ttlMs: number;
  pollIntervalMs: number;
  leaseMs: number;
}

/** The row a store keeps for `task` created at `now`: working, leased to its owner, nothing asked yet. */
export function newStoredTask(task: NewTask, now: number): StoredTask {
  return {
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
}

/** How a task's handler ended. */
export type TaskOutcome =
  { status: 'completed'; result: Record<string, unknown> } | { status: 'failed'; error: TaskError };

/** Where tasks live. Every method takes the caller's `now` (epoch ms) so a test can move time. */
export interface TaskStore {
  /** True when other processes see what is stored here (requires a shared `stateSecret`). */
  readonly shared: boolean;
  /**
   * Stores a new `working` task and resolves with it once stored. Rejects `INVALID_STATE` when
   * the store holds as many unfinished tasks as it may (the message names the bound).
   */
  create(task: NewTask, now: number): Promise<StoredTask>;
  /** The task (a copy), or undefined when unknown, expired or another principal's. */
  get(taskId: string, principal: string | undefined, now: number): Promise<StoredTask | undefined>;
  /** Records an input request under `key`; the task becomes `input_required`. False when it ended or is gone. */
  ask(taskId: string, key: string, request: TaskInputRequest, now: number): Promise<boolean>;
  /**
   * Answers input requests: each key asked for and not yet answered moves from `inputRequests` to
   * `inputResponses` (other keys and non-object values are ignored); with none left the task is
   * `working` again. Resolves with the task after, or undefined when it is gone.
   */
  respond(taskId: string, responses: Record<string, unknown>, now: number): Promise<StoredTask | undefined>;
  /** Ends the task with `outcome` unless it already ended; resolves with whether it did. */
  settle(taskId: string, outcome: TaskOutcome, now: number): Promise<boolean>;
  /**
   * Marks cancel requested and, unless it already ended, makes the task `cancelled` (its input
   * requests dropped). Resolves with the task after, or undefined when it is gone. Idempotent.
   */
  cancel(taskId: string, now: number): Promise<StoredTask | undefined>;
  /** Extends the lease of `owner`'s unfinished tasks among `taskIds` to `leaseUntil`. */
  renew(owner: string, taskIds: readonly string[], leaseUntil: number, now: number): Promise<void>;
  /** Releases what the store holds open (connections). Idempotent. */
  close(): Promise<void>;
}

/**
 * The `state` option of `McpServer`: where the kit keeps what must outlive one request, and who
 * this process is among the nodes sharing it. Every seam defaults to its in-memory
 * implementation (one process, today's behaviour). Once any seam given is shared
 * (`shared: true`: PostgreSQL, Redis), `stateSecret` is required, so that a `requestState` minted
 * on one node is accepted on every other.
 */
import { McpError } from '../../protocol/errors.js';
import { DEFAULT_INPUT_STATE_TTL_MS, InputStateSigner } from '../input/input-state.js';
import type { ChangeBus } from './change-bus.js';
import type { EventLog } from './event-log.js';
import { MemoryChangeBus } from './memory-change-bus.js';
import { MemoryTaskStore } from './memory-task-store.js';
import { checkNodeId, newNodeId } from './node-id.js';
import type { SessionStore } from './session-store.js';
import type { TaskStore } from './task-store.js';

/** Options of `McpServer`'s `state`. */
export interface ServerStateOptions {
  /** This process's id among the nodes (letters, digits, `_`, `-`; default random per process). */
  nodeId?: string;
  /**
   * The secret that signs 2026-07-28 `requestState` (at least 16 characters): the same on every
   * node. Default random per process; required once a shared store or bus is given.
   */
  stateSecret?: string;
  /** How long a `requestState` stays valid after it is minted (default 10 minutes). */
  requestStateTtlMs?: number;
  /** The change bus (default in memory). */
  bus?: ChangeBus;
  /** The 2026 tasks (default in memory, bounded by `tasks.maxTasks`). */
  tasks?: TaskStore;
  /** Legacy sessions of `createHttpHandler` (default in memory, idle after `sessionIdleMs`). */
  sessions?: SessionStore;
  /** SSE events of legacy sessions for `Last-Event-ID` (default in memory). */
  events?: EventLog;
}

/** The state a server runs on, defaults filled in. */
export interface ServerState {
  readonly nodeId: string;
  readonly bus: ChangeBus;
  readonly tasks: TaskStore;
  /** Undefined: the HTTP handler makes an in-memory one with its own idle time. */
  readonly sessions: SessionStore | undefined;
  /** Undefined: the HTTP handler makes an in-memory one. */
  readonly events: EventLog | undefined;
  readonly inputState: InputStateSigner;
}

const KEYS = new Set(['nodeId', 'stateSecret', 'requestStateTtlMs', 'bus', 'tasks', 'sessions', 'events']);
const SEAMS = ['bus', 'tasks', 'sessions', 'events'] as const;

/**
 * The server's state from its options (`legacySecret`: the top-level `stateSecret`, same
 * meaning). Throws `INVALID_ARGUMENT` naming the option for an unknown key, a bad value, both
 * secrets given, or a shared seam without `state.stateSecret`.
 */
export function resolveState(
  options: ServerStateOptions | undefined,
  legacySecret: string | undefined,
  maxTasks: number | undefined,
): ServerState {
  const given = options ?? {};
  if (typeof given !== 'object' || given === null)
    throw new McpError('INVALID_ARGUMENT', 'McpServer option "state" must be an object');
  for (const key of Object.keys(given))
    if (!KEYS.has(key)) throw new McpError('INVALID_ARGUMENT', `unknown McpServer option "state.${key}"`);
  if (given.stateSecret !== undefined && legacySecret !== undefined)
    throw new McpError('INVALID_ARGUMENT', 'McpServer options "stateSecret" and "state.stateSecret": give one');
  const secret = given.stateSecret ?? legacySecret;
  if (secret !== undefined && (typeof secret !== 'string' || secret.length < 16))
    throw new McpError('INVALID_ARGUMENT', 'McpServer option "state.stateSecret" must be a string of 16+ characters');
  for (const seam of SEAMS) {
    const value = given[seam];
    if (value !== undefined && (typeof value !== 'object' || value === null || typeof value.shared !== 'boolean'))
      throw new McpError('INVALID_ARGUMENT', `McpServer option "state.${seam}" must be a ${seam} store`);
  }
  const shared = SEAMS.filter((seam) => given[seam]?.shared === true);
  if (shared.length > 0 && secret === undefined)
    throw new McpError(
      'INVALID_ARGUMENT',
      `McpServer option "state.stateSecret" is required with a shared store (state.${shared.join(', state.')}): ` +
        'every node must sign requestState with the same secret',
    );
  const ttl = given.requestStateTtlMs ?? DEFAULT_INPUT_STATE_TTL_MS;
  if (!Number.isInteger(ttl) || ttl < 1)
    throw new McpError('INVALID_ARGUMENT', 'McpServer option "state.requestStateTtlMs" must be a positive integer');
  let nodeId = given.nodeId === undefined ? undefined : checkNodeId(given.nodeId, 'McpServer option "state.nodeId"');
  return {
    // Drawn on first use: a Worker may not draw random numbers while its module loads.
    get nodeId() {
      return (nodeId ??= newNodeId());
    },
    bus: given.bus ?? new MemoryChangeBus(),
    tasks: given.tasks ?? new MemoryTaskStore(maxTasks === undefined ? {} : { maxTasks }),
    sessions: given.sessions,
    events: given.events,
    inputState: new InputStateSigner(secret, ttl),
  };
}

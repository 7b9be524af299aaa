/**
 * `postgresState(options)`: every seam of the server kit's state on one PostgreSQL database — the
 * change bus (`LISTEN`/`NOTIFY`), the task store, the legacy session store, the SSE event log —
 * plus the DPoP replay cache, sharing one pool and one `LISTEN` connection. The value is what
 * `McpServer`'s `state` option takes (with `nodeId` and `stateSecret` when given here), plus
 * `replayCache` for `auth.dpop`, `migrate()` and `close()`.
 */
import { McpError } from '../../protocol/errors.js';
import { stderrLogger } from '../server-log.js';
import type { ServerLogger } from '../server-types.js';
import type { ServerStateOptions } from '../state/server-state.js';
import { PgChangeBus } from './pg-change-bus.js';
import { PgDatabase } from './pg-database.js';
import { lazyPool, type PgPool } from './pg-driver.js';
import { PgEventLog } from './pg-event-log.js';
import { PgListener } from './pg-listener.js';
import { PgReplayCache } from './pg-replay-cache.js';
import { PgSessionStore } from './pg-session-store.js';
import { PgTaskStore } from './pg-task-store.js';
import { tableNames } from './schema.js';

/** Options of {@link postgresState}. Give `pool` or `connectionString`. */
export interface PostgresStateOptions {
  /** A `pg.Pool` the caller owns (and ends after `close()`); give it `connectionTimeoutMillis` and `query_timeout`. */
  pool?: PgPool;
  /** A `postgres://` URL: the state makes (and ends) a pool of its own. */
  connectionString?: string;
  /** Connections of the state's own pool (default 10; one of them listens). */
  maxConnections?: number;
  /** How long the own pool waits for a connection before a call fails (default 5 s). */
  connectTimeoutMs?: number;
  /** How long a statement on the own pool may run before it fails (default 10 s). */
  queryTimeoutMs?: number;
  /** This process's id among the nodes (passed on as `state.nodeId`). */
  nodeId?: string;
  /** The secret every node signs `requestState` with (passed on as `state.stateSecret`). */
  stateSecret?: string;
  /** The schema of the tables (default: the connection's `search_path`, usually `public`). */
  schema?: string;
  /** What every table's name starts with (default `mcp_`). */
  tablePrefix?: string;
  /** Whether the first call makes missing tables (default true); false: run `migrate()` yourself. */
  autoMigrate?: boolean;
  /** How long a legacy session may go unseen (default 30 minutes; at least the handler's `sessionIdleMs`). */
  sessionIdleMs?: number;
  /** Most unfinished tasks across all nodes (default 10 000). */
  maxTasks?: number;
  /** Most events kept per SSE stream (default 256). */
  maxEventsPerStream?: number;
  /** Most bytes of events kept per SSE stream (default 1 MiB). */
  maxEventBytesPerStream?: number;
  /** Most SSE streams kept per session (default 16). */
  maxStreamsPerSession?: number;
  /** How long an SSE stream is kept after its last write (default 30 minutes). */
  eventTtlMs?: number;
  /** How often a follower of an SSE stream re-reads without a notification (default 1 s). */
  followPollMs?: number;
  /**
   * How often the listening connection is checked (`SELECT 1`, answered within the same time; default
   * 10 s): one that died without a reset is replaced, and subscribers resync.
   */
  listenCheckMs?: number;
  /** Least time between two deletions of expired tasks and DPoP proofs (default 1 minute). */
  sweepEveryMs?: number;
  /** Where the listening connection's failures are logged (default stderr, once per outage). */
  logger?: ServerLogger;
}

const KEYS = new Set([
  'pool',
  'connectionString',
  'maxConnections',
  'connectTimeoutMs',
  'queryTimeoutMs',
  'nodeId',
  'stateSecret',
  'schema',
  'tablePrefix',
  'autoMigrate',
  'sessionIdleMs',
  'maxTasks',
  'maxEventsPerStream',
  'maxEventBytesPerStream',
  'maxStreamsPerSession',
  'eventTtlMs',
  'followPollMs',
  'listenCheckMs',
  'sweepEveryMs',
  'logger',
]);
const SWEEP_BATCH = 1000;

/** The PostgreSQL state; its own enumerable fields are exactly what `McpServer`'s `state` takes. */
export class PostgresState implements ServerStateOptions {
  declare readonly nodeId?: string;
  declare readonly stateSecret?: string;
  readonly bus: PgChangeBus;
  readonly tasks: PgTaskStore;
  readonly sessions: PgSessionStore;
  readonly events: PgEventLog;

  /** Use {@link postgresState}. */
  constructor(options: PostgresStateOptions) {
    const given = check(options);
    const ownPool = given.pool === undefined;
    const pool =
      given.pool ??
      lazyPool({
        connectionString: given.connectionString!,
        max: given.maxConnections ?? 10,
        connectionTimeoutMillis: given.connectTimeoutMs ?? 5_000,
        query_timeout: given.queryTimeoutMs ?? 10_000,
        idleTimeoutMillis: 30_000,
        keepAlive: true,
        application_name: 'mcpwire',
      });
    const tables = tableNames(given.schema, given.tablePrefix ?? 'mcp_');
    const db = new PgDatabase(pool, tables, given.autoMigrate !== false);
    const logger = given.logger ?? stderrLogger;
    const checkMs = given.listenCheckMs ?? 10_000;
    const listener = new PgListener(pool, [tables.busChannel, tables.eventChannel], 2_000, checkMs, (error) =>
      logger({
        level: 'warning',
        msg: 'PostgreSQL state: the LISTEN connection failed; reconnecting (changes meanwhile are re-read after)',
        error: error instanceof Error ? error.message : 'a non-Error value',
      }),
    );
    const followPollMs = given.followPollMs ?? 1_000;
    const sweepEveryMs = given.sweepEveryMs ?? 60_000;
    if (given.nodeId !== undefined) define(this, 'nodeId', given.nodeId);
    if (given.stateSecret !== undefined) define(this, 'stateSecret', given.stateSecret);
    this.bus = new PgChangeBus(db, listener, given.connectTimeoutMs ?? 5_000);
    this.tasks = new PgTaskStore(db, given.maxTasks ?? 10_000, sweepEveryMs, SWEEP_BATCH);
    this.sessions = new PgSessionStore(db, given.sessionIdleMs ?? 30 * 60_000, SWEEP_BATCH);
    this.events = new PgEventLog(db, listener, {
      maxEvents: given.maxEventsPerStream ?? 256,
      maxBytes: given.maxEventBytesPerStream ?? 1_048_576,
      maxStreamsPerSession: given.maxStreamsPerSession ?? 16,
      ttlMs: given.eventTtlMs ?? 30 * 60_000,
      followPollMs,
      sweepBatch: SWEEP_BATCH,
    });
    // Kept off the instance: the state option refuses keys it does not know.
    hidden.set(this, {
      db,
      listener,
      ownPool,
      replayCache: new PgReplayCache(db, sweepEveryMs, SWEEP_BATCH),
      closed: undefined,
    });
  }

  /** The DPoP replay cache on the same database: give it as `auth.dpop.replayCache` on every node. */
  get replayCache(): PgReplayCache {
    return inner(this).replayCache;
  }

  /** The pool the stores use. */
  get pool(): PgPool {
    return inner(this).db.pool;
  }

  /**
   * The schema (undefined: the connection's search path) and table prefix of the stores' tables,
   * for tables of your own beside them on the same pool (the gateway's rate-limit buckets).
   */
  get tableNaming(): { readonly schema: string | undefined; readonly prefix: string } {
    const { schema, prefix } = inner(this).db.tables;
    return { schema, prefix };
  }

  /**
   * Makes the tables and indexes when missing: idempotent, and safe when several nodes run it at
   * once (one transaction under an advisory lock). Rejects `TRANSPORT` naming the database's error.
   */
  migrate(): Promise<void> {
    return inner(this).db.migrate();
  }

  /**
   * Stops listening, finishes this node's followers and ends the state's own pool (a pool given in
   * the options is left to its owner). Close the servers using it first. Idempotent.
   */
  close(): Promise<void> {
    const state = inner(this);
    return (state.closed ??= (async () => {
      await Promise.all([this.bus.close(), this.events.close(), this.tasks.close(), this.sessions.close()]);
      state.listener.close();
      if (state.ownPool) await state.db.pool.end();
    })());
  }
}

/** What a {@link PostgresState} keeps out of its enumerable fields. */
interface Inner {
  db: PgDatabase;
  listener: PgListener;
  ownPool: boolean;
  replayCache: PgReplayCache;
  closed: Promise<void> | undefined;
}

const hidden = new WeakMap<PostgresState, Inner>();

function inner(state: PostgresState): Inner {
  return hidden.get(state)!;
}

function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true });
}

/**
 * The server kit's state on PostgreSQL: `new McpServer({ …, state: postgresState({ connectionString,
 * stateSecret }) })`. Nothing connects until the first call (tables are made then, unless
 * `autoMigrate: false`). Throws `INVALID_ARGUMENT` naming the option for a bad or unknown option.
 */
export function postgresState(options: PostgresStateOptions): PostgresState {
  return new PostgresState(options);
}

function check(options: PostgresStateOptions): PostgresStateOptions {
  if (typeof options !== 'object' || options === null)
    throw new McpError('INVALID_ARGUMENT', 'postgresState needs an options object');
  for (const key of Object.keys(options))
    if (!KEYS.has(key)) throw new McpError('INVALID_ARGUMENT', `unknown postgresState option "${key}"`);
  const { pool, connectionString } = options;
  if ((pool === undefined) === (connectionString === undefined))
    throw new McpError('INVALID_ARGUMENT', 'postgresState needs one of the options "pool" and "connectionString"');
  if (pool !== undefined && (typeof pool !== 'object' || pool === null || typeof pool.query !== 'function'))
    throw new McpError('INVALID_ARGUMENT', 'postgresState option "pool" must be a pg.Pool');
  if (connectionString !== undefined && (typeof connectionString !== 'string' || connectionString === ''))
    throw new McpError('INVALID_ARGUMENT', 'postgresState option "connectionString" must be a postgres:// URL');
  for (const key of [
    'maxConnections',
    'connectTimeoutMs',
    'queryTimeoutMs',
    'sessionIdleMs',
    'maxTasks',
    'maxEventsPerStream',
    'maxEventBytesPerStream',
    'maxStreamsPerSession',
    'eventTtlMs',
    'followPollMs',
    'listenCheckMs',
    'sweepEveryMs',
  ] as const) {
    const value = options[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 1))
      throw new McpError('INVALID_ARGUMENT', `postgresState option "${key}" must be a positive integer`);
  }
  if ((options.maxConnections ?? 2) < 2)
    throw new McpError('INVALID_ARGUMENT', 'postgresState option "maxConnections" must be 2 or more (one listens)');
  return options;
}

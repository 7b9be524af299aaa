/**
 * `redisState()`: every state seam of the server kit on one Redis (7 or later, standalone or
 * behind Sentinel), for N nodes of one server behind any load balancer. It opens two connections
 * (commands, and pub/sub for the change bus and followers' wake-ups), each failing fast while
 * Redis is away and reconnecting on its own; `close()` releases them and leaves no timer behind.
 *
 * ```js
 * import { McpServer, createHttpHandler } from 'mcpwire/server';
 * import { redisState } from 'mcpwire/server/redis';
 *
 * const redis = await redisState({ url: process.env.REDIS_URL, stateSecret: process.env.MCP_STATE_SECRET });
 * const server = new McpServer({ name, version, state: redis });
 * const dpop = { replayCache: redis.replayCache };
 * const handler = createHttpHandler(server, { sessions: true, auth: { ...auth, dpop } });
 * // on shutdown: await handler.close(); await server.close(); await redis.close();
 * ```
 */
import type { Redis } from 'ioredis';
import { McpError } from '../../protocol/errors.js';
import { checkNodeId } from '../state/node-id.js';
import { RedisChangeBus } from './redis-change-bus.js';
import {
  connect,
  connectionOptions,
  describeRedis,
  release,
  whenReady,
  type ConnectionLimits,
} from './redis-connection.js';
import { RedisEventLog } from './redis-event-log.js';
import { RedisReplayCache } from './redis-replay-cache.js';
import { RedisSessionStore } from './redis-session-store.js';
import { RedisSubscriber } from './redis-subscriber.js';
import { RedisTaskStore } from './redis-task-store.js';

/** Options of {@link redisState}: `url` or `client`, the rest optional. */
export interface RedisStateOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`): connections are made and owned here. */
  url?: string;
  /**
   * An ioredis client to send commands on (yours to close after `close()`; the Lua scripts are
   * defined on it as `mcpwire_*` commands); the pub/sub connection is its `duplicate()`, made and
   * closed here. Give it `enableOfflineQueue: false` for fast errors while Redis is away.
   */
  client?: Redis;
  /** This node's id, passed on as `state.nodeId` (letters, digits, `_`, `-`; default: the server's random one). */
  nodeId?: string;
  /** The secret every node signs `requestState` with (16+ characters), passed on as `state.stateSecret`. */
  stateSecret?: string;
  /** What every key and channel starts with (default `mcpwire:`): several servers may share one Redis. */
  keyPrefix?: string;
  /** Most unfinished tasks at once across all nodes (default 10 000); past it a new task is refused. */
  maxTasks?: number;
  /** Legacy sessions unseen this long are gone (default 30 minutes; at least the handler's `sessionIdleMs`). */
  sessionIdleMs?: number;
  /** SSE events kept per stream, the newest (default 256). */
  maxEventsPerStream?: number;
  /** Bytes of SSE events kept per stream (default 1 MiB; the newest event always kept). */
  maxEventBytesPerStream?: number;
  /** SSE streams kept per session (default 16: ended ones dropped first). */
  maxStreamsPerSession?: number;
  /** An SSE stream unwritten this long is gone (default 30 minutes). */
  eventTtlMs?: number;
  /** How long a resumed SSE stream waits for a wake-up before it reads the log anyway (default 1 s). */
  followPollMs?: number;
  /** How long connecting may take, at start and on each reconnection (default 5 s). */
  connectTimeoutMs?: number;
  /** How long one command may wait for its answer (default 5 s). */
  commandTimeoutMs?: number;
}

/**
 * The Redis state: its own enumerable fields are exactly what `McpServer`'s `state` option takes
 * (`bus`, `tasks`, `sessions`, `events`, and `nodeId`/`stateSecret` when given), so it is given
 * as is; the DPoP replay cache and `close()` sit beside them.
 */
export class RedisState {
  declare readonly nodeId?: string;
  declare readonly stateSecret?: string;
  readonly bus: RedisChangeBus;
  readonly tasks: RedisTaskStore;
  readonly sessions: RedisSessionStore;
  readonly events: RedisEventLog;
  readonly #replayCache: RedisReplayCache;
  readonly #client: Redis;
  readonly #keyPrefix: string;
  readonly #where: string;
  readonly #release: () => Promise<void>;
  #closing: Promise<void> | undefined;

  /** Use {@link redisState}. */
  constructor(parts: {
    nodeId: string | undefined;
    stateSecret: string | undefined;
    bus: RedisChangeBus;
    tasks: RedisTaskStore;
    sessions: RedisSessionStore;
    events: RedisEventLog;
    replayCache: RedisReplayCache;
    client: Redis;
    keyPrefix: string;
    where: string;
    release: () => Promise<void>;
  }) {
    if (parts.nodeId !== undefined) Object.defineProperty(this, 'nodeId', { value: parts.nodeId, enumerable: true });
    if (parts.stateSecret !== undefined)
      Object.defineProperty(this, 'stateSecret', { value: parts.stateSecret, enumerable: true });
    this.bus = parts.bus;
    this.tasks = parts.tasks;
    this.sessions = parts.sessions;
    this.events = parts.events;
    this.#replayCache = parts.replayCache;
    this.#client = parts.client;
    this.#keyPrefix = parts.keyPrefix;
    this.#where = parts.where;
    this.#release = parts.release;
  }

  /** The DPoP replay cache on the same Redis: give it as `auth.dpop.replayCache` on every node. */
  get replayCache(): RedisReplayCache {
    return this.#replayCache;
  }

  /**
   * The connection the stores send their commands on (made here, or the `client` given), for
   * stores of your own beside them (the gateway's rate-limit buckets). Closed by `close()` when
   * made here: do not close it yourself.
   */
  get client(): Redis {
    return this.#client;
  }

  /** What every key and channel of the stores starts with (`keyPrefix`, default `mcpwire:`). */
  get keyPrefix(): string {
    return this.#keyPrefix;
  }

  /** Where the store is (no credentials), as its errors name it. */
  get where(): string {
    return this.#where;
  }

  /**
   * Finishes this node's SSE followers, drops the bus's subscribers and releases the connections
   * made here (a client given stays open: it is its owner's). Close the servers using it first.
   * Idempotent.
   */
  close(): Promise<void> {
    return (this.#closing ??= this.#release());
  }
}

/** The options that are counts or durations: positive integers. */
const POSITIVE_INTEGERS = [
  'maxTasks',
  'sessionIdleMs',
  'maxEventsPerStream',
  'maxEventBytesPerStream',
  'maxStreamsPerSession',
  'eventTtlMs',
  'followPollMs',
  'connectTimeoutMs',
  'commandTimeoutMs',
] as const;

const KEYS = new Set<string>(['url', 'client', 'nodeId', 'stateSecret', 'keyPrefix', ...POSITIVE_INTEGERS]);

/**
 * Connects to Redis and resolves, once both connections are ready, with the state on it: give it
 * as `McpServer`'s `state`. Throws `INVALID_ARGUMENT` naming the option for a bad one; rejects
 * `TRANSPORT`, naming the store, when Redis cannot be reached within `connectTimeoutMs` (nothing
 * is left open then).
 */
export async function redisState(options: RedisStateOptions): Promise<RedisState> {
  const given = checkOptions(options);
  const limits: ConnectionLimits = {
    connectTimeoutMs: given.connectTimeoutMs ?? 5_000,
    commandTimeoutMs: given.commandTimeoutMs ?? 5_000,
  };
  const prefix = given.keyPrefix ?? 'mcpwire:';
  const name = `mcpwire:${given.nodeId ?? process.pid}`;
  const own = given.client === undefined;
  const commands = given.client ?? connect(given.url!, limits, `${name}:commands`);
  const where = describeRedis(commands, given.url);
  // The pub/sub connection is always made here, fast-failing whatever the client given does.
  const pubsub = commands.duplicate(connectionOptions(limits, `${name}:pubsub`));
  if (commands.status === 'wait') commands.connect().catch(() => undefined); // a lazyConnect client
  const subscriber = new RedisSubscriber(pubsub);
  if (own) commands.on('error', () => undefined); // reported by the operations that fail
  try {
    await Promise.all([
      whenReady(commands, where, limits.connectTimeoutMs),
      whenReady(pubsub, where, limits.connectTimeoutMs),
    ]);
  } catch (error) {
    if (own) await release(commands);
    await release(pubsub);
    throw error;
  }
  const bus = new RedisChangeBus(commands, subscriber, `${prefix}bus`, where);
  const events = new RedisEventLog(
    commands,
    subscriber,
    prefix,
    {
      maxEvents: given.maxEventsPerStream ?? 256,
      maxBytes: given.maxEventBytesPerStream ?? 1_048_576,
      maxStreamsPerSession: given.maxStreamsPerSession ?? 16,
      ttlMs: given.eventTtlMs ?? 30 * 60_000,
      followPollMs: given.followPollMs ?? 1_000,
    },
    where,
  );
  return new RedisState({
    nodeId: given.nodeId,
    stateSecret: given.stateSecret,
    bus,
    tasks: new RedisTaskStore(commands, prefix, given.maxTasks ?? 10_000, where),
    sessions: new RedisSessionStore(commands, prefix, given.sessionIdleMs ?? 30 * 60_000, where),
    events,
    replayCache: new RedisReplayCache(commands, prefix, where),
    client: commands,
    keyPrefix: prefix,
    where,
    release: async () => {
      await Promise.all([bus.close(), events.close()]);
      subscriber.close();
      await release(pubsub);
      if (own) await release(commands);
    },
  });
}

function checkOptions(options: RedisStateOptions): RedisStateOptions {
  const bad = (what: string): McpError => new McpError('INVALID_ARGUMENT', `redisState option ${what}`);
  if (typeof options !== 'object' || options === null) throw bad('object expected: { url } or { client }');
  for (const key of Object.keys(options)) if (!KEYS.has(key)) throw bad(`"${key}" is unknown`);
  if ((options.url === undefined) === (options.client === undefined)) throw bad('"url" or "client": give one');
  if (options.url !== undefined && (typeof options.url !== 'string' || !/^rediss?:\/\//.test(options.url)))
    throw bad('"url" must be a redis:// or rediss:// URL');
  if (options.client !== undefined && typeof options.client?.duplicate !== 'function')
    throw bad('"client" must be an ioredis client');
  if (options.nodeId !== undefined) checkNodeId(options.nodeId, 'redisState option "nodeId"');
  if (options.stateSecret !== undefined && (typeof options.stateSecret !== 'string' || options.stateSecret.length < 16))
    throw bad('"stateSecret" must be a string of 16+ characters');
  if (options.keyPrefix !== undefined && (typeof options.keyPrefix !== 'string' || /\s/.test(options.keyPrefix)))
    throw bad('"keyPrefix" must be a string without spaces');
  for (const key of POSITIVE_INTEGERS) {
    const value = options[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 1))
      throw bad(`"${key}" must be a positive integer`);
  }
  return options;
}

/**
 * `gateway.state` of a config file: the kit's shared state for several `mcpwire gateway`
 * processes behind one load balancer (legacy sessions, their SSE events, the rate limit's
 * buckets), on PostgreSQL or on Redis:
 *
 * ```jsonc
 * "gateway": {
 *   "state": {
 *     "postgres": "${DATABASE_URL}",          // or "redis": "redis://host:6379/0"
 *     "stateSecret": "${MCP_STATE_SECRET}",   // 16+ characters, the same on every node
 *     "nodeId": "gw-1",                       // optional: random per process
 *     "prefix": "gw_"                         // optional: tablePrefix / keyPrefix
 *   }
 * }
 * ```
 *
 * Every string takes `${VAR}` / `${VAR:-default}`. The driver (`pg`, `ioredis`: optional peers) is
 * loaded only when its store is named. A bad value is a `CONFIG_INVALID` error naming the file
 * and the key, never the value (a URL may hold a password); a store that cannot be reached fails
 * the start with the store's own error, which names it without credentials.
 */
import { McpError } from '../protocol/errors.js';
import { expandVariables } from '../transport/variables.js';
import type { ServerLogger } from '../server/server-types.js';
import type { PostgresState } from '../server/postgres/index.js';
import type { RedisState } from '../server/redis/index.js';

/** The `gateway.state` section as written. */
export interface GatewayStateConfig {
  /** A `postgres://` (or `postgresql://`) URL. */
  postgres?: string;
  /** A `redis://` (or `rediss://`) URL. */
  redis?: string;
  stateSecret?: string;
  nodeId?: string;
  /** PostgreSQL: the tables' prefix (`tablePrefix`); Redis: the keys' (`keyPrefix`). */
  prefix?: string;
}

const KEYS = ['postgres', 'redis', 'stateSecret', 'nodeId', 'prefix'] as const;

/** Checks the section's shape (an object of known string keys); throws `CONFIG_INVALID` naming `file`. */
export function checkGatewayState(value: unknown, file: string): GatewayStateConfig {
  const bad = (what: string) => new McpError('CONFIG_INVALID', `${file}: "gateway.state${what}`);
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw bad('" must be an object: { "postgres": URL } or { "redis": URL }');
  for (const [key, item] of Object.entries(value)) {
    if (!(KEYS as readonly string[]).includes(key)) throw bad(`.${key}" is unknown`);
    if (typeof item !== 'string') throw bad(`.${key}" must be a string`);
  }
  const section = value as GatewayStateConfig;
  if ((section.postgres === undefined) === (section.redis === undefined))
    throw bad('" needs one of "postgres" (a postgres:// URL) and "redis" (a redis:// URL)');
  return section;
}

/** An open state and how to release it (after the gateway closed). */
export interface OpenedGatewayState {
  readonly state: PostgresState | RedisState;
  /** `postgres` or `redis`. */
  readonly store: 'postgres' | 'redis';
  close(): Promise<void>;
}

/**
 * Expands and checks `config`, then opens its store: PostgreSQL once its tables are made (so an
 * unreachable database fails the start), Redis once both connections are ready. Throws
 * `CONFIG_INVALID` naming `file` and the key for a bad value; rejects with the store's
 * `TRANSPORT` error when it cannot be reached.
 */
export async function openGatewayState(
  config: GatewayStateConfig,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  logger: ServerLogger,
): Promise<OpenedGatewayState> {
  const bad = (key: string, what: string) => new McpError('CONFIG_INVALID', `${file}: "gateway.state.${key}" ${what}`);
  const value = (key: (typeof KEYS)[number]): string | undefined => {
    const text = config[key];
    if (text === undefined) return undefined;
    const expanded = expandVariables(text, env);
    if (!expanded.ok) throw bad(key, `uses the variable ${expanded.unset}, which is not set`);
    return expanded.text;
  };
  const postgres = value('postgres');
  const redis = value('redis');
  const stateSecret = value('stateSecret');
  const nodeId = value('nodeId');
  const prefix = value('prefix');
  if (postgres !== undefined && !/^postgres(ql)?:\/\/./.test(postgres))
    throw bad('postgres', 'must be a postgres:// URL');
  if (redis !== undefined && !/^rediss?:\/\/./.test(redis)) throw bad('redis', 'must be a redis:// or rediss:// URL');
  if (stateSecret === undefined || stateSecret.length < 16)
    throw bad('stateSecret', 'must be given, 16+ characters and the same on every node (e.g. "${MCP_STATE_SECRET}")');
  if (nodeId !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(nodeId))
    throw bad('nodeId', 'must be 1–64 letters, digits, "_" or "-"');
  const common = { stateSecret, ...(nodeId !== undefined ? { nodeId } : {}) };
  try {
    if (postgres !== undefined) {
      const { postgresState } = await import('../server/postgres/index.js');
      const state = postgresState({
        ...common,
        connectionString: postgres,
        ...(prefix !== undefined ? { tablePrefix: prefix } : {}),
        logger,
      });
      try {
        await state.migrate();
      } catch (error) {
        await state.close();
        throw error;
      }
      return { state, store: 'postgres', close: () => state.close() };
    }
    const { redisState } = await import('../server/redis/index.js');
    const state = await redisState({ ...common, url: redis!, ...(prefix !== undefined ? { keyPrefix: prefix } : {}) });
    return { state, store: 'redis', close: () => state.close() };
  } catch (error) {
    // The stores' option errors name the option, not the value; say which file it came from.
    if (error instanceof McpError && error.code === 'INVALID_ARGUMENT')
      throw new McpError('CONFIG_INVALID', `${file}: "gateway.state": ${error.message}`, { cause: error });
    throw error;
  }
}

// The kit of kit.mjs as an app for serve.mjs (node, deno, bun), on the state the environment
// names: STORE unset (memory), `postgres` (DATABASE_URL) or `redis` (REDIS_URL); STATE_PREFIX
// (tables' or keys' prefix), MCP_STATE_SECRET; KEEP_ALIVE_MS: the handler's `keepAliveMs` (default its own).
import { createKit } from './kit.mjs';

/** The shared state STORE names, or undefined (memory). */
async function stateOf(env) {
  const shared = { stateSecret: env.MCP_STATE_SECRET ?? 'kit-everywhere-secret' };
  if (env.STORE === 'postgres') {
    const { postgresState } = await import('mcpwire/server/postgres');
    return postgresState({
      connectionString: env.DATABASE_URL,
      tablePrefix: env.STATE_PREFIX,
      maxConnections: 4,
      logger: () => undefined,
      ...shared,
    });
  }
  if (env.STORE === 'redis') {
    const { redisState } = await import('mcpwire/server/redis');
    return redisState({ url: env.REDIS_URL, keyPrefix: env.STATE_PREFIX, ...shared });
  }
  if (env.STORE) throw new Error(`kit-app.mjs: STORE must be postgres or redis, got ${env.STORE}`);
  return undefined;
}

/** The app serve.mjs serves. */
export async function createApp(env = {}) {
  const keepAliveMs = env.KEEP_ALIVE_MS === undefined ? undefined : Number(env.KEEP_ALIVE_MS);
  return createKit(await stateOf(env), keepAliveMs === undefined ? {} : { keepAliveMs });
}

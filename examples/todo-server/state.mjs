// Where the server kit keeps what outlives one request (legacy sessions, SSE events for
// Last-Event-ID, 2026 tasks, the change bus): `--state memory` (this process), `postgres` or
// `redis` (shared by every node started alike). A store's module, and its driver, is loaded
// only when chosen.

/**
 * Opens the kit state `config.state` names (see config.mjs). Resolves with `state`, McpServer's
 * `state` option (undefined for memory without a secret or node id), and `close()`, which ends
 * the store's connections (call it after the server closed). Rejects when the store cannot be
 * opened (Redis unreachable); PostgreSQL connects on first use.
 *
 * @param {ReturnType<typeof import('./config.mjs').readConfig>['state']} config
 * @param {(record: object) => void} log
 */
export async function openKitState(config, log) {
  const shared = { nodeId: config.nodeId, stateSecret: config.secret };
  if (config.store === 'postgres') {
    const { postgresState } = await import('mcpwire/server/postgres');
    const state = postgresState({
      connectionString: config.url,
      ...shared,
      ...(config.prefix !== undefined ? { tablePrefix: config.prefix } : {}),
      logger: log,
    });
    return { state, close: () => state.close() };
  }
  if (config.store === 'redis') {
    const { redisState } = await import('mcpwire/server/redis');
    const state = await redisState({
      url: config.url,
      ...shared,
      ...(config.prefix !== undefined ? { keyPrefix: config.prefix } : {}),
    });
    return { state, close: () => state.close() };
  }
  const given = Object.fromEntries(Object.entries(shared).filter(([, value]) => value !== undefined));
  return { state: Object.keys(given).length > 0 ? given : undefined, close: async () => undefined };
}

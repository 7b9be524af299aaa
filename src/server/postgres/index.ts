/**
 * `mcpwire/server/postgres`: the server kit's shared state on PostgreSQL (the `pg` driver, an
 * optional peer dependency loaded only here), so several server processes behind one load
 * balancer serve the same tasks, listens, legacy sessions and SSE streams. See
 * `docs/server-state.md`.
 */
export { postgresState, PostgresState } from './postgres-state.js';
export type { PostgresStateOptions } from './postgres-state.js';
export { PgChangeBus } from './pg-change-bus.js';
export { PgTaskStore } from './pg-task-store.js';
export { PgSessionStore } from './pg-session-store.js';
export { PgEventLog } from './pg-event-log.js';
export { PgReplayCache } from './pg-replay-cache.js';
export type { PgPool, PgPoolClient, PgQuery, PgResult, PgNotification } from './pg-driver.js';

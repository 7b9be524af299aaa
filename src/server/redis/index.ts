/**
 * `mcpwire/server/redis`: the server kit's shared state on Redis (`ioredis` 5, an optional peer
 * dependency loaded only by this subpath): the change bus, task store, legacy session store, SSE
 * event log and the DPoP replay cache, for N nodes of one server. See docs/server-state.md.
 */
export { redisState, RedisState } from './redis-state.js';
export type { RedisStateOptions } from './redis-state.js';
export { RedisChangeBus } from './redis-change-bus.js';
export { RedisTaskStore } from './redis-task-store.js';
export { RedisSessionStore } from './redis-session-store.js';
export { RedisEventLog } from './redis-event-log.js';
export type { RedisEventLogLimits } from './redis-event-log.js';
export { RedisReplayCache } from './redis-replay-cache.js';

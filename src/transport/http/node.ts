/**
 * `mcpwire/http` for Node (the package's `node` condition): the runtime-neutral transports of
 * `index.ts`, with undici's pool registered as their default engine, as the root's Node entry
 * registers it (`default-engine.ts`). Loading this module registers; undici itself loads on the
 * first exchange.
 */
import { setNodeHttpEngine } from './default-engine.js';

setNodeHttpEngine(() => import('./undici-engine.js'));

export * from './index.js';

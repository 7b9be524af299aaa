/**
 * `mcpwire/http` on Node (the package's `node` condition): the same transports as `index.ts`,
 * with undici's pool registered as their default engine, as the root's Node entry does; loading
 * this module loads no undici (the engine is imported on the first exchange).
 */
import { setNodeHttpEngine } from './default-engine.js';

export * from './index.js';

setNodeHttpEngine(() => import('./undici-engine.js'));

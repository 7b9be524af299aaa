/**
 * The Node engine: a keep-alive undici `Agent` per transport, driven through `dispatch.ts`'s
 * exchange (the fast path the bench measures). The one module of `transport/http/` that imports
 * undici: neutral code never imports it, it is registered (`default-engine.ts`'s
 * `setNodeHttpEngine`, called by the Node entry) and loaded on the first exchange.
 */
import { Agent } from 'undici';
import { DispatcherEngine } from './dispatch.js';
import type { HttpEngine, HttpEngineOptions } from './http-engine.js';

/** An engine owning a new keep-alive `Agent` (closed with the engine). */
export function createUndiciEngine(options: HttpEngineOptions = {}): HttpEngine {
  const agent = new Agent({ keepAliveTimeout: 10_000, connect: { timeout: options.connectTimeoutMs ?? 10_000 } });
  return new DispatcherEngine(agent, agent);
}

/**
 * The registry of the Node engine: the one thing the Node entries tell the HTTP transports.
 * Neutral code never imports undici; the Node entry calls {@link setNodeHttpEngine} with a lazy
 * `() => import('…/undici-engine.js')`, so neither undici nor `node:*` is in a browser's or a
 * Worker's bundle, and nothing of it loads until a transport's first exchange. Which engine a
 * transport then gets is `engine-choice.ts`'s business. This module imports next to nothing, so
 * the Node entry registering costs no import time.
 */
import { LazyPart } from '../../util/lazy-part.js';
import type { HttpEngine, HttpEngineOptions } from './http-engine.js';

/** What the Node engine's module exports (`undici-engine.ts`). */
export interface NodeHttpEngineModule {
  createUndiciEngine(options?: HttpEngineOptions): HttpEngine;
}

/** The registered loader, and its module once loaded. */
export const nodeEngine = new LazyPart<NodeHttpEngineModule>();

/**
 * Registers the Node engine's module loader (called by the Node entry; `undefined` unregisters).
 * Until a transport needs it nothing of it runs; a loader that fails fails the exchanges that
 * needed it.
 */
export function setNodeHttpEngine(load: (() => Promise<NodeHttpEngineModule>) | undefined): void {
  nodeEngine.set(load);
}

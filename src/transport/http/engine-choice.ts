/**
 * Which engine an HTTP transport sends through (`http-engine.ts`), chosen once per transport:
 * 1. a `dispatcher` option (an undici dispatcher) → the dispatcher engine over it;
 * 2. a `fetch` option → the fetch engine over that function;
 * 3. the Node engine registered in `default-engine.ts` (undici's keep-alive `Agent`, the fast
 *    path), unless on Bun, whose undici is a shim without the pool (`close` is missing there);
 * 4. the global `fetch`; without one, exchanges fail with `TRANSPORT`.
 *
 * Transports are built synchronously: the first transport of a process loads the Node engine's
 * module on its first exchange; later ones build the engine at once.
 */
import { McpError } from '../../protocol/errors.js';
import { nodeEngine } from './default-engine.js';
import { DispatcherEngine, type HttpDispatcher } from './dispatch.js';
import { FetchEngine, type FetchFunction } from './fetch-engine.js';
import type { ExchangeOptions, HttpEngine, HttpEngineOptions, LiteResponse } from './http-engine.js';

/** What picks an engine: a transport's options. */
export interface EngineChoice extends HttpEngineOptions {
  dispatcher?: HttpDispatcher | undefined;
  fetch?: FetchFunction | undefined;
}

/** The engine for a transport with these options (see the file comment for the order). */
export function engineFor(choice: EngineChoice): HttpEngine {
  if (choice.dispatcher !== undefined) return new DispatcherEngine(choice.dispatcher);
  if (choice.fetch !== undefined) return new FetchEngine(choice.fetch);
  if (nodeEngine.loader !== undefined && !onBun()) {
    const options: HttpEngineOptions =
      choice.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: choice.connectTimeoutMs };
    if (nodeEngine.loaded) return nodeEngine.loaded.createUndiciEngine(options);
    return new LazyEngine(() => nodeEngine.get().then((module) => module!.createUndiciEngine(options)));
  }
  const global = (globalThis as { fetch?: FetchFunction }).fetch;
  if (typeof global === 'function') return new FetchEngine((input, init) => global(input, init));
  return new LazyEngine(() =>
    Promise.reject(
      new McpError(
        'TRANSPORT',
        'HTTP needs a fetch function: this runtime has no global fetch; pass the "fetch" option',
      ),
    ),
  );
}

function onBun(): boolean {
  return typeof (globalThis as { process?: { versions?: { bun?: string } } }).process?.versions?.bun === 'string';
}

/** An engine built on its first exchange (the Node engine's module loads asynchronously). */
class LazyEngine implements HttpEngine {
  private engine: HttpEngine | undefined;
  private building: Promise<HttpEngine> | undefined;

  constructor(private readonly build: () => Promise<HttpEngine>) {}

  exchange(url: URL, options: ExchangeOptions): Promise<LiteResponse> {
    if (this.engine) return this.engine.exchange(url, options);
    this.building ??= this.build().then((engine) => (this.engine = engine));
    return this.building.then((engine) => engine.exchange(url, options));
  }

  close(): Promise<void> {
    return this.building ? this.building.then((engine) => engine.close(), noop) : Promise.resolve();
  }

  destroy(): Promise<void> {
    return this.building ? this.building.then((engine) => engine.destroy(), noop) : Promise.resolve();
  }
}

function noop(): void {}

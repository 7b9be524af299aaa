/**
 * Where the client finds the stdio transport. The transport starts processes (`node:child_process`)
 * and lives in Node-only code, so neutral code never imports it, not even by a literal `import()`
 * a bundler would follow: the node entry (`client/node-parts.ts`) registers a loader here, and
 * `connect({ command })` asks for it. With none registered (a browser, a Worker) the connect
 * rejects with `UNSUPPORTED` before anything is started.
 */
import type { Disposer } from '../protocol/transport.js';
import type { StdioTransport } from '../transport/stdio/stdio.js';
import { LazyPart } from '../util/lazy-part.js';

/** What a launcher resolves to: the stdio transport's module (its class is all the connect uses). */
export interface StdioModule {
  StdioTransport: Pick<typeof StdioTransport, 'spawn'>;
}

/** Loads the stdio transport on first use (a lazy `() => import(…)`, so nothing loads until a stdio connect). */
export type StdioLauncher = () => Promise<StdioModule>;

/** The registered launcher (its module is kept by the module loader itself). */
const launcher = new LazyPart<StdioModule>();

/**
 * Registers `load` as the stdio launcher, replacing any other; `undefined` registers none (as on a
 * runtime without processes). The disposer puts back the one it replaced (when `load` is still
 * the current one).
 */
export function setStdioLauncher(load: StdioLauncher | undefined): Disposer {
  const previous = launcher.set(load);
  return () => {
    if (launcher.loader === load) launcher.set(previous);
  };
}

/** The registered launcher; undefined where none was (no Node parts installed). */
export function stdioLauncher(): StdioLauncher | undefined {
  return launcher.loader;
}

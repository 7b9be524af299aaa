/**
 * The Node-only parts of the client, registered with the neutral code that uses them rather than
 * imported by it (see `stdio-launcher.ts`). Each registration is a lazy `() => import(…)`: nothing
 * Node-only loads until it is used, so installing costs no import time. Called at the top of the
 * node entry (`src/index.ts`), by the manager's connect (`manager/servers/connect-target.ts`, so
 * a deep import of the manager still starts stdio servers) and by the tests' setup file.
 * Idempotent: the second call does nothing.
 */
import { setNodeAuthParts } from '../auth/auth-runtime.js';
import { setNodeHttpEngine } from '../transport/http/default-engine.js';
import { setStdioLauncher } from './stdio-launcher.js';

let installed = false;

/** Registers every Node-only part with its registry (once). */
export function installNodeParts(): void {
  if (installed) return;
  installed = true;
  setStdioLauncher(() => import('../transport/stdio/stdio.js'));
  // HTTP through undici's pool (not on Bun, whose undici is a shim: the engine picks fetch there).
  setNodeHttpEngine(() => import('../transport/http/undici-engine.js'));
  // OAuth's file token store, loopback receiver and undici fetch.
  setNodeAuthParts(() => import('../auth/node-auth-parts.js'));
}

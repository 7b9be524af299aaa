/**
 * The server kit under Bun: `createFetchHandler` from the built `mcpwire/server`, mounted as
 * `Bun.serve({ fetch: handler })` in a real bun process (test/runtimes/serve.mjs, started once for
 * the file). The official SDK v1 client on a legacy session (its GET stream hears
 * `list_changed`, DELETE ends it), the SDK v2 and mcpwire clients on 2026-07-28 with progress and
 * cancel (the tool sees the abort); on SIGTERM the process exits 0 and leaves nothing.
 */
import { servesTheKit } from './support/runtime-kit-checks.js';
import { startRuntime } from './support/runtimes.js';

servesTheKit(() => startRuntime('bun', 'kit-app.mjs'));

/**
 * The server kit under Node through its fetch handler: `createFetchHandler` from the built
 * `mcpwire/server`, served by `@hono/node-server` in a real node process (test/runtimes/serve.mjs,
 * started once for the file), the same checks as under Deno, Bun and workerd: the official SDK v1
 * client on a legacy session (its GET stream hears `list_changed`, DELETE ends it), the SDK v2 and
 * mcpwire clients on 2026-07-28 with progress and cancel (the tool sees the abort); on SIGTERM the
 * process exits 0 and leaves nothing.
 */
import { servesTheKit } from './support/runtime-kit-checks.js';
import { startRuntime } from './support/runtimes.js';

servesTheKit(() => startRuntime('node', 'kit-app.mjs'));

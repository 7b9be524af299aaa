/**
 * The server kit on workerd: a Worker bundled with esbuild from test/runtimes/kit-worker.mjs,
 * which takes `McpServer` and `createFetchHandler` from `mcpwire/server` (the built package,
 * neutral platform, conditions workerd/worker/browser) and is `export default { fetch: handler }`,
 * in a real workerd process (one isolate: legacy sessions in memory serve; across isolates they
 * need a shared store). The official SDK v1 client on a legacy session (its GET stream hears
 * `list_changed`, DELETE ends it), the SDK v2 and mcpwire clients on 2026-07-28 with progress and
 * cancel (the tool sees the abort); on SIGTERM workerd exits 0 and leaves nothing.
 */
import { servesTheKit } from './support/runtime-kit-checks.js';
import { startWorkerd } from './support/runtimes.js';

servesTheKit(() => startWorkerd('kit-worker.mjs'));

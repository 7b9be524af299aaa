/**
 * The server kit on workerd: a Worker bundled with esbuild from test/runtimes/kit-worker.mjs,
 * which takes `McpServer` and `createFetchHandler` from `mcpwire/server` (the built package,
 * neutral platform, conditions workerd/worker/browser) and is `export default { fetch: handler }`,
 * in a real workerd process (one isolate: legacy sessions in memory serve; across isolates they
 * need a shared store). The official SDK v1 client on a legacy session (its GET stream hears
 * `list_changed`, DELETE ends it), the SDK v2 and mcpwire clients on 2026-07-28 with progress and
 * cancel (the tool sees the abort); stopped, workerd leaves nothing.
 */
import { servesTheKit } from './support/runtime-kit-checks.js';
import { startWorkerd } from './support/runtimes.js';

// Known limits of workerd 2026-11-17 (each check runs as it.fails, so it alerts once it passes):
// - a legacy GET stream cannot be written from another request's handler ("A promise was
//   resolved or rejected from a different request context"), and a GET stream waiting for events
//   looks hung to workerd: push across requests needs a Durable Object holding the session;
// - when a 2026 client goes away, the Worker is not told (neither `request.signal` nor the
//   response stream's cancel fires), so the tool does not see the abort; and SIGTERM, which drains
//   the open requests, waits for those: the test stops workerd with SIGINT (at once) instead.
servesTheKit(() => startWorkerd('kit-worker.mjs'), { pushAcrossRequests: false, cancelOnDisconnect: false });

/**
 * The server kit on workerd: a Worker bundled with esbuild from
 * `import { McpServer, createFetchHandler } from 'mcpwire/server'` (the built package, neutral
 * platform, conditions workerd/worker/browser), `export default { fetch: handler }`, in a real
 * workerd process (one isolate: legacy sessions in memory serve; across isolates they need a
 * shared store). The official SDK v1 client on a legacy session (its GET stream hears
 * `list_changed`, DELETE ends it), the SDK v2 and mcpwire clients on 2026-07-28 with progress and
 * cancel (the tool sees the abort); on SIGTERM workerd exits and leaves nothing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  mcpwireLegacySession,
  mcpwireProgressAndCancel,
  sdkV1CallsOnALegacySession,
  sdkV1HearsListChangedThenDeletes,
  sdkV2ProgressAndCancel,
} from './support/runtime-kit-checks.js';
import { groupAlive, startWorkerd, type RuntimeServer } from './support/runtimes.js';

let served: RuntimeServer | undefined;
beforeAll(async () => {
  served = await startWorkerd('kit-worker.mjs');
});
afterAll(async () => {
  await served?.stop();
});

it('serves SDK v1 on a legacy session', () => sdkV1CallsOnALegacySession(served!.url));
it("tells SDK v1's GET stream list_changed, and DELETE ends the session", () =>
  sdkV1HearsListChangedThenDeletes(served!.url));
it('serves SDK v2 on 2026-07-28 with progress and cancel', () => sdkV2ProgressAndCancel(served!.url));
it("serves mcpwire's client on 2026-07-28 with progress and cancel", () => mcpwireProgressAndCancel(served!.url));
it("serves mcpwire's client on a legacy session", () => mcpwireLegacySession(served!.url));

it('exits 0 on SIGTERM and leaves no process', async () => {
  const server = served!;
  expect(await server.stop(), server.output()).toEqual({ code: 0, signal: null });
  expect(groupAlive(server)).toBe(false);
});

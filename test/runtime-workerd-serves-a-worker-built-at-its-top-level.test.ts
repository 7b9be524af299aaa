/**
 * A Worker as the docs show it (test/runtimes/toplevel-worker.mjs): `new McpServer(...)`, its tool
 * and `createFetchHandler(...)` at the module's top level, where workerd forbids timers and
 * random numbers. The kit draws its node id, its request-state secret and its timers on first
 * use, so the module loads and serves both eras in a real workerd process.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectClient } from './support/client.js';
import { startWorkerd, type RuntimeServer } from './support/runtimes.js';

let worker: RuntimeServer;
beforeAll(async () => {
  worker = await startWorkerd('toplevel-worker.mjs');
});
afterAll(() => worker?.stop());

it.each(['modern', 'legacy'] as const)('loads and serves a %s client', async (era) => {
  const client = await connectClient({ url: worker.url }, { era, listen: false });
  expect(client.era).toBe(era);
  const result = await client.callTool('add', { a: 2, b: 3 });
  expect(result.content).toEqual([{ type: 'text', text: '5' }]);
});

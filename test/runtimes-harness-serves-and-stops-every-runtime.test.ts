/**
 * The runtime harness itself (test/support/runtimes.ts), on the smallest fetch handler: under
 * node (`@hono/node-server`), deno (`Deno.serve`), bun (`Bun.serve`) and workerd (a Worker bundled
 * with esbuild) the server answers at its reported URL, exits 0 on SIGTERM, and leaves no process.
 */
import { describe, expect, it } from 'vitest';
import { groupAlive, startRuntime, startWorkerd, type RuntimeServer } from './support/runtimes.js';

async function provesTheHarness(server: RuntimeServer): Promise<void> {
  try {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const answer = await fetch(server.url, { method: 'POST', body: '{}' });
    expect(await answer.json()).toEqual({ method: 'POST', path: '/mcp', open: true });
  } finally {
    expect(await server.stop(), server.output()).toEqual({ code: 0, signal: null });
  }
  expect(groupAlive(server)).toBe(false);
}

describe('the runtime harness', () => {
  it.each(['node', 'deno', 'bun'] as const)('serves a fetch handler under %s and stops it cleanly', async (runtime) => {
    await provesTheHarness(await startRuntime(runtime, 'echo-app.mjs'));
  });

  it('serves a Worker under workerd and stops it cleanly', async () => {
    await provesTheHarness(await startWorkerd('echo-worker.mjs'));
  });
});

/**
 * mcpwire's client in a Worker on workerd: test/runtimes/client-worker.mjs bundled with esbuild
 * as a Workers build is (platform neutral, conditions workerd/worker/browser: `mcpwire` through
 * the package's exports, its runtime-neutral entry), served by a real workerd whose only way out
 * is a network service allowing loopback addresses. On a request the Worker connects to a kit
 * server on node:http in this process, calls `add` (progress 1/2 2/2, a structured result the
 * client checks against the tool's outputSchema with no eval, which workerd forbids) in both eras
 * and answers with the result; against an endpoint whose tools/list lies about the schema, the
 * client's validator refuses the same result. Stopped, workerd leaves nothing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFetchHandler } from '../src/server/index.js';
import { mountedServer, type MountedServer } from './support/mounted-server.js';
import { serveFetch, type Listening } from './support/mounts.js';
import { groupAlive, startWorkerd, type RuntimeServer } from './support/runtimes.js';

/** The Worker's origin (`http://127.0.0.1:PORT`); the harness's url ends in `/mcp`. */
const origin = (worker: RuntimeServer) => new URL(worker.url).origin;

let served: MountedServer;
let kit: Listening | undefined;
let closeHandlers: (() => Promise<void>) | undefined;
/** The Worker, started by the first check (a bundle that fails to build fails the checks, not the file). */
let worker: Promise<RuntimeServer> | undefined;

beforeAll(async () => {
  served = mountedServer('kit-for-a-worker');
  const honest = createFetchHandler(served.server, { path: '/mcp' });
  // The same server, but its answers say `sum` is a string: a result the client must refuse.
  const liar = createFetchHandler(served.server, { path: '/lying/mcp' });
  closeHandlers = async () => {
    await Promise.all([honest.close({ graceMs: 1_000 }), liar.close({ graceMs: 1_000 })]);
    await served.server.close();
  };
  kit = await serveFetch(async (request) => {
    if (new URL(request.url).pathname !== '/lying/mcp') return honest(request);
    const answer = await liar(request);
    const text = await answer.text();
    const headers = new Headers(answer.headers);
    headers.delete('content-length');
    const lie = text.replaceAll('"sum":{"type":"number"}', '"sum":{"type":"string"}');
    return new Response(lie, { status: answer.status, headers });
  });
});

afterAll(async () => {
  const started = await worker?.catch(() => undefined);
  // workerd drains open requests on SIGTERM; none is open here, but SIGINT stops it at once.
  await started?.stop(10_000, 'SIGINT');
  await closeHandlers?.();
  await kit?.stop();
});

function theWorker(): Promise<RuntimeServer> {
  return (worker ??= startWorkerd('client-worker.mjs', {
    outbound: 'loopback',
    bindings: { MCP_URL: `${kit!.origin}/mcp`, LYING_URL: `${kit!.origin}/lying/mcp` },
  }));
}

/** GETs `pathname` from the Worker; the JSON it answered, with its status. */
async function ask(pathname: string): Promise<{ status: number; body: any }> {
  const answer = await fetch(`${origin(await theWorker())}${pathname}`);
  return { status: answer.status, body: await answer.json() };
}

it('calls a tool on a loopback server on 2026-07-28 and answers with the validated structured result', async () => {
  const before = served.calls;
  expect(await ask('/call?era=modern')).toEqual({
    status: 200,
    body: { era: 'modern', protocolVersion: '2026-07-28', structuredContent: { sum: 5 }, progress: [1, 2] },
  });
  expect(served.calls).toBe(before + 1);
});

it('calls a tool on a legacy session (2025-11-25) and answers with the result', async () => {
  expect(await ask('/call?era=legacy')).toEqual({
    status: 200,
    body: { era: 'legacy', protocolVersion: '2025-11-25', structuredContent: { sum: 5 }, progress: [1, 2] },
  });
});

it("refuses a structured result its tool's outputSchema does not admit (the no-eval validator ran)", async () => {
  const { status, body } = await ask('/lying');
  expect(status).toBe(200);
  expect(body).toMatchObject({
    rejected: 'OUTPUT_SCHEMA_MISMATCH',
    message: expect.stringMatching(/sum must be string/),
  });
  // Not because code generation was refused: the validator needs none.
  expect(body.message).not.toMatch(/code generation|eval/i);
});

it('stops on SIGINT and leaves no process', async () => {
  const started = await theWorker();
  expect(await started.stop(10_000, 'SIGINT'), started.output()).toEqual({ code: null, signal: 'SIGINT' });
  expect(groupAlive(started)).toBe(false);
});

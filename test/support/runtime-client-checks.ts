/**
 * What every runtime's client test asks (test/runtimes/client-calls.mjs run to its end under the
 * runtime, `McpClient` from the built package): over stdio and over Streamable HTTP, against
 * `@modelcontextprotocol/server-everything` (the client finds the legacy era, 2025-11-25) and
 * against mcpwire's own kit (test/runtimes/kit.mjs; the client finds 2026-07-28): it lists tools,
 * calls one, calls one with progress, cancels one at its first progress report (CANCELLED; the
 * kit's tool sees the abort) and calls again; then it closes, the process exits 0 by itself, and
 * neither it nor the server it spawned is left. {@link callsFromTheRuntime} makes these the tests
 * of one runtime's file; the servers of the HTTP rows are started once for the file.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { binScript } from '../integration/support/reference-servers.js';
import { everythingOverHttp, type HttpServerProcess } from './http-servers.js';
import { waitUntilGone } from './processes.js';
import { RUNTIME_APPS, runScript, startRuntime, type RuntimeServer, type ServeRuntime } from './runtimes.js';

/** What client-calls.mjs prints on its RESULT line. */
export interface ClientSeen {
  era: 'legacy' | 'modern';
  protocolVersion: string;
  serverName: string;
  tools: string[];
  call: unknown;
  progress: number[];
  progressResult: unknown;
  cancelled: string;
  toolSawAbort?: boolean;
  after: unknown;
  pid: number | null;
}

type Profile = 'everything' | 'kit';

/** The connect targets of the stdio rows: the server run by this very node. */
const STDIO: Record<Profile, { command: string; args: string[] }> = {
  everything: { command: process.execPath, args: [binScript('@modelcontextprotocol/server-everything'), 'stdio'] },
  kit: { command: process.execPath, args: [path.join(RUNTIME_APPS, 'client-kit-stdio-server.mjs')] },
};

/** What each profile's server must have answered. */
function expectSeen(profile: Profile, seen: ClientSeen): void {
  if (profile === 'everything') {
    expect(seen).toMatchObject({
      era: 'legacy',
      protocolVersion: '2025-11-25',
      serverName: 'mcp-servers/everything',
      call: [{ type: 'text', text: 'The sum of 2 and 40 is 42.' }],
      progress: [1, 2, 3],
      cancelled: 'CANCELLED',
      after: [{ type: 'text', text: 'Echo: still here' }],
    });
    expect(seen.tools).toEqual(expect.arrayContaining(['echo', 'get-sum', 'trigger-long-running-operation']));
  } else {
    expect(seen).toMatchObject({
      era: 'modern',
      protocolVersion: '2026-07-28',
      serverName: 'kit-everywhere',
      call: { sum: 5 },
      progress: [1, 2],
      progressResult: { sum: 42 },
      cancelled: 'CANCELLED',
      toolSawAbort: true,
    });
    expect(seen.tools).toEqual(expect.arrayContaining(['add', 'gate', 'aborts']));
  }
}

/**
 * Runs client-calls.mjs under `runtime` against `target`; expects what `profile`'s server
 * answers, exit code 0 by itself, nothing of its group left, and a spawned server gone.
 */
export async function clientCallsUnder(runtime: ServeRuntime, profile: Profile, target: object): Promise<void> {
  const run = await runScript(runtime, 'client-calls.mjs', [profile, JSON.stringify(target)], { allow: ['run'] });
  expect(run.exit, run.output).toEqual({ code: 0, signal: null });
  expect(run.leftProcesses, 'a process of the client’s group outlived it').toBe(false);
  const seen = run.result<ClientSeen>();
  expectSeen(profile, seen);
  if ('command' in target) {
    expect(seen.pid).toEqual(expect.any(Number));
    expect(await waitUntilGone(seen.pid!, 5_000), `the ${profile} server (pid ${seen.pid}) outlived its client`).toBe(
      true,
    );
  } else expect(seen.pid).toBeNull();
}

/**
 * The tests of one runtime's file: stdio and Streamable HTTP rows against server-everything and
 * the kit. The HTTP servers (server-everything's `streamableHttp` mode and the kit served by
 * node through test/runtimes/serve.mjs) start once for the file and stop in `afterAll`.
 */
export function callsFromTheRuntime(runtime: ServeRuntime): void {
  let everything: HttpServerProcess | undefined;
  let kit: RuntimeServer | undefined;
  beforeAll(async () => {
    [everything, kit] = await Promise.all([everythingOverHttp('streamableHttp'), startRuntime('node', 'kit-app.mjs')]);
  });
  afterAll(async () => {
    await Promise.all([everything?.stop(), kit?.stop()]);
  });
  it(`over stdio finds server-everything's legacy era, calls with progress and cancels`, () =>
    clientCallsUnder(runtime, 'everything', STDIO.everything));
  it('over stdio finds the kit on 2026-07-28, calls with progress and cancels (the tool sees the abort)', () =>
    clientCallsUnder(runtime, 'kit', STDIO.kit));
  it(`over Streamable HTTP finds server-everything's legacy era, calls with progress and cancels`, () =>
    clientCallsUnder(runtime, 'everything', { url: everything!.url }));
  it('over Streamable HTTP finds the kit on 2026-07-28, calls with progress and cancels (the tool sees the abort)', () =>
    clientCallsUnder(runtime, 'kit', { url: kit!.url }));
}

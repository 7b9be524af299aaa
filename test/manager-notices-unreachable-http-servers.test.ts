/**
 * Supervision of HTTP servers: a server that goes away is `error` at once (its background stream
 * or the next exchange finds it refusing connections), a call in flight fails fast instead of
 * waiting for its timeout, and the slot tries to restart with backoff.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { StatusChange } from '../src/manager/servers/slot-state.js';
import { everythingOverHttp, modernOverHttp, type HttpServerProcess } from './support/http-servers.js';
import { eventually } from './support/processes.js';
import { until } from './support/wait.js';
import { endAll } from './support/end-all.js';

let manager: McpManager | undefined;
let http: HttpServerProcess | undefined;
afterEach(async () => void ([manager, http] = await endAll([manager, 'disconnectAll'], [http, 'stop'])));

async function goesToErrorWhenKilled(
  server: HttpServerProcess,
  slowTool: { name: string; args: Record<string, unknown> } | undefined,
): Promise<void> {
  manager = McpManager.create({
    servers: [{ name: 'remote', transport: 'http', url: server.url, restart: { initialDelayMs: 100, maxRestarts: 2 } }],
  });
  await manager.connectAll();
  expect(manager.isConnected('remote')).toBe(true);
  const changes: StatusChange[] = [];
  manager.on('status', (change) => changes.push(change));
  // The slow call is under way (its first progress report came) when the server is stopped.
  let progressed = false;
  const inFlight = slowTool
    ? manager
        .callTool(`mcp__remote__${slowTool.name}`, slowTool.args, {
          timeoutMs: 60_000,
          onProgress: () => (progressed = true),
        })
        .then(
          () => 'answered',
          (error: { code?: string }) => error.code,
        )
    : undefined;
  if (inFlight) await until(() => progressed, { what: 'the first progress of the slow call' });
  await server.stop();
  await eventually(() => (changes.some((c) => c.status === 'error') ? true : undefined), 10_000);
  const failure = changes.find((c) => c.status === 'error')!;
  expect(failure.error?.message).toMatch(/server "remote": .*(unreachable|closed|reach)/);
  if (inFlight) expect(['CONNECTION_CLOSED', 'TRANSPORT']).toContain(await inFlight);
  expect(manager.getStatus().servers[0]).toMatchObject({
    status: 'error',
    lastError: expect.stringContaining('remote'),
  });
  // Restarts are attempted (and fail: the server is gone) until the breaker opens.
  await eventually(() => (manager!.getStatus().servers[0]!.circuitOpen ? true : undefined), 10_000);
  expect(manager.getStatus().servers[0]!.restarts).toBeGreaterThanOrEqual(1);
}

describe('McpManager with HTTP servers that go away', () => {
  it('legacy Streamable HTTP (server-everything): error at once, the call in flight fails fast', async () => {
    http = await everythingOverHttp('streamableHttp');
    await goesToErrorWhenKilled(http, { name: 'trigger-long-running-operation', args: { duration: 30, steps: 300 } });
  });

  it('2026-07-28 over HTTP: the listen stream finds the server gone', async () => {
    http = await modernOverHttp();
    await goesToErrorWhenKilled(http, undefined);
  });
});

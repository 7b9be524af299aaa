/**
 * `runMcpStep` without a runner uses the runner of the process's manager: once that manager is
 * replaced (`McpManager.resetInstance()`, then `getInstance()`), steps run in the new one, never
 * again in the forgotten one (whose servers nobody would stop).
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';
import { resetMcpSteps, runMcpStep } from '../src/manager/workflow-step.js';
import { FIXTURES } from './support/processes.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
const server: ManagedServer = { name: 'fs', transport: 'stdio', command: process.execPath, args: [SCRIPTED] };
const step = { server: 'fs', tool: 'echo', arguments: { text: 'hi' }, resultKey: 'out' };

let forgotten: McpManager | undefined;
afterEach(async () => {
  await resetMcpSteps();
  await McpManager.resetInstance();
  await forgotten?.disconnectAll();
  forgotten = undefined;
});

describe('the process runner of runMcpStep', () => {
  it('follows McpManager.resetInstance(): the next step connects the new manager, not the old one', async () => {
    const first = McpManager.getInstance({ servers: [server] });
    forgotten = first;
    await runMcpStep(step, {});
    expect(first.isConnected('fs')).toBe(true);

    await McpManager.resetInstance();
    expect(first.isConnected('fs')).toBe(false);
    const second = McpManager.getInstance({ servers: [server] });
    const context: Record<string, unknown> = {};
    await runMcpStep(step, context);
    expect(context.out).toMatchObject({ server: 'fs', tool: 'echo', isError: false });
    expect(second.isConnected('fs')).toBe(true);
    expect(first.isConnected('fs')).toBe(false);
  });
});

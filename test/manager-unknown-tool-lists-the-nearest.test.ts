/**
 * A name nothing answers to says what was asked and what exists: a tool no connected server has
 * lists the nearest tools with their servers (by the whole name and by the tool's own name); a
 * server that is not configured, in a tool name or in `connect`, names the configured servers
 * and the nearest one. The two read differently.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../src/manager/mcp-manager.js';
import { isMcpError } from '../src/protocol/errors.js';
import { FIXTURES } from './support/processes.js';
import { endAll } from './support/end-all.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
let manager: McpManager | undefined;
afterEach(async () => void ([manager] = await endAll([manager, 'close'])));

async function connected(): Promise<McpManager> {
  manager = McpManager.create({
    servers: [
      { name: 'fs', command: process.execPath, args: [SCRIPTED] },
      { name: 'git', command: process.execPath, args: [SCRIPTED] },
    ],
  });
  expect(await manager.connectAll()).toMatchObject({ connected: ['fs', 'git'] });
  return manager;
}

async function failure(run: () => Promise<unknown>): Promise<string> {
  const error = await run().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isMcpError(error, 'INVALID_ARGUMENT'), String(error)).toBe(true);
  return (error as Error).message;
}

describe('an unknown tool or server', () => {
  it("a misspelt tool of a server: that server's nearest tools", async () => {
    const m = await connected();
    expect(await failure(() => m.callTool('mcp__fs__ecko', { text: 'x' }))).toBe(
      'tools/call tool not found: mcp__fs__ecko on server "fs" (nearest: mcp__fs__echo (server "fs"))',
    );
  });

  it('a bare tool name: the nearest tools of every server, each with its server; execute says the same', async () => {
    const m = await connected();
    const message =
      'tools/call tool not found: echo (nearest: mcp__fs__echo (server "fs"), mcp__git__echo (server "git"))';
    expect(await failure(() => m.callTool('echo', { text: 'x' }))).toBe(message);
    expect(await failure(() => m.execute('echo', { text: 'x' }))).toBe(message);
  });

  it('a name like no tool: how many tools there are and where to see them', async () => {
    const m = await connected();
    const count = m.getAllTools().length;
    expect(await failure(() => m.callTool('qqqqqqqqqqqq', {}))).toBe(
      `tools/call tool not found: qqqqqqqqqqqq (no tool is named like it: ${count} tools on 2 servers (fs, git); getAllTools() lists them)`,
    );
  });

  it('an unknown server reads differently: in a tool name and in connect, naming the configured ones and the nearest', async () => {
    const m = await connected();
    expect(await failure(() => m.callTool('mcp__fz__echo', { text: 'x' }))).toBe(
      'tools/call unknown server "fz" in tool name mcp__fz__echo (configured: fs, git; did you mean "fs"?)',
    );
    expect(await failure(() => m.connect('gti'))).toBe(
      'unknown server "gti" (configured: fs, git; did you mean "git"?)',
    );
    expect(await failure(() => m.connect('zebra'))).toBe('unknown server "zebra" (configured: fs, git)');
  });
});

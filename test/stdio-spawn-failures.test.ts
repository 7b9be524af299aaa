/**
 * A stdio server that cannot start fails `StdioTransport.spawn` with `SPAWN_FAILED`, naming the
 * command and saying why; nothing is left running.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StdioTransport } from '../src/transport/stdio/stdio.js';
import { FIXTURES, isAlive } from './support/processes.js';

const node = process.execPath;
const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-spawn-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('StdioTransport.spawn failures', () => {
  it('names a command that does not exist (ENOENT)', async () => {
    const failure = StdioTransport.spawn({ command: 'no-such-mcp-server-xyz', args: ['--stdio'] });
    await expect(failure).rejects.toMatchObject({
      name: 'McpError',
      code: 'SPAWN_FAILED',
      server: 'no-such-mcp-server-xyz',
      message: 'server "no-such-mcp-server-xyz": could not start "no-such-mcp-server-xyz": command not found (ENOENT)',
      cause: expect.objectContaining({ code: 'ENOENT' }),
    });
  });

  it('uses the display name given in the options as the server', async () => {
    await expect(StdioTransport.spawn({ command: 'no-such-mcp-server-xyz' }, { name: 'fs' })).rejects.toMatchObject({
      server: 'fs',
      message: expect.stringMatching(/^server "fs": could not start "no-such-mcp-server-xyz"/),
    });
  });

  it('names a file that is not executable (EACCES)', async () => {
    const file = path.join(dir, 'server.sh');
    writeFileSync(file, '#!/bin/sh\n');
    chmodSync(file, 0o644);
    await expect(StdioTransport.spawn({ command: file })).rejects.toMatchObject({
      code: 'SPAWN_FAILED',
      message: expect.stringContaining(`could not start "${file}": permission denied (is it executable?) (EACCES)`),
    });
  });

  it('says the working directory is missing, not that the command is', async () => {
    const cwd = path.join(dir, 'no-such-dir');
    await expect(StdioTransport.spawn({ command: node, cwd })).rejects.toMatchObject({
      code: 'SPAWN_FAILED',
      message: expect.stringContaining(`could not start "${node}": working directory ${cwd} does not exist`),
    });
  });

  it('says the working directory is not a directory', async () => {
    const file = path.join(dir, 'plain-file');
    writeFileSync(file, '');
    await expect(StdioTransport.spawn({ command: node, cwd: file })).rejects.toMatchObject({
      code: 'SPAWN_FAILED',
      message: expect.stringContaining(`working directory ${file} is not a directory`),
    });
  });

  it('names a path whose parent is a file (ENOTDIR)', async () => {
    const file = path.join(dir, 'not-a-dir');
    writeFileSync(file, '');
    await expect(StdioTransport.spawn({ command: path.join(file, 'server') })).rejects.toMatchObject({
      code: 'SPAWN_FAILED',
      message: expect.stringMatching(/could not start ".*not-a-dir\/server": .*\((ENOTDIR|ENOENT)\)$/),
    });
  });

  it('resolves only once the process runs, with its pid', async () => {
    const t = await StdioTransport.spawn({ command: node, args: [path.join(FIXTURES, 'stdio', 'echo.mjs')], cwd: dir });
    try {
      expect(t.pid).toBeGreaterThan(0);
      expect(isAlive(t.pid)).toBe(true);
    } finally {
      await t.close();
    }
  });
});

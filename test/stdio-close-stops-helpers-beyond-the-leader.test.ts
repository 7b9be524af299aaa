/**
 * Closing a stdio server stops what it started even where the group signal alone did not: a
 * helper left in the group after the leader exited (the `npx` shape, where the wrapper exits with
 * its child) gets the same SIGTERM → SIGKILL steps as a live leader, and a descendant in a
 * session of its own (`detached`, like a browser a server launches) is found through `/proc`
 * before the server goes and stopped with it — by close(), by destroy(), and by the exit hook
 * of a host that leaves without closing. The descendant tests need `/proc` (Linux).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StdioTransport } from '../src/transport/stdio/stdio.js';
import { dies, eventually, FIXTURES, killAtTestEnd, procStat } from './support/processes.js';

const ROOT = path.resolve(FIXTURES, '../..');
const fixture = (name: string, ...args: string[]) => ({
  command: process.execPath,
  args: [path.join(FIXTURES, 'stdio', name), ...args],
});
const LINUX = process.platform === 'linux';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function linePid(lines: string[], prefix: string): Promise<number> {
  return killAtTestEnd(Number(await eventually(() => lines.find((l) => l.startsWith(`${prefix} `))?.split(' ')[1])));
}

describe('a helper left in the process group after its leader exited', () => {
  it('gets SIGTERM and its time to end, though the leader (an npx-like wrapper) left at stdin EOF', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-tree-'));
    dirs.push(dir);
    const signals = path.join(dir, 'signals');
    const lines: string[] = [];
    const t = await StdioTransport.spawn(fixture('wrapper-exits-with-child.mjs', '--signals', signals), {
      onStderr: (l) => lines.push(l),
      // Bounds only: the helper ends on SIGTERM, and close returns as soon as it has.
      closeTimeouts: { stdinEndMs: 10_000, sigtermMs: 10_000 },
    });
    const helper = await linePid(lines, 'helper');
    await t.close();
    // The wrapper exited with its child at stdin EOF: no SIGTERM step was needed for the leader.
    expect(t.exitStatus).toEqual({ code: 0, signal: null });
    expect(readFileSync(signals, 'utf8')).toBe('SIGTERM\n');
    expect(await dies(helper)).toBe(true);
  });

  it('is SIGKILLed when it ignores SIGTERM, within the bounded wait', async () => {
    const lines: string[] = [];
    const t = await StdioTransport.spawn(fixture('wrapper-exits-with-child.mjs'), {
      onStderr: (l) => lines.push(l),
      closeTimeouts: { stdinEndMs: 10_000, sigtermMs: 300 },
    });
    const helper = await linePid(lines, 'helper');
    await t.close();
    expect(t.exitStatus).toEqual({ code: 0, signal: null });
    expect(await dies(helper)).toBe(true);
  });
});

describe.skipIf(!LINUX)('a descendant in a session of its own (detached)', () => {
  it('is found before the server exits at stdin EOF, and stopped by close() even though it ignores SIGTERM', async () => {
    const lines: string[] = [];
    const t = await StdioTransport.spawn(fixture('spawns-detached-grandchild.mjs'), {
      onStderr: (l) => lines.push(l),
      closeTimeouts: { sigtermMs: 300 },
    });
    const detached = await linePid(lines, 'detached');
    // Really outside the server's group and session: the group signal cannot reach it.
    const [, ppid, pgrp, session] = procStat(detached)!;
    expect(Number(ppid)).toBe(t.pid);
    expect(Number(pgrp)).not.toBe(t.pid);
    expect(Number(session)).not.toBe(t.pid);
    await t.close();
    expect(t.exitStatus).toEqual({ code: 0, signal: null });
    expect(await dies(detached)).toBe(true);
  });

  it('is stopped by destroy()', async () => {
    const lines: string[] = [];
    const t = await StdioTransport.spawn(fixture('spawns-detached-grandchild.mjs', '--obeys-sigterm'), {
      onStderr: (l) => lines.push(l),
    });
    const detached = await linePid(lines, 'detached');
    t.destroy();
    await t.closed;
    expect(await dies(detached)).toBe(true);
    await t.close();
  });

  it('is stopped when the host process exits without closing', async () => {
    const host = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(ROOT, 'test/support/exits-without-closing-host.ts'),
        path.join(FIXTURES, 'stdio', 'spawns-detached-grandchild.mjs'),
        'detached',
      ],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    host.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    host.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => host.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const detached = killAtTestEnd(Number(stdout.trim()));
    expect(detached).toBeGreaterThan(0);
    expect(await dies(detached)).toBe(true);
  });
});

/**
 * `close()` stops servers that do not stop politely — one that ignores stdin EOF and SIGTERM is
 * SIGKILLed within the bounded waits — and their whole process group, grandchildren included.
 * `destroy()` kills at once.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpError } from '../src/protocol/errors.js';
import { StdioTransport } from '../src/transport/stdio/stdio.js';
import { eventually, FIXTURES, isAlive } from './support/processes.js';
import { until } from './support/wait.js';

const fixture = (name: string) => ({ command: process.execPath, args: [path.join(FIXTURES, 'stdio', name)] });

/**
 * Polls up to `ms` until `pid` is dead: `process.kill(pid, 0)` throws ESRCH, or (Linux) the
 * process is a zombie — dead, and only waiting for init, its new parent, to reap it.
 */
async function waitUntilDead(pid: number, ms = 5_000): Promise<boolean> {
  return until(() => !isAlive(pid) || isZombie(pid), ms).then(
    () => true,
    () => false,
  );
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

describe('closing servers that do not stop politely', () => {
  it('SIGKILLs a server that ignores stdin EOF and SIGTERM, within the bounded waits', async () => {
    const lines: string[] = [];
    const t = await StdioTransport.spawn(fixture('ignores-sigterm.mjs'), {
      onStderr: (l) => lines.push(l),
      closeTimeouts: { stdinEndMs: 200, sigtermMs: 200 },
    });
    await eventually(() => (lines.includes('ready') ? true : undefined));
    const started = Date.now();
    await t.close();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(isAlive(t.pid)).toBe(false);
    expect(lines).toEqual(['ready', 'ignoring stdin EOF', 'ignoring SIGTERM']);
    expect(await t.closed).toEqual({});
  });

  it('stops the grandchildren a server started, even one that ignores SIGTERM', async () => {
    const lines: string[] = [];
    const t = await StdioTransport.spawn(fixture('spawns-grandchild.mjs'), {
      onStderr: (l) => lines.push(l),
      closeTimeouts: { stdinEndMs: 100, sigtermMs: 500 },
    });
    const grandchild = Number(await eventually(() => lines.find((l) => l.startsWith('grandchild '))?.split(' ')[1]));
    expect(isAlive(grandchild)).toBe(true);
    await t.close();
    expect(isAlive(t.pid)).toBe(false);
    expect(await waitUntilDead(grandchild)).toBe(true);
  });
});

describe('destroy()', () => {
  it('kills at once, with no error when none is given', async () => {
    const t = await StdioTransport.spawn(fixture('ignores-sigterm.mjs'));
    const started = Date.now();
    t.destroy();
    expect(await t.closed).toEqual({});
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await waitUntilDead(t.pid, 2_000)).toBe(true);
    await t.close();
  });

  it('settles closed with the error it is given, and kills the grandchildren too', async () => {
    const lines: string[] = [];
    const t = await StdioTransport.spawn(fixture('spawns-grandchild.mjs'), { onStderr: (l) => lines.push(l) });
    const grandchild = Number(await eventually(() => lines.find((l) => l.startsWith('grandchild '))?.split(' ')[1]));
    const reason = new McpError('TIMEOUT', 'gave up on the server');
    t.destroy(reason);
    expect((await t.closed).error).toBe(reason);
    await expect(t.send({ jsonrpc: '2.0', id: 1, method: 'x' })).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(await waitUntilDead(grandchild)).toBe(true);
    await t.close();
  });
});

/**
 * `ClientOptions.signal` aborts a stdio connect wherever it is — before the spawn, while the
 * process is being started, during a handshake the server never answers — and the connect rejects
 * at once with `CANCELLED` (the signal's reason as `cause`), leaving no process behind, even one
 * that ignores stdin EOF and SIGTERM.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { isMcpError } from '../src/protocol/errors.js';
import { StdioTransport } from '../src/transport/stdio/stdio.js';
import type { TraceRecord } from '../src/observe/trace-record.js';
import { eventually, FIXTURES, isAlive } from './support/processes.js';

const SCRIPT = path.join(FIXTURES, 'stdio', 'never-answers.mjs');
const server = { command: process.execPath, args: [SCRIPT] };

/** Children of this process (Linux) whose command line names `script`: none may be left. */
function childrenRunning(script: string): number[] {
  if (process.platform !== 'linux') return [];
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z' || Number(ppid) !== process.pid) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(script)) found.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

describe('aborting a stdio connect', () => {
  it('during a handshake the server never answers: CANCELLED at once with the reason, and the server (deaf to EOF and SIGTERM) is gone', async () => {
    const controller = new AbortController();
    const reason = new Error('user pressed Ctrl-C');
    let pid: number | undefined;
    let abortedAt = 0;
    const connecting = McpClient.connect(server, {
      name: 'mute',
      era: 'legacy',
      signal: controller.signal,
      onStderr: (line) => {
        if (!line.startsWith('running ')) return;
        pid = Number(line.split(' ')[1]);
        abortedAt = performance.now();
        controller.abort(reason);
      },
    }).catch((error: unknown) => error);
    const error = await connecting;
    // The polite close would have waited 2 s for stdin EOF and 2 s after SIGTERM.
    expect(performance.now() - abortedAt).toBeLessThan(3_000);
    expect(isMcpError(error, 'CANCELLED')).toBe(true);
    expect(error).toMatchObject({ server: 'mute', method: 'initialize', cause: reason });
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid!)).toBe(false);
  });

  it('already aborted: rejects with CANCELLED and starts nothing', async () => {
    const reason = new Error('never mind');
    const records: TraceRecord[] = [];
    const lines: string[] = [];
    const error = await McpClient.connect(server, {
      name: 'mute',
      signal: AbortSignal.abort(reason),
      onStderr: (l) => lines.push(l),
      trace: { sink: (r) => records.push(r) },
    }).catch((e: unknown) => e);
    expect(isMcpError(error, 'CANCELLED')).toBe(true);
    expect(error).toMatchObject({
      server: 'mute',
      cause: reason,
      message: 'server "mute": connect was cancelled by the caller',
    });
    expect(records.filter((r) => r.event === 'spawn')).toEqual([]);
    expect(childrenRunning(SCRIPT)).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('while the process is being started: the transport rejects with CANCELLED once the process has exited', async () => {
    const controller = new AbortController();
    const reason = new Error('changed my mind');
    const starting = StdioTransport.spawn(server, { name: 'mute', signal: controller.signal }).catch((e: unknown) => e);
    // spawn() has been called, its 'spawn' event not delivered yet.
    controller.abort(reason);
    const error = await starting;
    expect(isMcpError(error, 'CANCELLED')).toBe(true);
    expect(error).toMatchObject({ server: 'mute', cause: reason });
    expect(childrenRunning(SCRIPT)).toEqual([]);
  });

  it('after the handshake completed changes nothing: the client stays connected', async () => {
    const controller = new AbortController();
    const client = await McpClient.connect(
      { command: process.execPath, args: [path.join(FIXTURES, 'legacy', 'scripted-server.mjs')] },
      { name: 'ok', era: 'legacy', signal: controller.signal },
    );
    controller.abort(new Error('late'));
    await expect(client.ping()).resolves.toBeUndefined();
    await client.close();
    await eventually(() => (client.pid !== undefined && !isAlive(client.pid) ? true : undefined));
  });
});

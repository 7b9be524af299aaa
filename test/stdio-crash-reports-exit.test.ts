/**
 * A stdio server that exits or breaks its pipes on its own is noticed at once: `closed` resolves
 * with a `CONNECTION_CLOSED` error naming the exit code or signal and the last stderr lines,
 * sends reject instead of throwing, and nothing the server started is left behind.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type StdioTransportOptions, StdioTransport } from '../src/transport/stdio/stdio.js';
import { eventually, FIXTURES, isAlive, waitUntilGone } from './support/processes.js';

const node = process.execPath;
const open: StdioTransport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function start(args: string[], options: StdioTransportOptions = {}): Promise<StdioTransport> {
  const t = await StdioTransport.spawn({ command: node, args }, options);
  open.push(t);
  return t;
}

const exitsWithCode = (code: number, afterMs = 0) => [
  path.join(FIXTURES, 'stdio', 'exits-with-code.mjs'),
  String(code),
  String(afterMs),
];

describe('a server that exits on its own', () => {
  it('reports the exit code and the last stderr lines, well before any close timeout', async () => {
    // Close timeouts far longer than the bound: waiting for one would fail the test.
    const t = await start(exitsWithCode(3), { closeTimeouts: { stdinEndMs: 30_000, sigtermMs: 30_000 } });
    const started = Date.now();
    const info = await t.closed;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(info.error).toMatchObject({ name: 'McpError', code: 'CONNECTION_CLOSED', server: 'exits-with-code' });
    expect(info.error!.message).toBe(
      `server "exits-with-code": the server exited with code 3; last stderr: fatal: could not open database | giving up`,
    );
  });

  it('reports an exit with code 0 that nobody asked for as an error too', async () => {
    const t = await start(exitsWithCode(0), { name: 'quiet' });
    expect((await t.closed).error?.message).toBe(
      'server "quiet": the server exited with code 0; last stderr: fatal: could not open database | giving up',
    );
  });

  it('names the signal that killed the server', async () => {
    const t = await start(['-e', 'setInterval(() => {}, 1000)']);
    process.kill(t.pid, 'SIGKILL');
    expect((await t.closed).error?.message).toBe('server "node": the server was killed by SIGKILL');
  });

  it('delivers the messages written just before the exit, then closes', async () => {
    const t = await start([
      '-e',
      "process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'last/words' }) + '\\n'); process.exit(1)",
    ]);
    const events: string[] = [];
    t.onMessage((v) => events.push((v as { method: string }).method));
    await t.closed.then(() => events.push('closed'));
    expect(events).toEqual(['last/words', 'closed']);
  });

  it('rejects sends after the exit with CONNECTION_CLOSED naming the cause', async () => {
    const t = await start(exitsWithCode(2));
    await t.closed;
    await expect(t.send({ jsonrpc: '2.0', id: 1, method: 'ping' })).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
      message: expect.stringContaining('cannot send: the server exited with code 2'),
    });
  });

  it('kills what a crashed server started', async () => {
    const lines: string[] = [];
    const script = [
      "const { spawn } = require('node:child_process');",
      "const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });",
      "process.stderr.write('grandchild ' + c.pid + '\\n');",
      'setTimeout(() => process.exit(9), 100);',
    ].join('\n');
    const t = await start(['-e', script], { onStderr: (l) => lines.push(l) });
    const grandchild = Number(await eventually(() => lines.find((l) => l.startsWith('grandchild '))?.split(' ')[1]));
    expect((await t.closed).error?.message).toContain('exited with code 9');
    expect(await waitUntilGone(grandchild, 5_000)).toBe(true);
  });
});

describe('a server whose pipes break', () => {
  it('turns EPIPE on stdin into rejected sends, never an uncaught error', async () => {
    // The server closes its end of stdin but keeps running.
    const t = await start(
      ['-e', "require('node:fs').closeSync(0); process.stderr.write('stdin gone\\n'); setInterval(() => {}, 1000)"],
      {
        closeTimeouts: { stdinEndMs: 100, sigtermMs: 1_000 },
      },
    );
    await eventually(() => (t.stderrTail().includes('stdin gone') ? true : undefined));
    let failure: unknown;
    for (let i = 0; i < 200 && failure === undefined; i++) {
      try {
        await t.send({ jsonrpc: '2.0', method: 'notifications/ping', params: { i } });
      } catch (error) {
        failure = error;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(failure).toMatchObject({
      code: 'CONNECTION_CLOSED',
      message: expect.stringContaining('writing to the server failed'),
    });
    expect(isAlive(t.pid)).toBe(true);
    await t.close();
    expect(isAlive(t.pid)).toBe(false);
  });

  it('stops a server that closes stdout but keeps running, and reports it', async () => {
    const t = await start(
      [
        '-e',
        "require('node:fs').closeSync(1); process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1000)",
      ],
      {
        closeTimeouts: { stdinEndMs: 30_000 },
      },
    );
    const info = await t.closed;
    expect(info.error?.message).toBe('server "node": the server closed its stdout');
    // Stopped with SIGTERM at once, without waiting the 30 s for it to notice stdin EOF first.
    expect(await waitUntilGone(t.pid, 10_000)).toBe(true);
  });
});

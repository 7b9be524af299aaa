/**
 * `close()` on a well-behaved stdio server ends it by stdin EOF alone, is idempotent, leaves no
 * handle, listener or timer behind, and turns later sends into rejections.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StdioTransport } from '../src/transport/stdio/stdio.js';
import { FIXTURES, isAlive } from './support/processes.js';

const echo = { command: process.execPath, args: [path.join(FIXTURES, 'stdio', 'echo.mjs')] };

/** Counts of the libuv resources a stdio transport holds: pipes, the process, timers. */
function resources(): { PipeWrap: number; ProcessWrap: number; Timeout: number } {
  const counts = { PipeWrap: 0, ProcessWrap: 0, Timeout: 0 };
  for (const name of process.getActiveResourcesInfo()) if (name in counts) counts[name as keyof typeof counts]++;
  return counts;
}

/** The same pipes and process handles as `before`, and no more timers (the runner's own may end meanwhile). */
function expectNothingLeft(before: ReturnType<typeof resources>): void {
  const now = resources();
  expect({ PipeWrap: now.PipeWrap, ProcessWrap: now.ProcessWrap }).toEqual({
    PipeWrap: before.PipeWrap,
    ProcessWrap: before.ProcessWrap,
  });
  expect(now.Timeout).toBeLessThanOrEqual(before.Timeout);
}

describe('closing a well-behaved server', () => {
  it('ends it by stdin EOF, well before the SIGTERM step, with no error', async () => {
    const lines: string[] = [];
    const t = await StdioTransport.spawn(echo, {
      onStderr: (l) => lines.push(l),
      closeTimeouts: { stdinEndMs: 10_000 },
    });
    const started = Date.now();
    await t.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(lines).toEqual(['stdin closed']);
    expect(isAlive(t.pid)).toBe(false);
    expect(await t.closed).toEqual({});
  });

  it('is idempotent: every call returns the same promise', async () => {
    const t = await StdioTransport.spawn(echo);
    const first = t.close();
    expect(t.close()).toBe(first);
    await first;
    expect(t.close()).toBe(first);
    t.destroy();
    await t.close();
    expect(await t.closed).toEqual({});
  });

  it('lets in-flight answers arrive while it closes', async () => {
    const t = await StdioTransport.spawn(echo);
    const got: unknown[] = [];
    t.onMessage((v) => got.push(v));
    await t.send({ jsonrpc: '2.0', id: 1, method: 'x' });
    await t.close();
    expect(got).toEqual([{ jsonrpc: '2.0', id: 1, result: { echo: null } }]);
  });

  it('rejects sends while closing and after with CONNECTION_CLOSED', async () => {
    const t = await StdioTransport.spawn(echo, { name: 'echo' });
    const closing = t.close();
    await expect(t.send({ jsonrpc: '2.0', id: 1, method: 'x' })).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
      message: 'server "echo": cannot send: the connection is closing',
    });
    await closing;
    await expect(t.send({ jsonrpc: '2.0', id: 2, method: 'x' })).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
      message: 'server "echo": cannot send: the connection is closed',
    });
  });

  it('leaves no pipe, process handle or timer behind', async () => {
    const before = resources();
    const t = await StdioTransport.spawn(echo);
    expect(resources().PipeWrap).toBe(before.PipeWrap + 3);
    expect(resources().ProcessWrap).toBe(before.ProcessWrap + 1);
    await t.send({ jsonrpc: '2.0', id: 1, method: 'x' });
    await t.close();
    expectNothingLeft(before);
  });

  it('leaves nothing behind after a crash either, once closed is settled', async () => {
    const before = resources();
    const t = await StdioTransport.spawn({
      command: process.execPath,
      args: [path.join(FIXTURES, 'stdio', 'exits-with-code.mjs'), '1'],
    });
    await t.closed;
    await t.close();
    expectNothingLeft(before);
  });
});

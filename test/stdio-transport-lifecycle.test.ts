import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TransportDiagnostic } from '../src/protocol/transport.js';
import { buildServerEnv } from '../src/transport/stdio-env.js';
import { StdioTransport } from '../src/transport/stdio.js';
import { eventually, FIXTURES, isAlive, waitUntilGone } from './support/processes.js';

const node = process.execPath;
const fixture = (name: string) => path.join(FIXTURES, 'stdio', name);
const open: StdioTransport[] = [];

async function start(name: string, args: string[] = [], options: Parameters<typeof StdioTransport.spawn>[1] = {}, env?: Record<string, string>) {
  const t = await StdioTransport.spawn({ command: node, args: [fixture(name), ...args], ...(env ? { env } : {}) }, options);
  open.push(t);
  return t;
}

function nextMessage(t: StdioTransport): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const off = t.onMessage((v) => {
      off();
      resolve(v as Record<string, unknown>);
    });
  });
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

describe('starting a stdio server', () => {
  it('fails with SPAWN_FAILED naming a command that does not exist', async () => {
    await expect(StdioTransport.spawn({ command: 'no-such-mcp-server-xyz' })).rejects.toMatchObject({
      code: 'SPAWN_FAILED',
      message: expect.stringContaining('could not start "no-such-mcp-server-xyz": command not found (ENOENT)'),
    });
  });

  it('fails with SPAWN_FAILED on a file that is not executable', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-'));
    const file = path.join(dir, 'server.sh');
    writeFileSync(file, '#!/bin/sh\n');
    chmodSync(file, 0o644);
    await expect(StdioTransport.spawn({ command: file })).rejects.toMatchObject({ code: 'SPAWN_FAILED', message: expect.stringContaining('permission denied') });
  });

  it('fails with SPAWN_FAILED when the working directory is missing', async () => {
    await expect(StdioTransport.spawn({ command: node, cwd: '/no/such/dir' })).rejects.toMatchObject({ code: 'SPAWN_FAILED', message: expect.stringContaining('/no/such/dir') });
  });

  it('passes the safe allowlist plus the configured env, not the rest of this environment', async () => {
    process.env.MCPWIRE_TEST_SECRET = 'hunter2';
    try {
      const t = await start('echo.mjs', [], {}, { EXTRA: 'yes' });
      const reply = nextMessage(t);
      await t.send({ jsonrpc: '2.0', id: 1, method: 'env' });
      const env = ((await reply).result as { env: Record<string, string> }).env;
      expect(env.PATH).toBe(process.env.PATH);
      expect(env.EXTRA).toBe('yes');
      expect(env.MCPWIRE_TEST_SECRET).toBeUndefined();
      expect(buildServerEnv({}, true).MCPWIRE_TEST_SECRET).toBe('hunter2');
    } finally {
      delete process.env.MCPWIRE_TEST_SECRET;
    }
  });
});

describe('messages and stderr', () => {
  it('round-trips messages and exposes the pid', async () => {
    const t = await start('echo.mjs');
    expect(isAlive(t.pid)).toBe(true);
    const reply = nextMessage(t);
    await t.send({ jsonrpc: '2.0', id: 1, method: 'x', params: { hello: 'wörld' } });
    expect(await reply).toEqual({ jsonrpc: '2.0', id: 1, result: { echo: { hello: 'wörld' } } });
  });

  it('skips junk and oversized stdout lines, reports them, and keeps the session working', async () => {
    const t = await start('echo.mjs', [], { maxMessageBytes: 4096 }, { JUNK: '1', OVERSIZE: '10000' });
    const diagnostics: TransportDiagnostic[] = [];
    t.onDiagnostic((d) => diagnostics.push(d));
    const values: unknown[] = [];
    t.onMessage((v) => values.push(v));
    await t.send({ jsonrpc: '2.0', id: 1, method: 'a' });
    await t.send({ jsonrpc: '2.0', id: 2, method: 'b' });
    await eventually(() => (values.length === 2 ? true : undefined));
    expect(values).toEqual([
      { jsonrpc: '2.0', id: 1, result: { echo: null } },
      { jsonrpc: '2.0', id: 2, result: { echo: null } },
    ]);
    expect(diagnostics.map((d) => d.kind)).toEqual(['invalid-json', 'invalid-json', 'oversize', 'invalid-json', 'invalid-json', 'oversize']);
    expect(diagnostics[0]!.sample).toBe('Server starting... (this is not JSON)');
  });

  it('captures stderr line by line into the handler and a bounded ring', async () => {
    const lines: string[] = [];
    const t = await start('exits-with-code.mjs', ['0', '200'], { onStderr: (l) => lines.push(l), stderrLines: 1 });
    await t.closed;
    expect(lines).toEqual(['fatal: could not open database', 'giving up']);
    expect(t.stderrTail()).toEqual(['giving up']);
  });
});

describe('exit and close', () => {
  it('reports a crash at once with the exit code and the last stderr lines', async () => {
    const t = await start('exits-with-code.mjs', ['3', '100']);
    const info = await t.closed;
    expect(info.error).toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(info.error!.message).toBe('server "' + node + '": the server exited with code 3; last stderr: fatal: could not open database | giving up');
    await expect(t.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  it('closes a well-behaved server by ending stdin, idempotently, with no error', async () => {
    const t = await start('echo.mjs');
    const first = t.close();
    expect(t.close()).toBe(first);
    await first;
    expect(await t.closed).toEqual({});
    expect(isAlive(t.pid)).toBe(false);
    await expect(t.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  it('SIGKILLs a server that ignores stdin EOF and SIGTERM, within the bounded waits', async () => {
    const lines: string[] = [];
    const t = await start('ignores-sigterm.mjs', [], { onStderr: (l) => lines.push(l), closeTimeouts: { stdinEndMs: 200, sigtermMs: 200 } });
    await eventually(() => (lines.includes('ready') ? true : undefined));
    const started = Date.now();
    await t.close();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(isAlive(t.pid)).toBe(false);
    expect(lines).toContain('ignoring SIGTERM');
  });

  it('stops the grandchildren a server started', async () => {
    const lines: string[] = [];
    const t = await start('spawns-grandchild.mjs', [], { onStderr: (l) => lines.push(l), closeTimeouts: { stdinEndMs: 100, sigtermMs: 500 } });
    const grandchild = Number(await eventually(() => lines.find((l) => l.startsWith('grandchild '))?.split(' ')[1]));
    expect(isAlive(grandchild)).toBe(true);
    await t.close();
    expect(await waitUntilGone(grandchild)).toBe(true);
    expect(isAlive(t.pid)).toBe(false);
  });

  it('destroy() kills at once', async () => {
    const t = await start('ignores-sigterm.mjs');
    t.destroy();
    await t.closed;
    expect(await waitUntilGone(t.pid, 2_000)).toBe(true);
  });
});

/**
 * `FileTokenStore.lock`, the refresh lock processes sharing a login directory take: against a
 * real holder in another process (mcpwire from dist/), a wait is bounded (the error names the
 * lock) and ends at once on the caller's signal; once the holder is SIGKILLed its lock, no longer
 * kept fresh, is broken after the stale bound and the next caller runs. Real files, no mocks.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../src/auth/file-token-store.js';
import { requireBuiltCli, ROOT } from './support/cli.js';
import { dies, killAtTestEnd } from './support/processes.js';
import { within } from './support/wait.js';

const KEY = 'https://mcp.example.com/mcp';
let dir: string | undefined;

beforeAll(() => requireBuiltCli());
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A process holding `KEY`'s lock in `dir` until killed; resolves with its pid once it holds it. */
async function holder(lockDir: string): Promise<number> {
  const script = `
    import { FileTokenStore } from ${JSON.stringify(path.join(ROOT, 'dist/auth/index.js'))};
    setInterval(() => {}, 60_000);
    await new FileTokenStore({ dir: ${JSON.stringify(lockDir)}, lockStaleMs: 2000 }).lock(${JSON.stringify(KEY)}, () => {
      process.stdout.write('held\\n');
      return new Promise(() => {});
    });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  killAtTestEnd(child.pid!);
  await within(
    new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => chunk.includes('held') && resolve());
      child.once('exit', (code) => reject(new Error(`the lock holder exited (${code}) before holding the lock`)));
    }),
    { timeoutMs: 20_000, what: 'the other process to hold the lock' },
  );
  return child.pid!;
}

describe('the file store’s refresh lock', () => {
  it('waits no longer than its bound for a live holder, and stops waiting on the caller’s signal', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-lock-'));
    await holder(dir);
    const store = new FileTokenStore({ dir, lockStaleMs: 2_000, lockWaitMs: 500 });
    let ran = false;
    const error = await store
      .lock(KEY, async () => {
        ran = true;
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(
      `the login lock ${store.lockOf(KEY)} is held by another process for more than 500 ms`,
    );
    const patient = new FileTokenStore({ dir, lockStaleMs: 2_000, lockWaitMs: 60_000 });
    const controller = new AbortController();
    const waiting = patient.lock(
      KEY,
      async () => {
        ran = true;
      },
      controller.signal,
    );
    controller.abort(new Error('the caller gave up'));
    await expect(within(waiting, { timeoutMs: 5_000, what: 'the aborted wait to end' })).rejects.toThrow(
      'the caller gave up',
    );
    expect(ran).toBe(false);
  });

  it('breaks the lock of a holder that died, once stale, and runs the task', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-lock-'));
    const pid = await holder(dir);
    const store = new FileTokenStore({ dir, lockStaleMs: 2_000, lockWaitMs: 30_000 });
    process.kill(pid, 'SIGKILL');
    expect(await dies(pid)).toBe(true);
    expect(existsSync(store.lockOf(KEY))).toBe(true); // left behind: nobody removed it
    const result = await within(
      store.lock(KEY, async () => 'ran'),
      { timeoutMs: 30_000, what: 'the lock of the dead process to be broken' },
    );
    expect(result).toBe('ran');
    expect(existsSync(store.lockOf(KEY))).toBe(false);
  });
});

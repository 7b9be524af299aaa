/**
 * The file store writes a login to a temporary file and renames it over the old one: a reader in
 * another process never sees half a login. Another process (mcpwire from dist/) rewrites one
 * large login again and again while the test reads it as fast as it can; every read is a whole
 * login, one of those written, and no temporary file is left.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../src/auth/file-token-store.js';
import { requireBuiltCli, ROOT } from './support/cli.js';
import { killAtTestEnd } from './support/processes.js';
import { within } from './support/wait.js';

const KEY = 'https://mcp.example.com/mcp';
const WRITES = 300;
let dir: string | undefined;

beforeAll(() => requireBuiltCli());
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the file store’s writes', () => {
  it('are whole for a reader in another process, however often they come', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-atomic-'));
    const store = new FileTokenStore({ dir });
    // A login of about 256 KiB, so a write takes many chunks: a torn one would be seen.
    const padding = 'x'.repeat(256 * 1024);
    await store.set(KEY, { tokens: { accessToken: `token-0-${padding}`, tokenType: 'Bearer' } });
    const script = `
      import { FileTokenStore } from ${JSON.stringify(path.join(ROOT, 'dist/auth/index.js'))};
      const store = new FileTokenStore({ dir: ${JSON.stringify(dir)} });
      for (let i = 1; i <= ${WRITES}; i++)
        await store.set(${JSON.stringify(KEY)}, { tokens: { accessToken: 'token-' + i + '-' + 'x'.repeat(${padding.length}), tokenType: 'Bearer' } });`;
    const writer = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    killAtTestEnd(writer.pid!);
    let stderr = '';
    writer.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    let finished = false;
    const exited = new Promise<number | null>((resolve) =>
      writer.once('exit', (code) => {
        finished = true;
        resolve(code);
      }),
    );
    const seen = new Set<number>();
    let reads = 0;
    while (!finished) {
      const login = await store.get(KEY);
      reads++;
      const token = login?.tokens?.accessToken ?? '';
      const match = /^token-(\d+)-(x*)$/.exec(token);
      expect(match, `read ${reads} was not a whole login`).not.toBeNull();
      expect(match![2]).toHaveLength(padding.length);
      seen.add(Number(match![1]));
    }
    expect(await within(exited, { timeoutMs: 60_000, what: 'the writer to finish' }), stderr).toBe(0);
    expect((await store.get(KEY))?.tokens?.accessToken).toBe(`token-${WRITES}-${padding}`);
    // The reads met the writes many times over (not just the first and the last login).
    expect(seen.size).toBeGreaterThan(2);
    expect(readdirSync(dir)).toEqual([path.basename(store.fileOf(KEY))]);
  });
});

/**
 * After `close()` of an HTTP client resolves, no timer or socket of ours remains: a process
 * that has nothing else to do exits by itself, at once. (Both transports once raced a 2 s sleep
 * against the dispatcher's close and never cleared it, so every close kept the process alive.)
 * The client runs in a child process on the built library (`npm run build` first; `npm test`
 * does it), and reports what keeps it alive right after close.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, httpSseServer, legacyServer, startHttpFixture } from './support/http-fixture.js';
import { endAll } from './support/end-all.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHILD = path.join(ROOT, 'test/support/http-client-close-then-report.mjs');
const BUILT = path.join(ROOT, 'dist/index.js');

beforeAll(() => {
  if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: run "npm run build" (npm test does it)`);
});

let fixture: HttpFixture | undefined;

afterEach(async () => void ([fixture] = await endAll([fixture, 'close'])));

interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  report: { tools: string[]; left: string[] } | undefined;
  stderr: string;
}

/** Runs the child client against `url`; bounded (20 s, then SIGKILL and a failed assertion). */
function runChild(url: string, transport: 'http' | 'sse'): Promise<ChildRun> {
  const child = spawn(process.execPath, [CHILD, url, transport], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    const bound = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the client process did not exit within 20 s; stderr: ${stderr}`));
    }, 20_000);
    child.once('close', (code, signal) => {
      clearTimeout(bound);
      const line = stdout.split('\n').find((l) => l.startsWith('{'));
      resolve({ code, signal, report: line ? (JSON.parse(line) as ChildRun['report']) : undefined, stderr });
    });
  });
}

describe('HTTP close() leaves nothing running', () => {
  it('Streamable HTTP (legacy session, ended with DELETE): no timer or socket remains and the process exits by itself', async () => {
    fixture = await startHttpFixture(() => false, legacyServer());
    const run = await runChild(fixture.url, 'http');
    expect(run.stderr).toBe('');
    expect(run.report).toEqual({ tools: ['echo'], left: [] });
    expect(run).toMatchObject({ code: 0, signal: null });
    expect(fixture.seen('DELETE')).toHaveLength(1);
  });

  it('HTTP+SSE (2024-11-05): no timer or socket remains and the process exits by itself', async () => {
    fixture = await startHttpFixture(
      httpSseServer({ tools: [{ name: 'legacy-tool', inputSchema: { type: 'object' } }] }),
    );
    const run = await runChild(fixture.url, 'sse');
    expect(run.stderr).toBe('');
    expect(run.report).toEqual({ tools: ['legacy-tool'], left: [] });
    expect(run).toMatchObject({ code: 0, signal: null });
  });
});

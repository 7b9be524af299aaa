/**
 * `mcpwire proxy -- <server>` (the real `node dist/cli.js proxy`) stops the server's whole process
 * tree the way the stdio transport does, in the three ways a proxied server ends: its host goes
 * away (EOF on the proxy's stdin), the proxy is signalled, and the server exits by itself. The
 * tree is a helper left in the server's process group by an `npx`-like wrapper, or (Linux) a
 * grandchild in a session of its own, like a browser a server launched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, requireBuiltCli } from './support/cli.js';
import { dies, eventually, FIXTURES, killAtTestEnd, procStat } from './support/processes.js';
import { within } from './support/wait.js';

const node = process.execPath;
const LINUX = process.platform === 'linux';
const fixture = (name: string) => path.join(FIXTURES, 'stdio', name);

beforeAll(() => requireBuiltCli());

const dirs: string[] = [];
const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The proxy as a host runs it, its stdio piped; stderr (the server's, passed through) collected. */
function startProxy(...server: string[]) {
  const child = spawn(node, [CLI, 'proxy', '--', node, ...server], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  running.push(child);
  let stderr = '';
  child.stdout.resume();
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.on('error', () => {});
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  /** How the proxy ended; bounded (a hung proxy fails here, and the cleanup kills it). */
  const exit = () => within(closed, { timeoutMs: 20_000, what: 'the proxy to exit' });
  /** The pid the server printed as `<prefix> <pid>` on stderr, remembered for the cleanup. */
  const printedPid = async (prefix: string) => {
    const line = await eventually(() => stderr.split('\n').find((l) => l.startsWith(`${prefix} `)), {
      timeoutMs: 20_000,
      what: `"${prefix} <pid>" on the proxy's stderr`,
    });
    return killAtTestEnd(Number(line.split(' ')[1]));
  };
  return { child, exit, printedPid, stderr: () => stderr };
}

describe('mcpwire proxy stops the server’s process tree', () => {
  it('when its host goes away: a helper the wrapper left in the group gets SIGTERM once the server exits, and ends', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-proxy-tree-'));
    dirs.push(dir);
    const signals = path.join(dir, 'signals');
    const proxy = startProxy(fixture('wrapper-exits-with-child.mjs'), '--signals', signals);
    const helper = await proxy.printedPid('helper');
    proxy.child.stdin.end(); // the host went away
    // The wrapper exits 0 with its server at EOF; the proxy ends as it did.
    expect(await proxy.exit()).toEqual({ code: 0, signal: null });
    expect(await dies(helper)).toBe(true);
    expect(readFileSync(signals, 'utf8')).toBe('SIGTERM\n');
  });

  it('when the server exits by itself: a helper left in its group (deaf to SIGTERM) is killed', async () => {
    const proxy = startProxy(fixture('wrapper-exits-with-child.mjs'));
    const helper = await proxy.printedPid('helper');
    // The real server is the helper's parent (the wrapper's child): it dies, and the wrapper with it.
    const server = Number(procStat(helper)?.[1]);
    expect(server).toBeGreaterThan(1);
    process.kill(server, 'SIGKILL');
    expect(await proxy.exit()).toEqual({ code: 1, signal: null });
    expect(await dies(helper)).toBe(true);
  });

  it.skipIf(!LINUX)(
    'when it is signalled: a grandchild in a session of its own (deaf to SIGTERM) goes too',
    async () => {
      const proxy = startProxy(fixture('spawns-detached-grandchild.mjs'));
      const detached = await proxy.printedPid('detached');
      proxy.child.kill('SIGTERM');
      // The server died of the forwarded SIGTERM; the proxy dies of the same signal.
      expect(await proxy.exit()).toEqual({ code: null, signal: 'SIGTERM' });
      expect(await dies(detached)).toBe(true);
    },
  );

  it.skipIf(!LINUX)(
    'when its host goes away: a grandchild in a session of its own is found before the server exits, and stopped',
    async () => {
      const proxy = startProxy(fixture('spawns-detached-grandchild.mjs'), '--obeys-sigterm');
      const detached = await proxy.printedPid('detached');
      proxy.child.stdin.end();
      expect(await proxy.exit()).toEqual({ code: 0, signal: null });
      expect(await dies(detached)).toBe(true);
    },
  );
});

/**
 * Closing the terminal `mcpwire` runs in (SIGHUP) ends it the way SIGTERM does: the session (or
 * the repl's every server) is closed and a stdio server's process tree is stopped, even a server
 * that ignores stdin EOF and traps SIGTERM and SIGHUP (it leads its own process group, so the
 * terminal's hangup never reaches it), and the command exits 129 (128 + 1). Real
 * pseudo-terminals (tmux), real processes.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, requireBuiltCli } from './support/cli.js';
import { isAlive, waitUntilGone } from './support/processes.js';
import { requireTmux, useTerminals, type Terminal } from './support/tmux.js';
import { until, within } from './support/wait.js';
import { useTempDir } from './support/temp-dir.js';

const STUBBORN = path.join(ROOT, 'test/support/stubborn-server.mjs');
const node = process.execPath;

let terminal: Terminal | undefined;
const tmp = useTempDir('mcpwire-hangup-');
let serverPid: number | undefined;

beforeAll(requireBuiltCli);
beforeAll(requireTmux);
afterEach(() => {
  // Never leave the stubborn server behind, whatever the outcome.
  if (serverPid !== undefined && isAlive(serverPid)) process.kill(serverPid, 'SIGKILL');
  serverPid = undefined;
});
const terminals = useTerminals();

/** The server's pid, once it has written it (bounded). */
async function stubbornPid(file: string): Promise<number> {
  await until(() => existsSync(file) && readFileSync(file, 'utf8') !== '', {
    timeoutMs: 15_000,
    what: 'the server writing its pid',
  });
  serverPid = Number(readFileSync(file, 'utf8'));
  return serverPid;
}

describe('the terminal closing under mcpwire (SIGHUP)', () => {
  it('during a long call: the server is stopped', async () => {
    const pidFile = path.join(tmp.dir, 'server.pid');
    terminal = terminals.start([node, CLI, 'call', 'wait', '--trace', '--', node, STUBBORN, '--pid-file', pidFile]);
    const pid = await stubbornPid(pidFile);
    await terminal.waitFor(/→.*tools\/call/);
    // The hangup goes to the terminal's session; the server, leading its own group, gets none.
    terminal.kill();
    expect(await waitUntilGone(pid, 15_000)).toBe(true);
  });

  it('at the repl prompt: every configured server is stopped', async () => {
    const pidFile = path.join(tmp.dir, 'server.pid');
    const config = path.join(tmp.dir, 'servers.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { stubborn: { command: node, args: [STUBBORN, '--pid-file', pidFile] } } }),
    );
    terminal = terminals.start([node, CLI, 'repl', '--config', config], { HOME: tmp.dir }, tmp.dir);
    await terminal.waitFor('1 server(s) connected');
    await terminal.waitFor('mcp> ');
    const pid = await stubbornPid(pidFile);
    terminal.kill();
    expect(await waitUntilGone(pid, 15_000)).toBe(true);
  });
});

/**
 * The exit code, off a terminal: a shell that outlived the hangup to record it would also keep
 * the hangup from reaching mcpwire (only the session leader gets it), so the signal is sent directly.
 */
describe('SIGHUP and SIGTERM sent to mcpwire off a terminal', () => {
  const cases = [
    // --trace prints the tools/call frame on stderr once the call is pending.
    { signal: 'SIGHUP', code: 129, command: 'call', ready: /→.*tools\/call/ },
    { signal: 'SIGHUP', code: 129, command: 'repl', ready: /1 server\(s\) connected/ },
    { signal: 'SIGTERM', code: 143, command: 'repl', ready: /1 server\(s\) connected/ },
  ] as const;
  for (const { signal, code, command, ready } of cases) {
    it(`${signal} to ${command}: the server is stopped and mcpwire exits ${code}`, async () => {
      const pidFile = path.join(tmp.dir, 'server.pid');
      const config = path.join(tmp.dir, 'servers.json');
      writeFileSync(
        config,
        JSON.stringify({ mcpServers: { stubborn: { command: node, args: [STUBBORN, '--pid-file', pidFile] } } }),
      );
      const argv =
        command === 'call'
          ? ['call', 'wait', '--trace', '--', node, STUBBORN, '--pid-file', pidFile]
          : ['repl', '--config', config];
      const child = spawn(node, [CLI, ...argv], {
        cwd: tmp.dir,
        env: { ...process.env, HOME: tmp.dir, NO_COLOR: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      const exited = new Promise<number | null>((resolve) => child.once('close', (exitCode) => resolve(exitCode)));
      try {
        await until(() => ready.test(output), { timeoutMs: 15_000, what: `mcpwire ${command} being ready` });
        const pid = await stubbornPid(pidFile);
        child.kill(signal);
        expect(await waitUntilGone(pid, 15_000)).toBe(true);
        expect(await within(exited, { timeoutMs: 15_000, what: `mcpwire ${command} exiting` })).toBe(code);
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        child.stdin.end();
      }
    });
  }
});

/**
 * The interactive parts of `mcpwire` in a real pseudo-terminal (tmux): a server's elicitation
 * answered at the prompt, a live progress line, and the repl taking /mcp commands and calls.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitUntilGone } from './support/processes.js';
import { until } from './support/wait.js';
import { CLI, requireBuiltCli, SCRIPTED } from './support/cli.js';
import { requireTmux, useTerminals, type Terminal } from './support/tmux.js';

let terminal: Terminal | undefined;
let dir: string | undefined;

beforeAll(requireBuiltCli);
beforeAll(requireTmux);
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});
const terminals = useTerminals();

const cli = (...args: string[]) => [process.execPath, CLI, ...args];

describe('mcpwire on a terminal', () => {
  it('asks the server’s elicitation questions and sends the answers back', async () => {
    terminal = terminals.start(
      cli('call', 'ask-elicitation', '--arg', 'message=Who are you?', '--', process.execPath, SCRIPTED),
    );
    await terminal.waitFor('The server asks: Who are you?');
    await terminal.waitFor(/name \(string, required\): $/m);
    terminal.type('Ada Lovelace');
    const screen = await terminal.waitFor('"action":"accept"');
    expect(screen).toContain('"content":{"name":"Ada Lovelace"}');
  });

  it('declines when the user answers the first question with nothing', async () => {
    terminal = terminals.start(cli('call', 'ask-elicitation', '--', process.execPath, SCRIPTED));
    await terminal.waitFor(/name \(string, required\): $/m);
    terminal.type('');
    await terminal.waitFor('"action":"decline"');
  });

  it('shows a live progress line while a tool runs, and erases it when the result arrives', async () => {
    terminal = terminals.start(
      cli('call', 'slow', '--arg', 'ms=3000', '--arg', 'steps=6', '--', process.execPath, SCRIPTED),
    );
    const during = await terminal.waitFor(/\[#+\.+\] \d+% \([1-5]\/6\)/);
    expect(during).toMatch(/\[#+\.*\] \d+% \(\d\/6\)/);
    const after = await terminal.waitFor('done after 6 steps');
    expect(after).not.toMatch(/\d+% \(\d\/6\)/);
  });

  it('Ctrl-C during a call stops the server and exits 130', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-ctrl-c-'));
    const marker = path.join(dir, 'received.jsonl');
    const status = path.join(dir, 'status');
    // The shell keeps a (no-op) SIGINT handler, so it outlives Ctrl-C and records the CLI's exit code.
    const q = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
    const command = [
      process.execPath,
      CLI,
      'call',
      'slow',
      '--arg',
      'ms=60000',
      '--arg',
      'steps=60',
      '--',
      process.execPath,
      SCRIPTED,
      '--record',
      marker,
    ]
      .map(q)
      .join(' ');
    terminal = terminals.start(['sh', '-c', `trap : INT; ${command}; echo $? > ${q(status)}`]);
    await terminal.waitFor(/\(\d+\/60\)/);
    const server = execFileSync('pgrep', ['-xf', `${process.execPath} ${SCRIPTED} --record ${marker}`], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .map(Number);
    expect(server.length).toBe(1);
    terminal.key('C-c');
    await until(() => existsSync(status), { timeoutMs: 15_000, what: "the shell recording the CLI's exit code" });
    expect(readFileSync(status, 'utf8').trim()).toBe('130');
    expect(await waitUntilGone(server[0]!, 5_000)).toBe(true);
  });

  it('asks before starting a project server, remembers the answer, and asks again after an edit', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-approve-'));
    const project = path.join(dir, 'repo');
    mkdirSync(project);
    const write = (flags: string[]) =>
      writeFileSync(
        path.join(project, '.mcp.json'),
        JSON.stringify({ mcpServers: { repo: { command: process.execPath, args: [SCRIPTED, ...flags] } } }),
      );
    write([]);
    terminal = terminals.start(cli('servers'), { HOME: dir }, project);
    await terminal.waitFor(/wants to start server "repo": .*scripted-server\.mjs\s+Allow it\? \[y\/N\] $/m);
    terminal.type('y');
    await terminal.waitFor(/^repo\s+connected\s+stdio/m);
    terminal.kill();
    expect(JSON.parse(readFileSync(path.join(dir, '.mcpwire/approvals.json'), 'utf8')).approvals).toMatchObject([
      { server: 'repo', approved: true },
    ]);

    terminal = terminals.start(cli('servers'), { HOME: dir }, project);
    const again = await terminal.waitFor(/^repo\s+connected\s+stdio/m);
    expect(again).not.toContain('Allow it?');
    terminal.kill();

    write(['--version', '2025-06-18']);
    terminal = terminals.start(cli('servers'), { HOME: dir }, project);
    await terminal.waitFor('Allow it? [y/N]');
    terminal.type('n');
    await terminal.waitFor(/^repo\s+not-approved\s+stdio.*not approved/m);
  });

  it('the repl runs /mcp commands and calls, and leaves on Ctrl-C', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-repl-'));
    const config = path.join(dir, 'servers.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { alpha: { command: process.execPath, args: [SCRIPTED] } } }));
    terminal = terminals.start(cli('repl', '--config', config), { HOME: dir }, dir);
    await terminal.waitFor('1 server(s) connected');
    await terminal.waitFor('mcp> ');
    terminal.type('/mcp');
    await terminal.waitFor(/alpha.*connected/);
    terminal.type('/mcp tools alpha');
    await terminal.waitFor('mcp__alpha__echo');
    terminal.type('call mcp__alpha__echo text="from the repl"');
    await terminal.waitFor(/^from the repl$/m);
    terminal.type('call mcp__alpha__nope {}');
    await terminal.waitFor('tool not found: mcp__alpha__nope');
    terminal.type('/mcp frobnicate');
    await terminal.waitFor(/unknown|not an? /i);
    terminal.key('C-c');
    await until(() => terminal!.exited(), { timeoutMs: 15_000, what: 'the repl to exit on Ctrl-C' });
  });
});

/**
 * One approval rule for servers a project file defines, whatever the command: `tools --server
 * NAME` off a terminal refuses an unapproved project server (exit 2, nothing started) exactly as
 * `servers` reports it "not approved"; `--trust-project`, a stored approval, or a yes at a
 * terminal's question let it run; a stored refusal keeps it refused.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalStore } from '../src/manager/permissions/approval-store.js';
import { ConfigLoader } from '../src/manager/config/load-config.js';
import { CLI, requireBuiltCli, runCli, SCRIPTED } from './support/cli.js';
import { hasTmux, useTerminals, type Terminal } from './support/tmux.js';

let root: string;
let home: string;
let project: string;
let marker: string;
let env: Record<string, string>;
let terminal: Terminal | undefined;

beforeAll(() => requireBuiltCli());
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-cli-approval-'));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  marker = path.join(root, 'started.jsonl');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  env = { HOME: home };
  // The server writes every line it receives to the marker: no marker, never started.
  writeFileSync(
    path.join(project, '.mcp.json'),
    JSON.stringify({ mcpServers: { repo: { command: process.execPath, args: [SCRIPTED, '--record', marker] } } }),
  );
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});
const terminals = useTerminals();

/** Stores a decision for the project's `repo` server as the loader defines it. */
async function decide(approved: boolean): Promise<void> {
  const loaded = await new ConfigLoader({ cwd: project, env: {}, homeDir: home }).load();
  const repo = loaded.servers.find((s) => s.name === 'repo')!;
  expect(repo.trusted).toBe(false);
  await new ApprovalStore({ homeDir: home }).set(repo, approved);
}

describe('a project server nobody approved', () => {
  it('tools --server NAME off a terminal refuses it with exit 2 and starts nothing, as servers reports it not approved', async () => {
    const run = await runCli(['tools', '--server', 'repo'], { env, cwd: project });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('server "repo"');
    expect(run.stderr).toContain(path.join(project, '.mcp.json'));
    expect(run.stderr).toContain('not approved');
    expect(run.stderr).toContain('--trust-project');
    expect(existsSync(marker)).toBe(false);

    const json = await runCli(['call', 'echo', '--arg', 'text=x', '--server', 'repo', '--json'], { env, cwd: project });
    expect(json.code).toBe(2);
    expect(json.json()).toMatchObject({ ok: false, error: { code: 'NOT_APPROVED', exitCode: 2 } });
    expect(existsSync(marker)).toBe(false);

    const servers = await runCli(['servers', '--json'], { env, cwd: project });
    // A status listing, as docs/cli.md's exit-code table says: not approved is its answer, not a failure.
    expect(servers.code).toBe(0);
    const repo = servers
      .json<{ result: { servers: Array<{ name: string; status: string; lastError?: string }> } }>()
      .result.servers.find((s) => s.name === 'repo');
    expect(repo).toMatchObject({ status: 'not-approved', lastError: expect.stringContaining('not approved') });
    expect(existsSync(marker)).toBe(false);
  });

  it('runs with --trust-project', async () => {
    const run = await runCli(['tools', '--server', 'repo', '--trust-project'], { env, cwd: project });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^echo\s/m);
    expect(existsSync(marker)).toBe(true);
  });

  it('runs once approved (a stored decision), and stays refused after a stored no', async () => {
    await decide(true);
    const approved = await runCli(['tools', '--server', 'repo'], { env, cwd: project });
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toMatch(/^echo\s/m);

    await decide(false);
    const refused = await runCli(['tools', '--server', 'repo'], { env, cwd: project });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('not approved');
  });

  it('on a terminal, tools --server NAME asks first and runs on yes', async () => {
    if (!hasTmux()) throw new Error('this test needs tmux (apt-get install tmux; .ci/run installs it)');
    terminal = terminals.start([process.execPath, CLI, 'tools', '--server', 'repo'], { HOME: home }, project);
    await terminal.waitFor(/wants to start server "repo": .*scripted-server\.mjs.*\s+Allow it\? \[y\/N\] $/m);
    expect(existsSync(marker)).toBe(false);
    terminal.type('y');
    await terminal.waitFor(/^echo\s/m);
  });
});

/**
 * A project file's URL server with a `headersHelper` runs a shell command as surely as a stdio
 * server does: off a terminal it is refused (exit 2) before the helper runs; on a terminal the
 * approval question names the helper's command, and a "no" runs nothing.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLI, requireBuiltCli, runCli } from './support/cli.js';
import { hasTmux, useTerminals, type Terminal } from './support/tmux.js';

let root: string;
let home: string;
let project: string;
let marker: string;
let terminal: Terminal | undefined;

beforeAll(() => requireBuiltCli());
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-cli-helper-approval-'));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  marker = path.join(root, 'helper-ran');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  // The helper leaves a marker: no marker, never ran. Nothing listens at the URL (it is never reached).
  writeFileSync(path.join(project, 'helper.sh'), `touch ${JSON.stringify(marker)}\necho "Authorization: Bearer x"\n`);
  const server = { url: 'http://127.0.0.1:9/mcp', headersHelper: `sh ${path.join(project, 'helper.sh')}` };
  writeFileSync(path.join(project, '.mcp.json'), JSON.stringify({ mcpServers: { repo: server } }));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});
const terminals = useTerminals();

describe('a project URL server with a headersHelper nobody approved', () => {
  it('off a terminal is refused with exit 2 and its helper never runs', async () => {
    const run = await runCli(['tools', '--server', 'repo'], { env: { HOME: home }, cwd: project });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('not approved');
    expect(existsSync(marker)).toBe(false);
  });

  it('on a terminal, the question names the helper command, and no runs nothing', async () => {
    if (!hasTmux()) throw new Error('this test needs tmux (apt-get install tmux; .ci/run installs it)');
    terminal = terminals.start([process.execPath, CLI, 'tools', '--server', 'repo'], { HOME: home }, project);
    await terminal.waitFor(
      /wants to start server "repo": http:\/\/127\.0\.0\.1:9\/mcp \(runs its headersHelper: sh \S*helper\.sh\)\s+Allow it\? \[y\/N\] $/m,
    );
    terminal.type('n');
    await terminal.waitFor(/not approved/);
    expect(existsSync(marker)).toBe(false);
  });
});

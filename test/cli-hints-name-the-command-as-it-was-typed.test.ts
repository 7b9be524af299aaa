/**
 * The commands the CLI's messages tell a user to run name it as they typed it (issue 25, item 7):
 * `npx mcpwire …` when npx started it (a project install, no `mcpwire` on PATH), `mcpwire …`
 * otherwise. Checked on a usage error's help pointer and on doctor's approval fix.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from './support/cli.js';
import { startHostHome } from './support/host-homes.js';

beforeAll(() => requireBuiltCli());

const UNDER_NPX = { npm_command: 'exec' };

describe('hints name the command as it was typed', () => {
  it.each([
    ['mcpwire', {}],
    ['npx mcpwire', UNDER_NPX],
  ])('a usage error points to %s call --help', async (typed, env) => {
    const run = await runCli(['call', 'echo', 'stray', '--', process.execPath, '-e', '0'], { env });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`(see ${typed} call --help)`);
  });

  it.each([
    ['mcpwire', {}],
    ['npx mcpwire', UNDER_NPX],
  ])('doctor tells how to approve with %s doctor', async (typed, env) => {
    const h = startHostHome({ hosts: [] });
    h.write(path.join(h.project, '.mcp.json'), JSON.stringify({ mcpServers: { mine: { command: 'node' } } }));
    const run = await runCli(['doctor', '--timeout', '30000'], { env: { ...h.env, ...env }, cwd: h.project });
    expect(run.code, run.stdout).toBe(2);
    expect(run.stdout).toContain(`approve it on a terminal (this asks once): ${typed} doctor mine`);
  });
});

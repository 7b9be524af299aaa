/**
 * One broken config file, every command that reads the config: `servers` (connecting or not),
 * `config show`, `config check` and a command with `--server NAME` all exit 2 and name the file
 * and the line. `servers` and `config show` still print what they could load.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli, SCRIPTED } from './support/cli.js';
import { useConfigDirs } from './support/config-dirs.js';

const dirs = useConfigDirs('mcpwire-cli-config-error-');
let env: Record<string, string>;
let where: string;

beforeAll(() => requireBuiltCli());
beforeEach(() => {
  env = { HOME: dirs.home };
  writeFileSync(
    path.join(dirs.home, '.mcpwire/config.json'),
    JSON.stringify({ mcpServers: { alpha: { command: process.execPath, args: [SCRIPTED] } } }),
  );
  // A trailing comma and a stray one: not JSON (nor JSONC).
  writeFileSync(path.join(dirs.project, '.mcp.json'), '{\n  "mcpServers": {\n    "x": { "command": "a", }\n  ,,\n}');
  where = `${path.join(dirs.project, '.mcp.json')}:5:1`;
});

describe('a malformed .mcp.json', () => {
  it('config check exits 2 naming the file and line', async () => {
    const run = await runCli(['config', 'check'], { env, cwd: dirs.project });
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).toContain(where);
  });

  it('servers exits 2, still listing the servers it could load, and names the file and line', async () => {
    const run = await runCli(['servers'], { env, cwd: dirs.project });
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/^alpha\s+connected\s/m);
    expect(run.stdout + run.stderr).toContain(where);

    const json = await runCli(['servers', '--json'], { env, cwd: dirs.project });
    expect(json.code).toBe(2);
    const envelope = json.json<{
      ok: boolean;
      error: { code: string; exitCode: number; message: string; result: { servers: Array<{ name: string }> } };
    }>();
    expect(envelope).toMatchObject({ ok: false, error: { code: 'CONFIG_INVALID', exitCode: 2 } });
    expect(envelope.error.message).toContain(where);
    expect(envelope.error.result.servers.map((s) => s.name)).toEqual(['alpha']);
  });

  it('servers --no-connect exits 2 too', async () => {
    const run = await runCli(['servers', '--no-connect'], { env, cwd: dirs.project });
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).toContain(where);
  });

  it('config show exits 2, still showing the servers it could load', async () => {
    const run = await runCli(['config', 'show'], { env, cwd: dirs.project });
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('alpha  (from user');
    expect(run.stdout + run.stderr).toContain(where);
    const json = await runCli(['config', 'show', '--json'], { env, cwd: dirs.project });
    expect(json.json()).toMatchObject({ ok: false, error: { code: 'CONFIG_INVALID', exitCode: 2 } });
  });

  it('a command with --server NAME exits 2 before starting anything, even for a server of another file', async () => {
    const run = await runCli(['tools', '--server', 'alpha'], { env, cwd: dirs.project });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(where);
    expect(run.stderr).toContain('config check');
    expect(run.stdout).toBe('');
  });

  it('with the file fixed, every one of them exits 0', async () => {
    writeFileSync(path.join(dirs.project, '.mcp.json'), JSON.stringify({ mcpServers: {} }));
    for (const args of [
      ['config', 'check'],
      ['servers'],
      ['servers', '--no-connect'],
      ['config', 'show'],
      ['tools', '--server', 'alpha'],
    ]) {
      const run = await runCli(args, { env, cwd: dirs.project });
      expect(run.code, `${args.join(' ')}\n${run.stderr}`).toBe(0);
    }
  });
});

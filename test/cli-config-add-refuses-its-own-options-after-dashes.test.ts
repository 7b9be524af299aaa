/**
 * `mcpwire config add NAME -- CMD … --to cursor --dry-run`: `config add`'s own options written
 * after `--` are a usage error (exit 1) naming them and the fix, and no file anywhere is written
 * or created; put before `--` they do what they say; a server's own option that only shares a
 * name (`--transport stdio`) stays its argument; `--verbatim` keeps them all as the server's
 * arguments, and the entry written starts a real server. Every host's real config files sit in
 * a temporary home.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli, SCRIPTED } from './support/cli.js';
import { startHostHome, type HostHome } from './support/host-homes.js';

beforeAll(() => requireBuiltCli());

/** Every file under `dir` with its bytes. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const full = path.join(dir, entry);
    if (statSync(full).isFile()) files.set(entry, readFileSync(full, 'utf8'));
  }
  return files;
}

const cli = (hosts: HostHome, args: string[]) => runCli(args, { env: hosts.env, cwd: hosts.project });

function cursorServer(hosts: HostHome, name: string): { command: string; args: string[] } {
  const file = path.join(hosts.home, '.cursor/mcp.json');
  return (parseJsonc(readFileSync(file, 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }> })
    .mcpServers[name]!;
}

describe('config add with its own options after --', () => {
  it('is a usage error naming them and the fix; nothing is written', async () => {
    const hosts = startHostHome();
    const before = snapshot(hosts.root);
    const run = await cli(hosts, [
      'config',
      'add',
      'added',
      '--',
      process.execPath,
      SCRIPTED,
      '--to',
      'cursor',
      '--dry-run',
      '--env',
      'API_TOKEN=sk-live-0123456789',
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      "--to cursor, --dry-run, --env 'API_TOKEN=***' after -- would be the server's arguments",
    );
    expect(run.stderr).toContain('nothing was written');
    expect(run.stderr).toMatch(/Put them before --: mcpwire config add added … --to cursor --dry-run .* -- \S*node …/);
    expect(run.stderr).toContain('--verbatim');
    expect(run.stderr).not.toContain('sk-live');
    expect(snapshot(hosts.root)).toEqual(before);

    const json = await cli(hosts, ['config', 'add', 'added', '--json', '--', 'node', 'x.js', '--scope=project']);
    expect(json.code).toBe(1);
    expect(json.json<{ ok: boolean; error: { message: string } }>().error.message).toContain(
      '--scope=project after --',
    );
    expect(snapshot(hosts.root)).toEqual(before);
  });

  it('does what they say before --; a server option of the same name with another value, or one a command server never takes, is its own', async () => {
    const hosts = startHostHome();
    const before = snapshot(hosts.root);
    const command = ['--', process.execPath, SCRIPTED, '--transport', 'stdio', '--url', 'http://127.0.0.1:9/'];
    const dry = await cli(hosts, ['config', 'add', 'added', '--to', 'cursor', '--dry-run', ...command]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`+++ ${path.join(hosts.home, '.cursor/mcp.json')}`);
    expect(dry.stdout).toContain('"--transport"');
    expect(snapshot(hosts.root)).toEqual(before);

    const added = await cli(hosts, ['config', 'add', 'added', '--to', 'cursor', ...command]);
    expect(added.code, added.stderr).toBe(0);
    expect(cursorServer(hosts, 'added')).toEqual({
      command: process.execPath,
      args: [SCRIPTED, '--transport', 'stdio', '--url', 'http://127.0.0.1:9/'],
    });
  });

  it('--verbatim keeps them as the server arguments, and the entry runs', async () => {
    const hosts = startHostHome();
    const add = await cli(hosts, [
      'config',
      'add',
      'added',
      '--verbatim',
      '--to',
      'cursor',
      '--',
      process.execPath,
      SCRIPTED,
      '--scope',
      'user',
      '--dry-run',
    ]);
    expect(add.code, add.stderr).toBe(0);
    expect(cursorServer(hosts, 'added')).toEqual({
      command: process.execPath,
      args: [SCRIPTED, '--scope', 'user', '--dry-run'],
    });
    const tools = await cli(hosts, ['tools', '--server', 'cursor:added']);
    expect(tools.code, tools.stderr).toBe(0);
    expect(tools.stdout).toContain('echo');
  });
});

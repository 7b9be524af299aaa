/**
 * `config add --to HOST` against a home holding every host's documented files (with their
 * comments): what it writes is what host discovery then reads back as the same server, in every
 * host's shape and variable syntax (Continue's list too), and `config remove` gives back each
 * file's bytes.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { discoverHosts } from '../src/manager/config/hosts/discover.js';
import { HOST_IDS, type HostId } from '../src/manager/config/hosts/host-table.js';
import { requireBuiltCli, runCli } from './support/cli.js';
import { startHostHome, type HostHome } from './support/host-homes.js';

const SECRET = 'sk-live-abcdef0123456789';
/** Hosts whose files expand no variables: `--env-ref` is refused there. */
const NO_REFERENCES: readonly HostId[] = ['claude-desktop', 'zed', 'cline'];

beforeAll(() => requireBuiltCli());

function cli(home: HostHome, args: string[]) {
  return runCli(args, {
    env: { ...home.env, CODEX_HOME: '', OPENCODE_CONFIG: '', CLAUDE_CONFIG_DIR: '' },
    cwd: home.project,
  });
}

async function found(home: HostHome, host: HostId, name: string) {
  const discovery = await discoverHosts({ ...home.locations, hosts: [host] });
  expect(discovery.errors).toEqual([]);
  return discovery.servers.find((server) => server.name === name);
}

function snapshot(home: HostHome, host: HostId): Map<string, string> {
  return new Map(home.files[host].map(({ file }) => [file, readFileSync(file, 'utf8')]));
}

describe.each(HOST_IDS)('config add --to %s', (host) => {
  it('a command server is discovered as written; remove gives back the bytes', async () => {
    const home = startHostHome();
    const before = snapshot(home, host);
    const add = await cli(home, [
      'config',
      'add',
      'added',
      '--to',
      host,
      '--env',
      `API_TOKEN=${SECRET}`,
      '--json',
      '--',
      'node',
      'added.js',
      '--port',
      '0',
    ]);
    expect(add.stderr).toBe('');
    const { file } = add.json<{ result: { file: string } }>().result;
    expect(add.stdout).not.toContain(SECRET);
    const server = await found(home, host, 'added');
    expect(server, `discovered in ${file}`).toMatchObject({ file, problems: [] });
    // OpenCode's array command is read as it is written; mcpwire's loader splits it.
    const { command, args, env } = server!.entry as { command: string | string[]; args?: string[]; env?: object };
    expect([...[command].flat(), ...(args ?? [])]).toEqual(['node', 'added.js', '--port', '0']);
    expect(env).toEqual({ API_TOKEN: SECRET });
    const remove = await cli(home, ['config', 'remove', 'added', '--to', host]);
    expect(remove.code).toBe(0);
    if (before.has(file)) expect(readFileSync(file, 'utf8')).toBe(before.get(file));
    expect(await found(home, host, 'added')).toBeUndefined();
  });

  it('--env-ref writes references the host resolves (or is refused where the host has none)', async () => {
    const home = startHostHome();
    const remote = host !== 'claude-desktop';
    const target = remote
      ? ['--url', 'https://mcp.example.com/mcp', '--header', `Authorization: Bearer ${SECRET}`]
      : ['--env', `API_TOKEN=${SECRET}`, '--', 'node', 'added.js'];
    const add = await cli(home, ['config', 'add', 'added', '--to', host, '--env-ref', ...target]);
    expect(add.stdout + add.stderr).not.toContain(SECRET);
    if (NO_REFERENCES.includes(host) || host === 'goose') {
      expect(add.code).toBe(1);
      expect(add.stderr).toContain(`${host}:`);
      return;
    }
    expect(add.stderr).toBe('');
    const server = await found(home, host, 'added');
    expect(server?.problems).toEqual([]);
    expect(server?.variables).toContain(remote ? 'ADDED_TOKEN' : 'API_TOKEN');
    if (remote) expect(server?.entry).toMatchObject({ url: 'https://mcp.example.com/mcp' });
  });
});

/**
 * `mcpwire config add|remove|get` as a user runs them (the built CLI, a temporary HOME and
 * project): each host format round-trips to the original bytes with its comments, every write
 * is atomic with a backup, a broken file is refused and left alone, `--dry-run` writes nothing,
 * no given secret is ever printed, and what `config add` wrote is what the loaders read and a
 * server that `mcpwire call` reaches.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseToml } from '@decimalturn/toml-patch';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from '../src/manager/config/load-config.js';
import { importFrom } from '../src/manager/config/hosts/host-import.js';
import { requireBuiltCli, runCli, SCRIPTED } from './support/cli.js';
import { useConfigDirs } from './support/config-dirs.js';

const SECRET = 'sk-live-0123456789abcdef';
const dirs = useConfigDirs('mcpwire-config-edit-', { userConfigDir: false });

beforeAll(() => requireBuiltCli());
beforeEach(() => mkdirSync(dirs.home));

const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, {
    env: { HOME: dirs.home, XDG_CONFIG_HOME: '', APPDATA: '', CODEX_HOME: '', ...env },
    cwd: dirs.project,
  });

function seed(file: string, text: string, mode = 0o640): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text, { mode });
  return file;
}

/** Files in `file`'s directory besides it and its backup: a temporary file left behind shows here. */
function strays(file: string): string[] {
  const base = path.basename(file);
  return readdirSync(path.dirname(file)).filter((name) => name !== base && name !== `${base}.bak`);
}

const HOST_FILES = [
  {
    host: 'codex',
    file: () => path.join(dirs.home, '.codex', 'config.toml'),
    text: '# Codex settings\nmodel = "o3"   # default model\n\n# docs, via npx\n[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "docs-mcp"]\n\n[profiles.fast]\nmodel = "o4-mini"\n',
    read: (text: string) => (parseToml(text) as { mcp_servers: Record<string, unknown> }).mcp_servers,
    expected: { command: process.execPath, args: [SCRIPTED], env: { API_TOKEN: SECRET } },
  },
  {
    host: 'goose',
    file: () => path.join(dirs.home, '.config', 'goose', 'config.yaml'),
    text: '# Goose\nGOOSE_PROVIDER: openai    # which provider\nextensions:\n  # built in\n  developer:\n    enabled: true\n    name: developer\n    type: builtin\n',
    read: (text: string) => (parseYaml(text) as { extensions: Record<string, unknown> }).extensions,
    expected: {
      name: 'added',
      enabled: true,
      timeout: 300,
      type: 'stdio',
      cmd: process.execPath,
      args: [SCRIPTED],
      envs: { API_TOKEN: SECRET },
    },
  },
  {
    host: 'vscode',
    file: () => path.join(dirs.home, '.config', 'Code', 'User', 'mcp.json'),
    text: '{\n\t// my servers\n\t"servers": {\n\t\t"memory": {\n\t\t\t"command": "npx", // from npm\n\t\t\t"args": ["-y", "@modelcontextprotocol/server-memory"],\n\t\t},\n\t},\n\t"inputs": [],\n}\n',
    read: (text: string) => {
      const clean = text.replace(/\/\/.*$/gm, '').replace(/,(\s*[}\]])/g, '$1');
      return (JSON.parse(clean) as { servers: Record<string, unknown> }).servers;
    },
    expected: { type: 'stdio', command: process.execPath, args: [SCRIPTED], env: { API_TOKEN: SECRET } },
  },
  {
    host: 'cursor',
    file: () => path.join(dirs.home, '.cursor', 'mcp.json'),
    text: '{\n  "mcpServers": {\n    "fetch": {\n      "command": "uvx",\n      "args": ["mcp-server-fetch"]\n    }\n  }\n}\n',
    read: (text: string) => (JSON.parse(text) as { mcpServers: Record<string, unknown> }).mcpServers,
    expected: { command: process.execPath, args: [SCRIPTED], env: { API_TOKEN: SECRET } },
  },
] as const;

describe('config add / remove --to HOST', () => {
  for (const host of HOST_FILES)
    it(`${host.host}: add then remove gives back the original bytes; each write is atomic with a backup`, async () => {
      const file = seed(host.file(), host.text);
      const add = await cli([
        'config',
        'add',
        'added',
        '--to',
        host.host,
        '--env',
        `API_TOKEN=${SECRET}`,
        '--',
        process.execPath,
        SCRIPTED,
      ]);
      expect(add.stderr).toBe('');
      expect(add.code).toBe(0);
      expect(add.stdout).toContain(`added server "added" in ${file}`);
      const added = readFileSync(file, 'utf8');
      expect(host.read(added).added).toEqual(host.expected);
      for (const line of host.text.split('\n').filter((l) => /#|\/\//.test(l))) expect(added).toContain(line);
      expect(readFileSync(`${file}.bak`, 'utf8')).toBe(host.text);
      expect(statSync(file).mode & 0o777).toBe(0o640);
      expect(strays(file)).toEqual([]);
      expect(add.stdout).not.toContain(SECRET);

      const remove = await cli(['config', 'remove', 'added', '--to', host.host]);
      expect(remove.code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(host.text);
      expect(readFileSync(`${file}.bak`, 'utf8')).toBe(added);
      expect(strays(file)).toEqual([]);
    });

  it('what config add writes to a host is what host discovery finds there', async () => {
    const add = await cli([
      'config',
      'add',
      'scripted',
      '--to',
      'cursor',
      '--scope',
      'project',
      '--',
      process.execPath,
      SCRIPTED,
    ]);
    expect(add.code).toBe(0);
    const found = await importFrom('cursor', { homeDir: dirs.home, cwd: dirs.project, platform: 'linux' });
    expect(found.servers.map((s) => [s.name, s.file, s.entry])).toEqual([
      ['scripted', path.join(dirs.project, '.cursor', 'mcp.json'), { command: process.execPath, args: [SCRIPTED] }],
    ]);
  });

  it('a server config add wrote to a host file is callable as HOST:NAME', async () => {
    const add = await cli(['config', 'add', 'scripted', '--to', 'codex', '--', process.execPath, SCRIPTED]);
    expect(add.code).toBe(0);
    const call = await cli(['call', 'echo', '--server', 'codex:scripted', '--arg', 'text=hello from codex']);
    expect(call.stderr).toBe('');
    expect(call.stdout).toContain('hello from codex');
  });

  it('HOST:NAME addresses a host server for config get and config remove', async () => {
    await cli([
      'config',
      'add',
      'fs',
      '--to',
      'cursor',
      '--env',
      `API_TOKEN=${SECRET}`,
      '--',
      process.execPath,
      SCRIPTED,
    ]);
    const file = path.join(dirs.home, '.cursor', 'mcp.json');
    const get = await cli(['config', 'get', 'cursor:fs', '--json']);
    expect(get.json<{ result: Record<string, unknown> }>().result).toMatchObject({
      name: 'cursor:fs',
      env: { API_TOKEN: '***' },
      provenance: { file, host: { id: 'cursor', scope: 'user' } },
    });
    expect(get.stdout).not.toContain(SECRET);
    const dry = await cli(['config', 'remove', 'cursor:fs', '--dry-run']);
    expect(dry.stdout).toContain('-        "API_TOKEN": "***"');
    expect(dry.stdout).not.toContain(SECRET);
    expect((await cli(['config', 'remove', 'cursor:fs'])).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ mcpServers: {} });
    const both = await cli(['config', 'remove', 'cursor:fs', '--to', 'cursor']);
    expect(both.code).toBe(1);
  });

  it('a remote server takes each host shape, with --env-ref references in its own syntax', async () => {
    const header = ['--url', 'https://mcp.example.com/mcp', '--header', `Authorization: Bearer ${SECRET}`, '--env-ref'];
    const windsurf = await cli(['config', 'add', 'remote', '--to', 'windsurf', ...header]);
    expect(windsurf.code).toBe(0);
    expect(windsurf.stdout).toContain('set REMOTE_TOKEN in the environment');
    expect(JSON.parse(readFileSync(path.join(dirs.home, '.codeium', 'windsurf', 'mcp_config.json'), 'utf8'))).toEqual({
      mcpServers: {
        remote: { serverUrl: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${env:REMOTE_TOKEN}' } },
      },
    });
    const opencode = await cli(['config', 'add', 'remote', '--to', 'opencode', '--scope', 'project', ...header]);
    expect(opencode.code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dirs.project, 'opencode.json'), 'utf8'))).toEqual({
      mcp: {
        remote: {
          type: 'remote',
          url: 'https://mcp.example.com/mcp',
          headers: { Authorization: 'Bearer {env:REMOTE_TOKEN}' },
          enabled: true,
        },
      },
    });
    const desktop = await cli(['config', 'add', 'remote', '--to', 'claude-desktop', ...header]);
    expect(desktop.code).toBe(1);
    expect(desktop.stderr).toContain('claude-desktop');
    for (const run of [windsurf, opencode, desktop]) expect(run.stdout + run.stderr).not.toContain(SECRET);
  });
});

describe('config add / remove on mcpwire files', () => {
  it('a server added with config add is loaded by mcpwire and callable with mcpwire call', async () => {
    const add = await cli([
      'config',
      'add',
      'scripted',
      '--env',
      `API_TOKEN=${SECRET}`,
      '--',
      process.execPath,
      SCRIPTED,
    ]);
    expect(add.code).toBe(0);
    const file = path.join(dirs.home, '.mcpwire', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(existsSync(`${file}.bak`)).toBe(false);
    const loaded = await loadConfig({ homeDir: dirs.home, cwd: dirs.project, env: {} });
    expect(loaded.errors).toEqual([]);
    expect(loaded.servers.map((s) => [s.name, s.provenance.scope, s.command, s.args])).toEqual([
      ['scripted', 'user', process.execPath, [SCRIPTED]],
    ]);
    const call = await cli(['call', 'echo', '--server', 'scripted', '--arg', 'text=hello from config add']);
    expect(call.stderr).toBe('');
    expect(call.stdout).toContain('hello from config add');
  });

  it('config get shows the loaded entry with its file, secrets as ***, in text and --json', async () => {
    await cli(['config', 'add', 'scripted', '--env', `API_TOKEN=${SECRET}`, '--', process.execPath, SCRIPTED]);
    seed(
      path.join(dirs.project, '.mcp.json'),
      `{"mcpServers": {"scripted": {"command": "${process.execPath}", "args": ["${SCRIPTED}"], "env": {"API_TOKEN": "${SECRET}"}}}}`,
    );
    const text = await cli(['config', 'get', 'scripted']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      `scripted  (from project ${path.join(dirs.project, '.mcp.json')}; overrides user ${path.join(dirs.home, '.mcpwire', 'config.json')}; needs approval)`,
    );
    const json = (await cli(['config', 'get', 'scripted', '--json'])).json<{ result: Record<string, unknown> }>();
    expect(json.result).toMatchObject({
      name: 'scripted',
      env: { API_TOKEN: '***' },
      provenance: { scope: 'project' },
    });
    for (const out of [text.stdout, JSON.stringify(json)]) expect(out).not.toContain(SECRET);
    const missing = await cli(['config', 'get', 'nope']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('server "nope" is not configured');
  });

  it('--dry-run prints a unified diff with *** for given values and writes nothing', async () => {
    const file = seed(path.join(dirs.project, '.mcp.json'), '{\n  // project servers\n  "mcpServers": {}\n}\n');
    for (const json of [false, true]) {
      const run = await cli([
        'config',
        'add',
        'gh',
        '--scope',
        'project',
        '--dry-run',
        '--url',
        'https://gh.example/mcp',
        '--header',
        `Authorization: Bearer ${SECRET}`,
        '--header',
        `X-Api-Key: ${SECRET}`,
        ...(json ? ['--json'] : []),
      ]);
      expect(run.code).toBe(0);
      expect(run.stdout + run.stderr).not.toContain(SECRET);
      const diff = json ? run.json<{ result: { diff: string } }>().result.diff : run.stdout;
      expect(diff).toContain(
        `--- ${file}\n+++ ${file}\n@@ -1,4 +1,12 @@\n {\n   // project servers\n-  "mcpServers": {}\n+  "mcpServers": {`,
      );
      expect(diff).toContain('+        "Authorization": "Bearer ***",\n+        "X-Api-Key": "***"');
    }
    expect(readFileSync(file, 'utf8')).toBe('{\n  // project servers\n  "mcpServers": {}\n}\n');
    expect(strays(file)).toEqual([]);
    const remove = await cli(['config', 'remove', 'gh', '--dry-run']);
    expect(remove.code).toBe(2);
  });

  it('a broken file is refused naming file, line and column, and is left untouched', async () => {
    const broken = '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}\n';
    const file = seed(path.join(dirs.home, '.mcpwire', 'config.json'), broken);
    for (const args of [
      ['config', 'add', 'c', '--', 'node'],
      ['config', 'remove', 'a'],
    ]) {
      const run = await cli(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`${file}:4:5: invalid JSON: comma expected; not edited`);
    }
    const toml = seed(path.join(dirs.home, '.codex', 'config.toml'), 'model = "o3\n');
    const codex = await cli(['config', 'add', 'c', '--to', 'codex', '--', 'node']);
    expect(codex.code).toBe(2);
    expect(codex.stderr).toContain(`${toml}:1:`);
    expect(readFileSync(file, 'utf8')).toBe(broken);
    expect(readFileSync(toml, 'utf8')).toBe('model = "o3\n');
    expect(existsSync(`${file}.bak`) || existsSync(`${toml}.bak`)).toBe(false);
  });

  it('adding an existing name needs --force (which replaces it in place); removing a missing one names the files looked in', async () => {
    const file = seed(
      path.join(dirs.home, '.mcpwire', 'config.yaml'),
      '# mine\nmcpServers:\n  a:\n    command: old   # keep\n  b:\n    command: b\n',
    );
    const again = await cli(['config', 'add', 'a', '--', 'new']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`server "a" already exists in ${file}; use --force`);
    const forced = await cli(['config', 'add', 'a', '--force', '--', 'new', '--flag']);
    expect(forced.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(
      '# mine\nmcpServers:\n  a:\n    command: new\n    args:\n      - --flag\n  b:\n    command: b\n',
    );
    const missing = await cli(['config', 'remove', 'zzz']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `server "zzz" is not in ${path.join(dirs.home, '.mcpwire', 'config.json')}, ${file}`,
    );
  });

  it('concurrent config adds to one file take turns: every server is there, no temporary or lock file left', async () => {
    const file = seed(path.join(dirs.home, '.mcpwire', 'config.json'), '{\n  // mine\n  "mcpServers": {}\n}\n');
    const names = ['s1', 's2', 's3', 's4', 's5', 's6'];
    const runs = await Promise.all(names.map((name) => cli(['config', 'add', name, '--', 'node', `${name}.js`])));
    for (const run of runs) expect(run.stderr).toBe('');
    const loaded = await loadConfig({ homeDir: dirs.home, cwd: dirs.project, env: {} });
    expect(loaded.errors).toEqual([]);
    expect(loaded.servers.map((s) => s.name).sort()).toEqual(names);
    expect(readFileSync(file, 'utf8')).toContain('// mine');
    expect(strays(file)).toEqual([]);
  });

  it('usage mistakes exit 1 with the reason', async () => {
    for (const [args, reason] of [
      [['config', 'add'], 'config add needs a server name'],
      [['config', 'add', 'x'], 'either --url URL or a command after --'],
      [['config', 'add', 'x', '--url', 'ftp://x', '--', 'node'], 'either --url URL or a command after --'],
      [['config', 'add', 'x', '--url', 'ftp://x'], '--url must be an http(s) URL'],
      [['config', 'add', 'x', '--scope', 'global', '--', 'node'], '--scope must be user or project'],
      [['config', 'add', 'x', '--to', 'emacs', '--', 'node'], '--to must be one of mcpwire, claude-desktop'],
      [['config', 'add', 'x y', '--', 'node'], 'server name "x y"'],
      [['config', 'add', 'x', '--header', 'A: b', '--', 'node'], '--header is for --url servers'],
      [
        ['config', 'add', 'x', '--url', 'https://x/mcp', '--header', `Authorization Bearer ${SECRET}`],
        '--header expects',
      ],
      [['config', 'get', 'emacs:x'], '"emacs" in "emacs:x" is not a host'],
    ] as const) {
      const run = await cli([...args]);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr).toContain(reason);
      expect(run.stderr).not.toContain(SECRET);
    }
  });
});

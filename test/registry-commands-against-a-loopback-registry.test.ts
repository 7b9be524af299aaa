/**
 * `mcpwire registry search|show|add` and `config add --from-server-json` as a user runs them (the
 * built CLI, a temporary HOME and project) against a fake registry on loopback: search pages by
 * cursor, show asks for the URL-encoded name, add writes the entry that runs the package (npm,
 * pypi, oci, a remote) to mcpwire's file and to other hosts' files in their shapes, secrets as
 * variable references and never values, `--dry-run` and a missing `--yes` write nothing, missing
 * inputs exit 2 naming `--input K=V`, and deleted servers and mcpb packages are refused.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from '@decimalturn/toml-patch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from './support/cli.js';
import { useConfigDirs } from './support/config-dirs.js';
import { REGISTRY_FIXTURES, startFakeRegistry, type FakeRegistry } from './support/fake-registry.js';

const dirs = useConfigDirs('mcpwire-registry-');
let registry: FakeRegistry;

beforeAll(async () => {
  requireBuiltCli();
  registry = await startFakeRegistry();
});
afterAll(() => registry?.close());

const cli = (args: string[]) =>
  runCli([...args, '--registry', registry.url], {
    env: { HOME: dirs.home, XDG_CONFIG_HOME: '', APPDATA: '', CODEX_HOME: '', MCPWIRE_REGISTRY: '' },
    cwd: dirs.project,
  });
const userConfig = () => path.join(dirs.home, '.mcpwire', 'config.json');
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;

describe('registry search and show', () => {
  it('pages a search by the cursor the registry hands back, leaving deleted servers out', async () => {
    const first = await cli(['registry', 'search', 'weather', '--limit', '2', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const page1 = first.json<{ result: { servers: Array<{ name: string }>; nextCursor: string } }>().result;
    expect(page1.servers.map((s) => s.name)).toEqual(['io.example/weather', 'io.example/weather-alerts']);
    expect(page1.nextCursor).toBe('2');
    const second = await cli(['registry', 'search', 'weather', '--limit', '2', '--cursor', page1.nextCursor, '--json']);
    const page2 = second.json<{ result: { servers: Array<{ name: string }>; nextCursor: null } }>().result;
    expect(page2.servers.map((s) => s.name)).toEqual(['io.example/weather-radar']);
    expect(page2.nextCursor).toBeNull();
    const text = await cli(['registry', 'search', 'weather', '--limit', '2']);
    expect(text.stdout).toContain('io.example/weather  1.2.0  Weather forecasts');
    expect(text.stdout).toContain('--cursor 2');
  });

  it('shows one server, asking for its name URL-encoded', async () => {
    const run = await cli(['registry', 'show', 'io.example/notes']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('package pypi notes-mcp@0.3.1 (stdio)');
    expect(registry.paths).toContain('/v0.1/servers/io.example%2Fnotes/versions/latest');
    const missing = await cli(['registry', 'show', 'io.example/nothing']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`server "io.example/nothing" is not in the registry ${registry.url}`);
  });
});

describe('registry add', () => {
  it("writes an npm server to mcpwire's file: npx -y id@version, args after, the secret as a reference", async () => {
    const run = await cli(['registry', 'add', 'io.example/weather', '--input', 'units=metric', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('npx -y @example/weather-mcp@1.2.0 --units metric');
    expect(run.stdout).toContain('set WEATHER_API_KEY');
    expect(readJson(userConfig()).mcpServers.weather).toEqual({
      command: 'npx',
      args: ['-y', '@example/weather-mcp@1.2.0', '--units', 'metric'],
      env: { WEATHER_API_KEY: '${WEATHER_API_KEY}', WEATHER_REGION: 'eu' },
    });
  });

  it("writes the same server in Cursor's and Codex's shapes", async () => {
    expect(
      (await cli(['registry', 'add', 'io.example/weather', '--input', 'units=metric', '--to', 'cursor', '--yes'])).code,
    ).toBe(0);
    expect(readJson(path.join(dirs.home, '.cursor', 'mcp.json')).mcpServers.weather.env).toEqual({
      WEATHER_API_KEY: '${env:WEATHER_API_KEY}',
      WEATHER_REGION: 'eu',
    });
    const codex = await cli([
      'registry',
      'add',
      'io.example/weather',
      '--input',
      'units=metric',
      '--to',
      'codex',
      '--yes',
    ]);
    expect(codex.code, codex.stderr).toBe(0);
    const toml = parseToml(readFileSync(path.join(dirs.home, '.codex', 'config.toml'), 'utf8')) as Record<string, any>;
    expect(toml.mcp_servers.weather).toMatchObject({
      command: 'npx',
      args: ['-y', '@example/weather-mcp@1.2.0', '--units', 'metric'],
      env: { WEATHER_REGION: 'eu' },
      env_vars: ['WEATHER_API_KEY'],
    });
  });

  it('writes pypi (named args as two items), oci (runtime args before the image) and a remote', async () => {
    const root = path.join(dirs.project, 'notes');
    expect((await cli(['registry', 'add', 'io.example/notes', '--input', `root=${root}`, '--yes'])).code).toBe(0);
    const oci = await cli(['registry', 'add', 'io.example/search', '--yes']);
    expect(oci.code, oci.stderr).toBe(0);
    expect(oci.stdout).toContain('deprecated');
    expect((await cli(['registry', 'add', 'io.example/crm', '--input', 'tenant=acme', '--yes'])).code).toBe(0);
    const servers = readJson(userConfig()).mcpServers;
    expect(servers.notes).toEqual({
      command: 'uvx',
      args: ['notes-mcp==0.3.1', '--root', root, '--read-only', 'serve'],
    });
    expect(servers.search).toEqual({
      command: 'docker',
      args: ['run', '-i', '--rm', '--network', 'none', '-e', 'SEARCH_TOKEN', 'ghcr.io/example/search-mcp:2.0.0'],
      env: { SEARCH_TOKEN: '${SEARCH_TOKEN}' },
    });
    expect(servers.crm).toEqual({
      url: 'https://acme.crm.example.com/mcp',
      headers: { Authorization: 'Bearer ${CRM_TOKEN}' },
    });
  });

  it('--dry-run prints the diff and writes nothing; without --yes off a terminal nothing is written', async () => {
    const dry = await cli(['registry', 'add', 'io.example/weather', '--input', 'units=metric', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('+');
    expect(dry.stdout).toContain('${WEATHER_API_KEY}');
    expect(existsSync(userConfig())).toBe(false);
    const unconfirmed = await cli(['registry', 'add', 'io.example/weather', '--input', 'units=metric']);
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stdout).toContain('npx -y @example/weather-mcp@1.2.0');
    expect(unconfirmed.stderr).toContain('--yes');
    expect(existsSync(userConfig())).toBe(false);
  });

  it('exits 2 naming --input K=V for a required input, and never takes a secret as a value', async () => {
    const run = await cli(['registry', 'add', 'io.example/weather', '--yes']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--input units=V');
    expect(existsSync(userConfig())).toBe(false);
    const secret = await cli([
      'registry',
      'add',
      'io.example/weather',
      '--input',
      'units=metric',
      '--input',
      'WEATHER_API_KEY=sk-live-123',
      '--yes',
    ]);
    expect(secret.code, secret.stderr).toBe(0);
    expect(readFileSync(userConfig(), 'utf8')).not.toContain('sk-live-123');
    expect(secret.stdout + secret.stderr).not.toContain('sk-live-123');
  });

  it('refuses a deleted server, an mcpb package and a choice not offered', async () => {
    const deleted = await cli(['registry', 'add', 'io.example/old-weather', '--yes']);
    expect(deleted.code).not.toBe(0);
    expect(deleted.stderr).toContain('is deleted in the registry');
    const mcpb = await cli(['registry', 'add', 'io.example/weather-radar', '--yes']);
    expect(mcpb.code).not.toBe(0);
    expect(mcpb.stderr).toContain('does not install mcpb packages');
    const choice = await cli(['registry', 'add', 'io.example/weather', '--input', 'units=kelvin', '--yes']);
    expect(choice.stderr).toContain('--input units must be one of metric, imperial');
    expect(existsSync(userConfig())).toBe(false);
  });
});

describe('config add --from-server-json', () => {
  it('installs a server.json file through the same plan', async () => {
    const file = path.join(dirs.project, 'server.json');
    const stored = readJson(path.join(REGISTRY_FIXTURES, 'npm-weather.json'));
    writeFileSync(file, JSON.stringify(stored.server));
    const run = await runCli(
      ['config', 'add', 'wx', '--from-server-json', file, '--input', 'units=imperial', '--scope', 'project', '--yes'],
      { env: { HOME: dirs.home }, cwd: dirs.project },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(readJson(path.join(dirs.project, '.mcp.json')).mcpServers.wx.args).toEqual([
      '-y',
      '@example/weather-mcp@1.2.0',
      '--units',
      'imperial',
    ]);
    writeFileSync(file, JSON.stringify({ ...stored.server, version: 3 }));
    const bad = await runCli(['config', 'add', 'wx2', '--from-server-json', file, '--yes'], {
      env: { HOME: dirs.home },
      cwd: dirs.project,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('version must be a string');
  });
});

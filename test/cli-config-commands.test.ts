/**
 * `mcpwire servers` and `mcpwire config show|check|import` over real config files in a temp
 * home and project, and `--server NAME` picking a configured server. Expanded secrets never
 * appear in any output.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli, SCRIPTED } from './support/cli.js';
import { useConfigDirs } from './support/config-dirs.js';
import { parseJsonl } from './support/jsonl.js';

const SECRET = 'tok-9f8e7d6c5b4a';
const dirs = useConfigDirs('mcpwire-cli-config-');
let env: Record<string, string>;

beforeAll(() => requireBuiltCli());
beforeEach(() => {
  env = { HOME: dirs.home, API_TOKEN: SECRET };
  writeFileSync(
    path.join(dirs.home, '.mcpwire/config.json'),
    JSON.stringify({
      mcpServers: {
        alpha: { command: process.execPath, args: [SCRIPTED], env: { API_TOKEN: '${API_TOKEN}' } },
        shadowed: { command: 'user-version' },
      },
    }),
  );
  writeFileSync(
    path.join(dirs.project, '.mcp.json'),
    JSON.stringify({
      mcpServers: {
        shadowed: { command: process.execPath, args: [SCRIPTED, '--version', '2025-06-18'] },
        broken: { command: '/nonexistent/server' },
      },
    }),
  );
});

describe('mcpwire servers', () => {
  it('connects every configured server and shows status, tools and where each is defined', async () => {
    const run = await runCli(['servers', '--trust-project', '--json'], { env, cwd: dirs.project });
    expect(run.code).toBe(0);
    const status = run.json<{ result: { configuredServers: number; servers: Array<Record<string, unknown>> } }>()
      .result;
    expect(status.configuredServers).toBe(3);
    const byName = Object.fromEntries(status.servers.map((s) => [s.name, s]));
    expect(byName.alpha).toMatchObject({
      status: 'connected',
      provenance: { scope: 'user', file: path.join(dirs.home, '.mcpwire/config.json') },
    });
    expect(byName.shadowed).toMatchObject({
      status: 'connected',
      protocolVersion: '2025-06-18',
      provenance: { scope: 'project', file: path.join(dirs.project, '.mcp.json') },
    });
    expect(byName.broken).toMatchObject({ status: 'error', lastError: expect.stringContaining('/nonexistent/server') });

    const text = await runCli(['servers', '--trust-project'], { env, cwd: dirs.project });
    expect(text.stdout).toMatch(/^alpha\s+connected\s+stdio\s+\d+\s+user /m);
    expect(text.stdout + text.stderr).not.toContain(SECRET);
  });

  it('does not start project servers without approval off a terminal', async () => {
    const run = await runCli(['servers', '--json'], { env, cwd: dirs.project });
    const byName = Object.fromEntries(
      run.json<{ result: { servers: Array<Record<string, unknown>> } }>().result.servers.map((s) => [s.name, s]),
    );
    expect(byName.alpha).toMatchObject({ status: 'connected' });
    expect(byName.shadowed).toMatchObject({
      status: 'not-approved',
      lastError: expect.stringContaining('not approved'),
    });
  });

  it('--trace-file records the traffic of every server, named per server, with config secrets redacted', async () => {
    const file = path.join(dirs.root, 'servers.jsonl');
    const run = await runCli(['servers', '--trust-project', '--trace-file', file], { env, cwd: dirs.project });
    expect(run.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(SECRET);
    const records = parseJsonl<{ server: string; method?: string; kind: string }>(text);
    for (const server of ['alpha', 'shadowed'])
      expect(records.some((r) => r.server === server && r.kind === 'response' && r.method === 'initialize')).toBe(true);
    expect(records.some((r) => r.server === 'broken')).toBe(true);
  });

  it('--no-connect only lists', async () => {
    const run = await runCli(['servers', '--no-connect', '--json'], { env, cwd: dirs.project });
    expect(run.json<{ result: { servers: Array<{ status: string }> } }>().result.servers.map((s) => s.status)).toEqual([
      'disconnected',
      'disconnected',
      'disconnected',
    ]);
  });
});

describe('mcpwire config', () => {
  it('show: the effective servers, redacted, with their files and what they override', async () => {
    const run = await runCli(['config', 'show'], { env, cwd: dirs.project });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`alpha  (from user ${path.join(dirs.home, '.mcpwire/config.json')})`);
    expect(run.stdout).toContain(
      `shadowed  (from project ${path.join(dirs.project, '.mcp.json')}; overrides user ${path.join(dirs.home, '.mcpwire/config.json')}; needs approval)`,
    );
    expect(run.stdout).toContain('"API_TOKEN": "***"');
    expect(run.stdout).toContain('  env.API_TOKEN ← ${API_TOKEN}');
    expect(run.stdout).not.toContain(SECRET);
    const one = await runCli(['config', 'show', '--server', 'alpha', '--json'], { env, cwd: dirs.project });
    expect(one.json<{ result: { servers: Array<{ name: string }> } }>().result.servers.map((s) => s.name)).toEqual([
      'alpha',
    ]);
    expect(one.stdout).not.toContain(SECRET);
  });

  it('check: exit 0 on good files; exit 2 naming the file and line of a broken one', async () => {
    expect((await runCli(['config', 'check'], { env, cwd: dirs.project })).code).toBe(0);
    writeFileSync(path.join(dirs.project, '.mcp.json'), '{\n  "mcpServers": {\n    "x": { "command": "a", }\n  ,,\n}');
    const run = await runCli(['config', 'check'], { env, cwd: dirs.project });
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).toContain(`${path.join(dirs.project, '.mcp.json')}:5:1: invalid JSON`);
    const missingVar = await runCli(['config', 'check', '--json'], { env: { HOME: dirs.home }, cwd: dirs.root });
    expect(missingVar.code).toBe(2);
    expect(missingVar.json()).toMatchObject({
      ok: false,
      error: { code: 'CONFIG_INVALID', message: expect.stringContaining('API_TOKEN') },
    });
  });

  it('import: prints an .mcp.json of another host; --write writes it and refuses to overwrite', async () => {
    const desktop = path.join(dirs.home, '.config/Claude/claude_desktop_config.json');
    mkdirSync(path.dirname(desktop), { recursive: true });
    writeFileSync(
      desktop,
      JSON.stringify({
        mcpServers: { fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] } },
      }),
    );
    const printed = await runCli(['config', 'import', '--from', 'claude-desktop'], { env, cwd: dirs.project });
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual({
      mcpServers: { fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] } },
    });
    const target = path.join(dirs.root, 'imported.json');
    expect(
      (await runCli(['config', 'import', '--from', 'claude-desktop', '--write', target], { env, cwd: dirs.project }))
        .code,
    ).toBe(0);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toHaveProperty('mcpServers.fs');
    const again = await runCli(['config', 'import', '--from', 'claude-desktop', '--write', target], {
      env,
      cwd: dirs.project,
    });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('--force');
    expect((await runCli(['config', 'import', '--from', 'notepad'], { env })).code).toBe(1);
  });

  it('--server NAME talks to a configured server; --config adds a file', async () => {
    const run = await runCli(['call', 'echo', '--arg', 'text=configured', '--server', 'alpha'], {
      env,
      cwd: dirs.project,
    });
    expect(run).toMatchObject({ code: 0, stdout: 'configured\n' });
    const extra = path.join(dirs.root, 'extra.yaml');
    writeFileSync(
      extra,
      `servers:\n  yamlsrv:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(SCRIPTED)}]\n`,
    );
    const viaYaml = await runCli(['tools', '--server', 'yamlsrv', '--config', extra, '--json'], {
      env,
      cwd: dirs.project,
    });
    expect(viaYaml.code).toBe(0);
  });
});

describe('mcpwire repl on piped input', () => {
  it('runs one command per line without a prompt and stops at "exit"', async () => {
    const run = await runCli(['repl'], {
      env,
      cwd: dirs.project,
      input: '/mcp tools alpha\ncall mcp__alpha__echo text="piped in"\nexit\ncall mcp__alpha__echo text=never\n',
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('mcp__alpha__echo');
    expect(run.stdout).toMatch(/^piped in$/m);
    expect(run.stdout).not.toMatch(/^never$/m);
    expect(run.stdout).not.toContain('mcp> ');
    expect(run.stdout + run.stderr).not.toContain(SECRET);
  });
});

/**
 * The CLI against a home holding every host's files: `servers --all` lists configured and
 * discovered servers with host, scope and file and the reasons for unusable ones (80 columns, and
 * `--json` without secrets); `--server HOST:NAME` (or a NAME only one host has) addresses a
 * discovered server in every command, a real stdio server is called through it; an ambiguous NAME
 * is a usage error listing the candidates; a host file that does not parse is named with its
 * position and everything else still lists; `auth status`/`auth logout` take HOST:NAME; `config import --from`
 * works for every host.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { discoverHosts } from '../src/manager/config/hosts/discover.js';
import { HOST_IDS } from '../src/manager/config/hosts/host-table.js';
import { EVERYTHING, requireBuiltCli, runCli } from './support/cli.js';
import { startHostHome, type HostHome } from './support/host-homes.js';

beforeAll(() => requireBuiltCli());

/** The run's environment: the fixture home, and none of the real variables that move host files. */
function envOf(h: HostHome, extra: Record<string, string> = {}): Record<string, string | undefined> {
  return {
    ...h.env,
    CODEX_HOME: undefined,
    CLAUDE_CONFIG_DIR: undefined,
    OPENCODE_CONFIG: undefined,
    APPDATA: undefined,
    COLUMNS: undefined,
    ...extra,
  };
}

const widest = (text: string) => Math.max(...text.split('\n').map((line) => [...line].length));

describe('mcpwire servers --all', () => {
  it('lists every configured and discovered server with host, scope and file, reasons for unusable ones, in 80 columns', async () => {
    const h = startHostHome();
    const run = await runCli(['servers', '--all', '--no-connect'], { env: envOf(h), cwd: h.project });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(widest(run.stdout)).toBeLessThanOrEqual(80);
    const text = run.stdout.replace(/\s+/g, ' ');
    // The project's .mcp.json is mcpwire's own file too: listed once, as configured.
    expect(text).toContain('sentry disconnected sse mcpwire project ./.mcp.json');
    expect(text).not.toContain('claude-code:sentry');
    expect(text).toContain('cursor:files ready stdio Cursor user ~/.cursor/mcp.json');
    expect(text).toContain('codex:project-tool disabled stdio Codex project ./.codex/config.toml');
    // A reason that does not fit is a numbered note below the table, naming the server.
    const goose = /goose:developer unusable Goose user ~\/\.config\/goose\/config\.yaml \[(\d+)\] /.exec(text);
    expect(goose, run.stdout).not.toBeNull();
    expect(text).toContain(`[${goose![1]}] server "goose:developer": a Goose "builtin" extension`);
    expect(text).toContain('claude-code:local-db ready stdio Claude Code project ~/.claude.json');
    // Every discovered server has its row (names are never wrapped: only the last column is).
    const names = run.stdout.split('\n').map((line) => line.split(/\s+/)[0]);
    for (const id of [
      'vscode:perplexity',
      'windsurf:figma',
      'gemini:gcp',
      'zed:legacy',
      'continue:Asks',
      'cline:weather',
      'roo-code:scripted',
    ])
      expect(names).toContain(id);
  });

  it('--json: every discovered server with provenance and status, as discovery finds it, and no secret', async () => {
    const h = startHostHome();
    const env = envOf(h, { GITHUB_PAT: 'ghp_secret_from_env_123' });
    const run = await runCli(['servers', '--all', '--no-connect', '--json'], { env, cwd: h.project });
    expect(run.code).toBe(0);
    const result = run.json<{
      result: {
        servers: Array<{ name: string }>;
        discovered: Array<{
          id: string;
          host: string;
          file: string;
          scope: string;
          at: string;
          status: string;
          reasons: string[];
        }>;
        hostErrors: string[];
      };
    }>().result;
    const direct = await discoverHosts({ ...h.locations, env: { ...h.env, GITHUB_PAT: 'ghp_secret_from_env_123' } });
    const expected = direct.servers.filter((s) => s.id !== 'claude-code:sentry');
    expect(result.discovered.map((s) => [s.id, s.host, s.file, s.scope, s.at])).toEqual(
      expected.map((s) => [s.id, s.host, s.file, s.scope, s.at]),
    );
    expect(new Set(result.discovered.map((s) => s.host))).toEqual(new Set(HOST_IDS));
    expect(result.servers.map((s) => s.name)).toEqual(['sentry']);
    expect(result.discovered.find((s) => s.id === 'gemini:gcp')).toMatchObject({
      status: 'unusable',
      reasons: ['"authProviderType": "google_credentials" (Google credentials): mcpwire does not sign in to Google'],
    });
    expect(result.hostErrors).toEqual([]);
    // A key written literally in Cline's file, and a token from the environment, are never printed.
    expect(run.stdout).not.toContain('fixture-key-1234');
    expect(run.stdout).not.toContain('ghp_secret_from_env_123');
  });

  it('a host file that does not parse is named with its position; every other host still lists', async () => {
    const h = startHostHome();
    const codex = h.write('.codex/config.toml', '[mcp_servers.a]\ncommand = "x"\nargs = [\n');
    const run = await runCli(['servers', '--all', '--no-connect'], { env: envOf(h), cwd: h.project });
    expect(run.code).toBe(0);
    expect(run.stdout.replace(/\s+/g, ' ')).toContain(`host file error: ${codex}:4:1: invalid TOML:`);
    expect(run.stdout).toContain('codex:project-tool');
    expect(run.stdout).toContain('zed:files');
  });
});

describe('--server HOST:NAME', () => {
  it('calls a discovered stdio server (Cursor JSON, Codex TOML) through its host-qualified name', async () => {
    const h = startHostHome({ stdio: { command: process.execPath, args: [EVERYTHING, 'stdio'] } });
    for (const id of ['cursor:files', 'codex:files']) {
      const run = await runCli(['call', 'echo', '--arg', `message=via ${id}`, '--server', id], {
        env: envOf(h),
        cwd: h.project,
      });
      expect(run.stderr).toBe('');
      expect(run.stdout).toContain(`Echo: via ${id}`);
      expect(run.code).toBe(0);
    }
  });

  it('a server from a host file inside the project needs approval like a project .mcp.json server', async () => {
    const h = startHostHome({ hosts: ['cursor'], stdio: { command: process.execPath, args: [EVERYTHING, 'stdio'] } });
    h.write(
      `${h.project}/.cursor/mcp.json`,
      JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }),
    );
    const refused = await runCli(['tools', '--server', 'cursor:proj'], { env: envOf(h), cwd: h.project });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'server "cursor:proj" (defined in ' + h.project + '/.cursor/mcp.json) is not approved to start',
    );
    const trusted = await runCli(
      ['call', 'echo', '--arg', 'message=approved', '--server', 'cursor:proj', '--trust-project'],
      {
        env: envOf(h),
        cwd: h.project,
      },
    );
    expect(trusted.stdout).toContain('Echo: approved');
    expect(trusted.code).toBe(0);
  });

  it('a NAME several hosts have is a usage error listing the candidates', async () => {
    const h = startHostHome();
    const run = await runCli(['tools', '--server', 'files'], { env: envOf(h), cwd: h.project });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'server "files" is configured by several hosts: claude-desktop:files, cursor:files, windsurf:files, codex:files, zed:files, opencode:files; name one as --server HOST:NAME',
    );
  });

  it('a NAME only one host has is that server (config show names its host, file and place)', async () => {
    const h = startHostHome();
    const run = await runCli(['config', 'show', '--server', 'fetch', '--json'], { env: envOf(h), cwd: h.project });
    expect(run.code).toBe(0);
    const [server] = run.json<{ result: { servers: Array<Record<string, unknown>> } }>().result.servers;
    expect(server).toMatchObject({
      name: 'vscode:fetch',
      transport: 'stdio',
      command: 'uvx',
      args: ['mcp-server-fetch'],
      provenance: { scope: 'import', host: { id: 'vscode', scope: 'user', at: 'servers["fetch"]' } },
    });
  });

  it('auth status and auth logout take a HOST:NAME too (read from the store: no network)', async () => {
    const h = startHostHome();
    const env = envOf(h, { FIGMA_TOKEN: 'figma-secret-token-1' });
    const status = await runCli(['auth', 'status', 'windsurf:figma', '--json'], { env, cwd: h.project });
    expect(status.stderr).toBe('');
    expect(status.code).toBe(0);
    expect(status.json<{ result: { servers: unknown[] } }>().result.servers).toEqual([
      expect.objectContaining({ server: 'windsurf:figma', url: 'https://mcp.figma.com/mcp', state: 'not-logged-in' }),
    ]);
    const logout = await runCli(['auth', 'logout', 'windsurf:figma'], { env, cwd: h.project });
    expect(logout.code).toBe(0);
    expect(logout.stdout).toContain('Server "windsurf:figma" had no stored login');
    expect(status.stdout + logout.stdout + logout.stderr).not.toContain('figma-secret-token-1');
  });

  it("an entry mcpwire cannot honour exits 2 naming file, place and reason; an unknown one lists the host's servers", async () => {
    const h = startHostHome();
    const unusable = await runCli(['tools', '--server', 'vscode:perplexity'], { env: envOf(h), cwd: h.project });
    expect(unusable.code).toBe(2);
    expect(unusable.stderr).toContain(
      `server "vscode:perplexity" (${h.files.vscode[0]!.file} servers["perplexity"]) cannot be used: env.PERPLEXITY_API_KEY: \${input:perplexity-key} is a VS Code input prompt`,
    );
    const unknown = await runCli(['tools', '--server', 'zed:nope'], { env: envOf(h), cwd: h.project });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      'server "zed:nope": Zed has no server "nope" (its servers: zed:files, zed:remote, zed:mcp-server-github, zed:legacy;',
    );
  });
});

describe('mcpwire config import --from', () => {
  it("prints an .mcp.json of any host's usable servers in mcpwire's shape", async () => {
    const h = startHostHome();
    const run = await runCli(['config', 'import', '--from', 'codex', '--json'], { env: envOf(h), cwd: h.project });
    expect(run.code).toBe(0);
    const result = run.json<{ result: { document: { mcpServers: Record<string, unknown> } } }>().result;
    expect(result.document.mcpServers).toEqual({
      files: { command: 'node', args: ['server.js'], startupTimeoutMs: 20000, toolTimeoutMs: 45000 },
      docs: {
        url: 'https://developers.openai.com/mcp',
        headers: { 'X-Client': 'mcpwire-test', 'X-Org': '${DOCS_ORG}', Authorization: 'Bearer ${DOCS_TOKEN}' },
        includeTools: ['search'],
      },
      figma: {
        command: 'npx',
        args: ['-y', 'figma-developer-mcp', '--stdio'],
        env: { LOG: '$${not-expanded}', FIGMA_API_KEY: '${FIGMA_API_KEY}' },
      },
      'project-tool': { command: 'python3', args: ['-m', 'project_tool'], enabled: false },
    });
    // TOML, YAML map and YAML list hosts through the CLI; every host's import in-process (host-import tests).
    for (const host of ['goose', 'continue', 'opencode']) {
      const each = await runCli(['config', 'import', '--from', host, '--json'], { env: envOf(h), cwd: h.project });
      expect(each.code, `${host}: ${each.stderr}`).toBe(0);
    }
  });
});

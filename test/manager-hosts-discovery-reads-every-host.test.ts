/**
 * discoverHosts against a home holding every host's files in their documented shapes (comments
 * included where the format allows): each entry compared with what it should become in mcpwire's
 * shape, with its provenance; references mcpwire cannot honour name the reference; the same
 * servers are found at each OS's own locations; a file that does not parse names its position
 * and every other host still lists.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverHosts, type DiscoveredServer } from '../src/manager/config/hosts/discover.js';
import { HOST_IDS } from '../src/manager/config/hosts/host-table.js';
import { startHostHome, type HostHome } from './support/host-homes.js';

/** The variables set for the run: the others stay unset, so entries naming them are `invalid`. */
const ENV = { GITHUB_PAT: 'ghp_1234567890', DOCS_ORG: 'org-1', DOCS_TOKEN: 'docs-token-1' };

function shape(server: DiscoveredServer, h: HostHome) {
  const rel = (file: string) =>
    file.startsWith(h.home) ? `~${file.slice(h.home.length)}` : `.${file.slice(h.project.length)}`;
  return {
    id: server.id,
    scope: server.scope,
    file: rel(server.file),
    at: server.at.replace(JSON.stringify(h.project), '"<project>"'),
    entry: server.entry,
    problems: server.problems,
    ...(server.invalid !== undefined ? { invalid: server.invalid } : {}),
    ...(server.disabled ? { disabled: true } : {}),
  };
}

const unset = (field: string, name: string) => `${field} needs variable ${name}, which is not set`;

function expected(h: HostHome) {
  const user =
    h.platform === 'darwin'
      ? '~/Library/Application Support'
      : h.platform === 'win32'
        ? '~/AppData/Roaming'
        : '~/.config';
  return [
    {
      id: 'claude-desktop:files',
      scope: 'user',
      file: `${user}/Claude/claude_desktop_config.json`,
      at: 'mcpServers["files"]',
      entry: { command: 'node', args: ['server.js'], env: { LOG_LEVEL: 'debug' } },
      problems: [],
    },
    {
      id: 'claude-code:github',
      scope: 'user',
      file: '~/.claude.json',
      at: 'mcpServers["github"]',
      entry: {
        type: 'http',
        url: 'https://api.githubcopilot.com/mcp/',
        headers: { Authorization: 'Bearer ${GITHUB_PAT}' },
      },
      problems: [],
    },
    {
      id: 'claude-code:old-ws',
      scope: 'user',
      file: '~/.claude.json',
      at: 'mcpServers["old-ws"]',
      entry: { type: 'ws', url: 'ws://localhost:9000' },
      problems: ['a WebSocket server ("type": "ws"): mcpwire speaks stdio, Streamable HTTP and SSE'],
    },
    {
      id: 'claude-code:sentry',
      scope: 'project',
      file: './.mcp.json',
      at: 'mcpServers["sentry"]',
      entry: { type: 'sse', url: 'https://mcp.sentry.dev/sse' },
      problems: [],
    },
    {
      id: 'claude-code:local-db',
      scope: 'project',
      file: '~/.claude.json',
      at: 'projects["<project>"].mcpServers["local-db"]',
      entry: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', '@bytebase/dbhub', '--dsn', '${DB_URL:-postgres://localhost/dev}'],
      },
      problems: [],
    },
    {
      id: 'cursor:files',
      scope: 'user',
      file: '~/.cursor/mcp.json',
      at: 'mcpServers["files"]',
      entry: { command: 'node', args: ['server.js'] },
      problems: [],
    },
    {
      id: 'cursor:linear',
      scope: 'user',
      file: '~/.cursor/mcp.json',
      at: 'mcpServers["linear"]',
      entry: { url: 'https://mcp.linear.app/sse', headers: { Authorization: 'Bearer ${LINEAR_TOKEN}' } },
      problems: [],
      invalid: unset('headers.Authorization', 'LINEAR_TOKEN'),
    },
    {
      id: 'cursor:docs',
      scope: 'project',
      file: './.cursor/mcp.json',
      at: 'mcpServers["docs"]',
      // ${workspaceFolder} and ${userHome} are values known here, not variables.
      entry: { command: 'node', args: [path.join(h.project, 'tools/docs.js').replace(/\\/g, '/'), '--home', h.home] },
      problems: [],
    },
    {
      id: 'vscode:perplexity',
      scope: 'user',
      file: `${user}/Code/User/mcp.json`,
      at: 'servers["perplexity"]',
      entry: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', 'server-perplexity-ask'],
        env: { PERPLEXITY_API_KEY: '${input:perplexity-key}' },
      },
      problems: [
        'env.PERPLEXITY_API_KEY: ${input:perplexity-key} is a VS Code input prompt ("perplexity-key"); mcpwire cannot supply it',
      ],
    },
    {
      id: 'vscode:fetch',
      scope: 'user',
      file: `${user}/Code/User/mcp.json`,
      at: 'servers["fetch"]',
      entry: { type: 'stdio', command: 'uvx', args: ['mcp-server-fetch'] },
      problems: [],
    },
    {
      id: 'vscode:github',
      scope: 'project',
      file: './.vscode/mcp.json',
      at: 'servers["github"]',
      entry: {
        type: 'http',
        url: 'https://api.githubcopilot.com/mcp/',
        headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' },
      },
      problems: [],
      invalid: unset('headers.Authorization', 'GITHUB_TOKEN'),
    },
    {
      id: 'vscode:sandboxed',
      scope: 'project',
      file: './.vscode/mcp.json',
      at: 'servers["sandboxed"]',
      entry: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', h.project] },
      problems: ['VS Code runs it sandboxed ("sandboxEnabled"); mcpwire has no sandbox and will not run it unconfined'],
    },
    {
      id: 'windsurf:figma',
      scope: 'user',
      file: '~/.codeium/windsurf/mcp_config.json',
      at: 'mcpServers["figma"]',
      entry: { url: 'https://mcp.figma.com/mcp', headers: { 'X-Figma-Token': '${FIGMA_TOKEN}' } },
      problems: [],
      invalid: unset('headers.X-Figma-Token', 'FIGMA_TOKEN'),
    },
    {
      id: 'windsurf:files',
      scope: 'user',
      file: '~/.codeium/windsurf/mcp_config.json',
      at: 'mcpServers["files"]',
      entry: { command: 'node', args: ['server.js'], excludeTools: ['delete'] },
      problems: [],
    },
    {
      id: 'codex:files',
      scope: 'user',
      file: '~/.codex/config.toml',
      at: 'mcp_servers["files"]',
      entry: { command: 'node', args: ['server.js'], startupTimeoutMs: 20000, toolTimeoutMs: 45000 },
      problems: [],
    },
    {
      id: 'codex:docs',
      scope: 'user',
      file: '~/.codex/config.toml',
      at: 'mcp_servers["docs"]',
      entry: {
        url: 'https://developers.openai.com/mcp',
        headers: { 'X-Client': 'mcpwire-test', 'X-Org': '${DOCS_ORG}', Authorization: 'Bearer ${DOCS_TOKEN}' },
        includeTools: ['search'],
      },
      problems: [],
    },
    {
      id: 'codex:figma',
      scope: 'user',
      file: '~/.codex/config.toml',
      at: 'mcp_servers["figma"]',
      // Codex never expands: its literal "${not-expanded}" stays literal ($$ escapes it).
      entry: {
        command: 'npx',
        args: ['-y', 'figma-developer-mcp', '--stdio'],
        env: { LOG: '$${not-expanded}', FIGMA_API_KEY: '${FIGMA_API_KEY}' },
      },
      problems: [],
      invalid: unset('env.FIGMA_API_KEY', 'FIGMA_API_KEY'),
    },
    {
      id: 'codex:project-tool',
      scope: 'project',
      file: './.codex/config.toml',
      at: 'mcp_servers["project-tool"]',
      entry: { command: 'python3', args: ['-m', 'project_tool'], enabled: false },
      problems: [],
      disabled: true,
    },
    {
      id: 'gemini:stream',
      scope: 'user',
      file: '~/.gemini/settings.json',
      at: 'mcpServers["stream"]',
      entry: {
        type: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer ${API_TOKEN}' },
        timeoutMs: 5000,
      },
      problems: [],
      invalid: unset('headers.Authorization', 'API_TOKEN'),
    },
    {
      id: 'gemini:events',
      scope: 'user',
      file: '~/.gemini/settings.json',
      at: 'mcpServers["events"]',
      entry: { type: 'sse', url: 'https://events.example.com/sse' },
      problems: [],
    },
    {
      id: 'gemini:gcp',
      scope: 'user',
      file: '~/.gemini/settings.json',
      at: 'mcpServers["gcp"]',
      entry: { type: 'http', url: 'https://gcp.example.com/mcp' },
      problems: ['"authProviderType": "google_credentials" (Google credentials): mcpwire does not sign in to Google'],
    },
    {
      id: 'gemini:pyserver',
      scope: 'project',
      file: './.gemini/settings.json',
      at: 'mcpServers["pyserver"]',
      entry: {
        command: 'python',
        args: ['-m', 'my_server'],
        cwd: './mcp',
        env: { DATABASE_URL: '${DB_CONNECTION_STRING}' },
        includeTools: ['query'],
      },
      problems: [],
      invalid: unset('env.DATABASE_URL', 'DB_CONNECTION_STRING'),
    },
    {
      id: 'goose:developer',
      scope: 'user',
      file: goose(h),
      at: 'extensions["developer"]',
      entry: { enabled: true, timeoutMs: 300000 },
      problems: ['a Goose "builtin" extension runs inside Goose, not as an MCP server mcpwire can start'],
    },
    {
      id: 'goose:github',
      scope: 'user',
      file: goose(h),
      at: 'extensions["github"]',
      entry: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github'],
        enabled: true,
        env: {
          GITHUB_API_URL: 'https://api.github.com',
          GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_PERSONAL_ACCESS_TOKEN}',
        },
        timeoutMs: 300000,
      },
      problems: [],
      invalid: unset('env.GITHUB_PERSONAL_ACCESS_TOKEN', 'GITHUB_PERSONAL_ACCESS_TOKEN'),
    },
    {
      id: 'goose:remote',
      scope: 'user',
      file: goose(h),
      at: 'extensions["remote"]',
      entry: {
        type: 'http',
        url: 'https://mcp.example.org/mcp',
        headers: { 'X-Team': 'platform' },
        enabled: false,
        timeoutMs: 60000,
      },
      problems: [],
      disabled: true,
    },
    {
      id: 'zed:files',
      scope: 'user',
      file: zed(h),
      at: 'context_servers["files"]',
      entry: { command: 'node', args: ['server.js'], env: {} },
      problems: [],
    },
    {
      id: 'zed:remote',
      scope: 'user',
      file: zed(h),
      at: 'context_servers["remote"]',
      entry: { url: 'https://mcp.example.net/mcp', headers: { Authorization: 'Bearer ${ZED_TOKEN}' } },
      problems: [],
      invalid: unset('headers.Authorization', 'ZED_TOKEN'),
    },
    {
      id: 'zed:mcp-server-github',
      scope: 'user',
      file: zed(h),
      at: 'context_servers["mcp-server-github"]',
      entry: { enabled: true },
      problems: ['provided by a Zed extension, which only Zed can start'],
    },
    {
      id: 'zed:legacy',
      scope: 'project',
      file: './.zed/settings.json',
      at: 'context_servers["legacy"]',
      entry: { command: 'node', args: ['server.js'], env: { A: '1' } },
      problems: [],
    },
    {
      id: 'opencode:files',
      scope: 'user',
      file: '~/.config/opencode/opencode.json',
      at: 'mcp["files"]',
      entry: { type: 'stdio', command: ['node', 'server.js'], env: { MY_ENV_VAR: '${MY_VALUE}' }, enabled: true },
      problems: [],
      invalid: unset('env.MY_ENV_VAR', 'MY_VALUE'),
    },
    {
      id: 'opencode:context7',
      scope: 'user',
      file: '~/.config/opencode/opencode.json',
      at: 'mcp["context7"]',
      entry: {
        type: 'http',
        url: 'https://mcp.context7.com/mcp',
        headers: { CONTEXT7_API_KEY: '${CONTEXT7_API_KEY}' },
        oauth: false,
      },
      problems: [],
      invalid: unset('headers.CONTEXT7_API_KEY', 'CONTEXT7_API_KEY'),
    },
    {
      id: 'opencode:from-file',
      scope: 'user',
      file: '~/.config/opencode/opencode.json',
      at: 'mcp["from-file"]',
      entry: { type: 'http', url: 'https://x.example/mcp', headers: { Authorization: 'Bearer {file:~/.secrets/x}' } },
      problems: [
        'headers.Authorization: {file:~/.secrets/x} is an OpenCode file reference (its contents are read by OpenCode); mcpwire cannot supply it',
      ],
    },
    {
      id: 'opencode:sentry',
      scope: 'project',
      file: './opencode.jsonc',
      at: 'mcp["sentry"]',
      entry: { type: 'http', url: 'https://mcp.sentry.dev/mcp', oauth: { clientId: 'abc', scopes: ['read', 'write'] } },
      problems: [],
    },
    {
      id: 'continue:SQLite',
      scope: 'user',
      file: '~/.continue/config.yaml',
      at: 'mcpServers[0]',
      entry: { command: 'npx', args: ['-y', 'mcp-sqlite', '/path/to/db.sqlite'] },
      problems: [],
    },
    {
      id: 'continue:Remote',
      scope: 'user',
      file: '~/.continue/config.yaml',
      at: 'mcpServers[1]',
      entry: {
        type: 'streamable-http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer ${REMOTE_KEY}' },
      },
      problems: [],
      invalid: unset('headers.Authorization', 'REMOTE_KEY'),
    },
    {
      id: 'continue:Asks',
      scope: 'user',
      file: '~/.continue/config.yaml',
      at: 'mcpServers[2]',
      entry: { command: 'node', args: ['server.js', '${{ inputs.workspace }}'] },
      problems: [
        'args[1]: ${{ inputs.workspace }} is a Continue input (answered by Continue itself); mcpwire cannot supply it',
      ],
    },
    {
      id: 'continue:json-one',
      scope: 'project',
      file: './.continue/mcpServers/from-claude.json',
      at: 'mcpServers["json-one"]',
      entry: { command: 'uvx', args: ['mcp-server-time'] },
      problems: [],
    },
    {
      id: 'continue:Browser search',
      scope: 'project',
      file: './.continue/mcpServers/playwright.yaml',
      at: 'mcpServers[0]',
      entry: { command: 'npx', args: ['@playwright/mcp@latest'] },
      problems: [],
    },
    {
      id: 'cline:weather',
      scope: 'user',
      file: `${user}/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json`,
      at: 'mcpServers["weather"]',
      entry: {
        command: 'node',
        args: ['/path/weather/build/index.js'],
        env: { OPENWEATHER_API_KEY: 'fixture-key-1234' },
        disabled: false,
        timeoutMs: 30000,
      },
      problems: [],
    },
    {
      id: 'cline:legacy-sse',
      scope: 'user',
      file: `${user}/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json`,
      at: 'mcpServers["legacy-sse"]',
      entry: { type: 'sse', url: 'https://sse.example.com/sse', disabled: true },
      problems: [],
      disabled: true,
    },
    {
      id: 'roo-code:puppeteer',
      scope: 'user',
      file: `${user}/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json`,
      at: 'mcpServers["puppeteer"]',
      entry: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-puppeteer'], disabled: false },
      problems: [],
    },
    {
      id: 'roo-code:remote',
      scope: 'project',
      file: './.roo/mcp.json',
      at: 'mcpServers["remote"]',
      entry: {
        type: 'streamable-http',
        url: 'https://roo.example.com/mcp',
        headers: { 'X-API-Key': '${ROO_KEY}' },
        excludeTools: ['dangerous'],
      },
      problems: [],
      invalid: unset('headers.X-API-Key', 'ROO_KEY'),
    },
    {
      id: 'roo-code:scripted',
      scope: 'project',
      file: './.roo/mcp.json',
      at: 'mcpServers["scripted"]',
      entry: { command: 'node', args: ['${SCRIPT_DIR}/server.js'], timeoutMs: 60000 },
      problems: [],
      invalid: unset('args[0]', 'SCRIPT_DIR'),
    },
  ];
}

const goose = (h: HostHome) =>
  h.platform === 'win32' ? '~/AppData/Roaming/Block/goose/config/config.yaml' : '~/.config/goose/config.yaml';
const zed = (h: HostHome) =>
  h.platform === 'win32' ? '~/AppData/Roaming/Zed/settings.json' : '~/.config/zed/settings.json';

describe('discoverHosts', () => {
  for (const platform of ['linux', 'darwin', 'win32'] as const) {
    it(`${platform}: every host's servers, entry by entry, from the files at ${platform}'s locations`, async () => {
      const h = startHostHome({ platform });
      const found = await discoverHosts({ ...h.locations, env: { ...h.env, ...ENV } });
      expect(found.errors).toEqual([]);
      expect(found.servers.map((s) => shape(s, h))).toEqual(expected(h));
      // Every file the fixture wrote was read, and nothing else was.
      const written = Object.values(h.files).flatMap((files) => files.map((f) => f.file));
      expect(
        found.files
          .filter((f) => f.status === 'loaded')
          .map((f) => f.file)
          .sort(),
      ).toEqual([...new Set(written)].sort());
      expect(new Set(found.servers.map((s) => s.host))).toEqual(new Set(HOST_IDS));
    });
  }

  it('fields mcpwire does not use are noted, not dropped silently', async () => {
    const h = startHostHome({ hosts: ['gemini', 'goose', 'cline'] });
    h.write(
      path.join(h.project, '.roo/mcp.json'),
      '{ "mcpServers": { "w": { "command": "x", "watchPaths": ["a"], "mystery": 1 } } }',
    );
    const found = await discoverHosts({ ...h.locations, hosts: ['gemini', 'goose', 'cline', 'roo-code'] });
    const notes = Object.fromEntries(found.servers.map((s) => [s.id, s.notes]));
    expect(notes['gemini:pyserver']).toEqual([
      '"trust" (skip confirmations) is Gemini CLI\'s; mcpwire\'s permissions decide',
    ]);
    expect(notes['goose:github']).toEqual([
      '"env_keys" are read from the environment (Goose keeps them in its keyring)',
    ]);
    expect(notes['cline:legacy-sse']).toEqual(['a "url" without "type" is SSE in Cline']);
    expect(notes['roo-code:w']).toEqual(['not used by mcpwire (ignored): "mystery"']);
    h.write('.claude/settings.json', '{ "mcpServers": { "s": { "command": "x" } } }');
    const claude = await discoverHosts({ ...h.locations, hosts: ['claude-code'] });
    expect(claude.servers.map((s) => [s.id, s.notes])).toEqual([
      [
        'claude-code:s',
        ['Claude Code itself does not start servers from a settings file (only .mcp.json, ~/.claude.json)'],
      ],
    ]);
  });

  it('a file that does not parse is an error naming file, line and column; every other host still lists', async () => {
    const h = startHostHome();
    const codex = h.write('.codex/config.toml', '[mcp_servers.a]\ncommand = "x"\nargs = [\n');
    const cursor = h.write(
      '.cursor/mcp.json',
      '{\n  "mcpServers": {\n    "a": { "command": "a" "args": [] }\n  }\n}\n',
    );
    const goose = h.write('.config/goose/config.yaml', 'extensions:\n  a: [unclosed\n');
    const found = await discoverHosts({ ...h.locations, env: h.env });
    expect(found.errors.map((e) => e.message)).toEqual([
      `${cursor}:3:27: invalid JSON: comma expected`,
      expect.stringMatching(new RegExp(`^${escape(codex)}:4:1: invalid TOML: `)) as unknown,
      expect.stringMatching(new RegExp(`^${escape(goose)}:\\d+:\\d+: invalid YAML: `)) as unknown,
    ]);
    expect(found.files.filter((f) => f.status === 'error').map((f) => f.file)).toEqual([cursor, codex, goose]);
    // The project files of the same hosts, and every other host, still list.
    expect(found.servers.map((s) => s.id)).toContain('cursor:docs');
    expect(found.servers.map((s) => s.id)).toContain('codex:project-tool');
    expect(new Set(found.servers.map((s) => s.host)).size).toBe(HOST_IDS.length - 1);
  });

  it('a later file of the same host shadows an earlier entry of the same name, and says so', async () => {
    const h = startHostHome({ hosts: ['cursor'] });
    const project = h.write(
      path.join(h.project, '.cursor/mcp.json'),
      '{ "mcpServers": { "files": { "command": "mine" } } }',
    );
    const found = await discoverHosts({ ...h.locations, hosts: ['cursor'] });
    const files = found.servers.find((s) => s.id === 'cursor:files')!;
    expect(files.file).toBe(project);
    expect(files.entry).toEqual({ command: 'mine' });
    expect(files.shadows).toEqual([{ file: path.join(h.home, '.cursor/mcp.json'), at: 'mcpServers["files"]' }]);
    expect(found.entries.filter((s) => s.id === 'cursor:files')).toHaveLength(2);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

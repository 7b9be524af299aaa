/**
 * A temporary home directory holding the MCP config files of every host mcpwire reads, in the
 * shapes each host's documentation shows (comments where the format allows them), at each OS's
 * real locations (linux, darwin, win32). The paths are written out here by hand, independently of
 * `src/manager/config/hosts/host-table.ts`, so a test compares the table against them.
 *
 * `startHostHome()` removes the directory when the test finishes; `makeHostHome()` hands back a
 * `close()`. `locations` is what `hostFiles`/`discoverHosts` take; `env` is what the CLI takes
 * (HOME, XDG_CONFIG_HOME, APPDATA pointed into the directory).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import type { HostId } from '../../src/manager/config/hosts/host-table.js';

/** A command line for the stdio servers in the files (a real server when a test calls one). */
export interface StdioCommand {
  command: string;
  args: string[];
}

export interface HostHomeOptions {
  /** The OS whose layout the files follow (default linux). */
  platform?: 'linux' | 'darwin' | 'win32';
  /** The hosts whose files are written (default every host). */
  hosts?: readonly HostId[];
  /** The command of each host's `files` server (default `node server.js`, never started). */
  stdio?: StdioCommand;
}

export interface HostHome {
  root: string;
  home: string;
  /** The project directory (the working directory of a CLI run). */
  project: string;
  platform: 'linux' | 'darwin' | 'win32';
  /** For `hostFiles` / `discoverHosts`. */
  locations: { homeDir: string; cwd: string; platform: NodeJS.Platform; env: Record<string, string> };
  /** For the CLI: HOME, XDG_CONFIG_HOME (linux), APPDATA (win32). */
  env: Record<string, string>;
  /** The files written, per host, with the scope they are in. */
  files: Record<HostId, Array<{ file: string; scope: 'user' | 'project' }>>;
  /** Writes `text` to `file` (a path relative to the home, or absolute), making directories. */
  write(file: string, text: string): string;
  close(): void;
}

/** A host home removed when the current test finishes. Call inside a test. */
export function startHostHome(options: HostHomeOptions = {}): HostHome {
  const home = makeHostHome(options);
  onTestFinished(() => home.close());
  return home;
}

/** A host home; `close()` removes it. */
export function makeHostHome(options: HostHomeOptions = {}): HostHome {
  const platform = options.platform ?? 'linux';
  const root = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-hosts-'));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  mkdirSync(project, { recursive: true });
  const appData = path.join(home, 'AppData', 'Roaming');
  const xdg = path.join(home, '.config');
  const env: Record<string, string> = { HOME: home, USERPROFILE: home };
  if (platform === 'linux') env.XDG_CONFIG_HOME = xdg;
  if (platform === 'win32') env.APPDATA = appData;
  const write = (file: string, text: string) => {
    const full = path.isAbsolute(file) ? file : path.join(home, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
    return full;
  };
  const stdio = options.stdio ?? { command: 'node', args: ['server.js'] };
  const files = {} as HostHome['files'];
  const dirs = {
    // Where Electron apps keep settings, and where XDG-style tools do.
    appSupport:
      platform === 'darwin' ? path.join(home, 'Library/Application Support') : platform === 'win32' ? appData : xdg,
    config: xdg,
  };
  for (const host of options.hosts ?? HOST_ORDER) {
    files[host] = FIXTURES[host]({ home, project, platform, dirs, appData, stdio }).map(({ file, scope, text }) => ({
      file: write(file, text),
      scope,
    }));
  }
  return {
    root,
    home,
    project,
    platform,
    locations: { homeDir: home, cwd: project, platform, env },
    env,
    files,
    write,
    close: () => rmSync(root, { recursive: true, force: true }),
  };
}

const HOST_ORDER: readonly HostId[] = [
  'claude-desktop',
  'claude-code',
  'cursor',
  'vscode',
  'windsurf',
  'codex',
  'gemini',
  'goose',
  'zed',
  'opencode',
  'continue',
  'cline',
  'roo-code',
];

interface FixtureContext {
  home: string;
  project: string;
  platform: 'linux' | 'darwin' | 'win32';
  dirs: { appSupport: string; config: string };
  appData: string;
  stdio: StdioCommand;
}

type Fixture = (c: FixtureContext) => Array<{ file: string; scope: 'user' | 'project'; text: string }>;

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const q = (value: unknown) => JSON.stringify(value);
/** A user config file: `windows` under %APPDATA% on Windows, `elsewhere` under the config dir (XDG) elsewhere. */
const userConfigFile = (c: FixtureContext, windows: string, elsewhere: string) =>
  c.platform === 'win32' ? path.join(c.appData, windows) : path.join(c.dirs.config, elsewhere);

/** Per host, its files as its documentation shows them. */
export const FIXTURES: Record<HostId, Fixture> = {
  'claude-desktop': (c) => [
    {
      file: path.join(c.dirs.appSupport, 'Claude/claude_desktop_config.json'),
      scope: 'user',
      text: json({
        globalShortcut: 'Ctrl+Space',
        mcpServers: { files: { command: c.stdio.command, args: c.stdio.args, env: { LOG_LEVEL: 'debug' } } },
      }),
    },
  ],
  'claude-code': (c) => [
    {
      file: path.join(c.home, '.claude.json'),
      scope: 'user',
      text: json({
        numStartups: 12,
        mcpServers: {
          github: {
            type: 'http',
            url: 'https://api.githubcopilot.com/mcp/',
            headers: { Authorization: 'Bearer ${GITHUB_PAT}' },
          },
          'old-ws': { type: 'ws', url: 'ws://localhost:9000' },
        },
        projects: {
          [c.project]: {
            allowedTools: [],
            mcpServers: {
              'local-db': {
                type: 'stdio',
                command: 'npx',
                args: ['-y', '@bytebase/dbhub', '--dsn', '${DB_URL:-postgres://localhost/dev}'],
              },
            },
          },
          '/somewhere/else': { mcpServers: { elsewhere: { command: 'nope' } } },
        },
      }),
    },
    {
      file: path.join(c.project, '.mcp.json'),
      scope: 'project',
      text: json({ mcpServers: { sentry: { type: 'sse', url: 'https://mcp.sentry.dev/sse' } } }),
    },
    {
      file: path.join(c.project, '.claude/settings.json'),
      scope: 'project',
      text: json({ permissions: { allow: ['Bash(npm test)'] }, enabledMcpjsonServers: ['sentry'] }),
    },
  ],
  cursor: (c) => [
    {
      file: path.join(c.home, '.cursor/mcp.json'),
      scope: 'user',
      text: json({
        mcpServers: {
          files: { command: c.stdio.command, args: c.stdio.args },
          linear: { url: 'https://mcp.linear.app/sse', headers: { Authorization: 'Bearer ${env:LINEAR_TOKEN}' } },
        },
      }),
    },
    {
      file: path.join(c.project, '.cursor/mcp.json'),
      scope: 'project',
      text: `{
  // Project tools
  "mcpServers": {
    "docs": { "command": "node", "args": ["\${workspaceFolder}/tools/docs.js", "--home", "\${userHome}"] },
  },
}
`,
    },
  ],
  vscode: (c) => [
    {
      file: path.join(c.dirs.appSupport, 'Code/User/mcp.json'),
      scope: 'user',
      text: `{
  // Inputs are prompted by VS Code the first time a server starts
  "inputs": [
    { "type": "promptString", "id": "perplexity-key", "description": "Perplexity API Key", "password": true },
  ],
  "servers": {
    "perplexity": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "server-perplexity-ask"],
      "env": { "PERPLEXITY_API_KEY": "\${input:perplexity-key}" },
    },
    "fetch": { "type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"] },
  },
}
`,
    },
    {
      file: path.join(c.project, '.vscode/mcp.json'),
      scope: 'project',
      text: `{
  "servers": {
    // Remote server with a token from the environment
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/",
      "headers": { "Authorization": "Bearer \${env:GITHUB_TOKEN}" },
    },
    "sandboxed": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "\${workspaceFolder}"],
      "sandboxEnabled": true,
      "sandbox": { "filesystem": { "allowWrite": ["\${workspaceFolder}"] } },
    },
  },
}
`,
    },
  ],
  windsurf: (c) => [
    {
      file: path.join(c.home, '.codeium/windsurf/mcp_config.json'),
      scope: 'user',
      text: json({
        mcpServers: {
          figma: { serverUrl: 'https://mcp.figma.com/mcp', headers: { 'X-Figma-Token': '${env:FIGMA_TOKEN}' } },
          files: { command: c.stdio.command, args: c.stdio.args, disabledTools: ['delete'] },
        },
      }),
    },
  ],
  codex: (c) => [
    {
      file: path.join(c.home, '.codex/config.toml'),
      scope: 'user',
      text: `# Codex configuration
model = "gpt-5-codex"

[mcp_servers.files]
command = ${q(c.stdio.command)}
args = ${q(c.stdio.args)}
startup_timeout_sec = 20
tool_timeout_sec = 45

[mcp_servers.docs]
url = "https://developers.openai.com/mcp"
bearer_token_env_var = "DOCS_TOKEN"
http_headers = { "X-Client" = "mcpwire-test" }
env_http_headers = { "X-Org" = "DOCS_ORG" }
enabled_tools = ["search"]

[mcp_servers.figma]
command = "npx"
args = ["-y", "figma-developer-mcp", "--stdio"]
env_vars = ["FIGMA_API_KEY"]
env = { "LOG" = "\${not-expanded}" }
`,
    },
    {
      file: path.join(c.project, '.codex/config.toml'),
      scope: 'project',
      text: `# project servers (a trusted project)
[mcp_servers.project-tool]
command = "python3"
args = ["-m", "project_tool"]
enabled = false
`,
    },
  ],
  gemini: (c) => [
    {
      file: path.join(c.home, '.gemini/settings.json'),
      scope: 'user',
      text: `{
  "theme": "GitHub",
  // Streamable HTTP uses httpUrl; url means SSE
  "mcpServers": {
    "stream": { "httpUrl": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer $API_TOKEN" }, "timeout": 5000 },
    "events": { "url": "https://events.example.com/sse" },
    "gcp": { "httpUrl": "https://gcp.example.com/mcp", "authProviderType": "google_credentials" }
  }
}
`,
    },
    {
      file: path.join(c.project, '.gemini/settings.json'),
      scope: 'project',
      text: json({
        mcpServers: {
          pyserver: {
            command: 'python',
            args: ['-m', 'my_server'],
            cwd: './mcp',
            env: { DATABASE_URL: '$DB_CONNECTION_STRING' },
            trust: true,
            includeTools: ['query'],
          },
        },
      }),
    },
  ],
  goose: (c) => [
    {
      file: userConfigFile(c, 'Block/goose/config/config.yaml', 'goose/config.yaml'),
      scope: 'user',
      text: `# Goose configuration
GOOSE_PROVIDER: anthropic
GOOSE_MODEL: claude-sonnet-4
extensions:
  developer:
    bundled: true
    enabled: true
    name: developer
    timeout: 300
    type: builtin
  github:
    cmd: npx
    args: [-y, "@modelcontextprotocol/server-github"]
    enabled: true
    envs: { GITHUB_API_URL: "https://api.github.com" }
    env_keys: [GITHUB_PERSONAL_ACCESS_TOKEN]
    name: GitHub
    timeout: 300
    type: stdio
  remote:
    type: streamable_http
    uri: https://mcp.example.org/mcp
    headers: { X-Team: platform }
    enabled: false
    timeout: 60
`,
    },
  ],
  zed: (c) => [
    {
      file: userConfigFile(c, 'Zed/settings.json', 'zed/settings.json'),
      scope: 'user',
      text: `// Zed settings
{
  "theme": "One Dark",
  "context_servers": {
    "files": { "source": "custom", "command": ${q(c.stdio.command)}, "args": ${q(c.stdio.args)}, "env": {} },
    "remote": { "url": "https://mcp.example.net/mcp", "headers": { "Authorization": "Bearer \${ZED_TOKEN}" } },
    "mcp-server-github": { "source": "extension", "enabled": true, "settings": { "github_personal_access_token": "ghp_fixture" } },
  },
}
`,
    },
    {
      file: path.join(c.project, '.zed/settings.json'),
      scope: 'project',
      text: json({ context_servers: { legacy: { command: { path: 'node', args: ['server.js'], env: { A: '1' } } } } }),
    },
  ],
  opencode: (c) => [
    {
      file: path.join(c.dirs.config, 'opencode/opencode.json'),
      scope: 'user',
      text: `{
  "$schema": "https://opencode.ai/config.json",
  "mcp": {
    // a local server: the command is an array
    "files": {
      "type": "local",
      "command": ${q([c.stdio.command, ...c.stdio.args])},
      "enabled": true,
      "environment": { "MY_ENV_VAR": "{env:MY_VALUE}" }
    },
    "context7": {
      "type": "remote",
      "url": "https://mcp.context7.com/mcp",
      "headers": { "CONTEXT7_API_KEY": "{env:CONTEXT7_API_KEY}" },
      "oauth": false
    },
    "from-file": { "type": "remote", "url": "https://x.example/mcp", "headers": { "Authorization": "Bearer {file:~/.secrets/x}" } }
  }
}
`,
    },
    {
      file: path.join(c.project, 'opencode.jsonc'),
      scope: 'project',
      text: `{
  "mcp": {
    "sentry": { "type": "remote", "url": "https://mcp.sentry.dev/mcp", "oauth": { "clientId": "abc", "scope": "read write" } }, // OAuth
  },
}
`,
    },
  ],
  continue: (c) => [
    {
      file: path.join(c.home, '.continue/config.yaml'),
      scope: 'user',
      text: `name: My Config
version: 0.0.1
schema: v1
# MCP servers are a list
mcpServers:
  - name: SQLite
    command: npx
    args: ["-y", "mcp-sqlite", "/path/to/db.sqlite"]
  - name: Remote
    type: streamable-http
    url: https://mcp.example.com/mcp
    requestOptions:
      headers:
        Authorization: Bearer \${{ secrets.REMOTE_KEY }}
  - name: Asks
    command: node
    args: ["server.js", "\${{ inputs.workspace }}"]
`,
    },
    {
      file: path.join(c.project, '.continue/mcpServers/playwright.yaml'),
      scope: 'project',
      text: `name: Playwright mcpServer
version: 0.0.1
schema: v1
mcpServers:
  - name: Browser search
    command: npx
    args: ["@playwright/mcp@latest"]
`,
    },
    {
      file: path.join(c.project, '.continue/mcpServers/from-claude.json'),
      scope: 'project',
      text: json({ mcpServers: { 'json-one': { command: 'uvx', args: ['mcp-server-time'] } } }),
    },
  ],
  cline: (c) => [
    {
      file: path.join(
        c.dirs.appSupport,
        'Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
      ),
      scope: 'user',
      text: json({
        mcpServers: {
          weather: {
            command: 'node',
            args: ['/path/weather/build/index.js'],
            env: { OPENWEATHER_API_KEY: 'fixture-key-1234' },
            alwaysAllow: ['get_forecast'],
            disabled: false,
            timeout: 30,
          },
          'legacy-sse': { url: 'https://sse.example.com/sse', disabled: true },
        },
      }),
    },
  ],
  'roo-code': (c) => [
    {
      file: path.join(
        c.dirs.appSupport,
        'Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json',
      ),
      scope: 'user',
      text: json({
        mcpServers: {
          puppeteer: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-puppeteer'],
            alwaysAllow: [],
            disabled: false,
          },
        },
      }),
    },
    {
      file: path.join(c.project, '.roo/mcp.json'),
      scope: 'project',
      text: json({
        mcpServers: {
          remote: {
            type: 'streamable-http',
            url: 'https://roo.example.com/mcp',
            headers: { 'X-API-Key': '${env:ROO_KEY}' },
            disabledTools: ['dangerous'],
          },
          scripted: { command: 'node', args: ['${env:SCRIPT_DIR}/server.js'], timeout: 60 },
        },
      }),
    },
  ],
};

/**
 * The hosts whose MCP servers mcpwire can find: per host its id, display name, and the files it
 * keeps servers in, per OS (linux, darwin, win32) and scope (user, project), with each file's
 * format and where in the document its servers sit. Pure: every path comes from the options
 * (home, working directory, platform, environment), so nothing else on the machine is consulted.
 */
import path from 'node:path';

/** The hosts mcpwire reads, by id. */
export type HostId =
  | 'claude-desktop'
  | 'claude-code'
  | 'cursor'
  | 'vscode'
  | 'windsurf'
  | 'codex'
  | 'gemini'
  | 'goose'
  | 'zed'
  | 'opencode'
  | 'continue'
  | 'cline'
  | 'roo-code';

/** A host's file syntax. `jsonc`: comments and trailing commas allowed (the host writes them itself). */
export type HostFormat = 'json' | 'jsonc' | 'toml' | 'yaml';

/**
 * `user`: applies to every project of the user. `project`: applies to one project, whether the
 * file lives in it (`.mcp.json`) or in the user's home (Claude Code's per-project "local" servers
 * in `~/.claude.json`).
 */
export type HostScope = 'user' | 'project';

/** A host: its id (as used in `--server HOST:NAME`, `--from HOST`, `--to HOST`) and its name for people. */
export interface HostInfo {
  id: HostId;
  displayName: string;
}

/** Every host, in the order discovery lists them. */
export const HOSTS: readonly HostInfo[] = [
  { id: 'claude-desktop', displayName: 'Claude Desktop' },
  { id: 'claude-code', displayName: 'Claude Code' },
  { id: 'cursor', displayName: 'Cursor' },
  { id: 'vscode', displayName: 'VS Code' },
  { id: 'windsurf', displayName: 'Windsurf' },
  { id: 'codex', displayName: 'Codex' },
  { id: 'gemini', displayName: 'Gemini CLI' },
  { id: 'goose', displayName: 'Goose' },
  { id: 'zed', displayName: 'Zed' },
  { id: 'opencode', displayName: 'OpenCode' },
  { id: 'continue', displayName: 'Continue' },
  { id: 'cline', displayName: 'Cline' },
  { id: 'roo-code', displayName: 'Roo Code' },
];

/** Every host id, in {@link HOSTS} order. */
export const HOST_IDS: readonly HostId[] = HOSTS.map((host) => host.id);

/** True when `value` is a {@link HostId}. */
export function isHostId(value: unknown): value is HostId {
  return typeof value === 'string' && (HOST_IDS as readonly string[]).includes(value);
}

/** The {@link HostInfo} of `id`. */
export function hostInfo(id: HostId): HostInfo {
  return HOSTS.find((host) => host.id === id)!;
}

/** Where to look: given explicitly, so that {@link hostFiles} reads nothing of the machine. */
export interface HostLocationOptions {
  /** Home directory (`~`). */
  homeDir: string;
  /** Project directory for project-scope files. */
  cwd: string;
  /** Platform whose locations apply (default `process.platform`). */
  platform?: NodeJS.Platform;
  /**
   * Variables that move files: `XDG_CONFIG_HOME` (linux), `APPDATA` (win32, default
   * `<home>/AppData/Roaming`), `CODEX_HOME`, `CLAUDE_CONFIG_DIR`, `OPENCODE_CONFIG`. Default none
   * (each host's default location).
   */
  env?: Record<string, string | undefined>;
}

/** One place a host keeps servers. */
export interface HostFile {
  host: HostId;
  /** Absolute path of the file (of the directory when {@link HostFile.directory} is set). */
  file: string;
  scope: HostScope;
  format: HostFormat;
  /**
   * The key path of the servers in the document: `['mcpServers']`, `['mcp_servers']` (Codex
   * tables), `['projects', '/abs/project', 'mcpServers']` (Claude Code's per-project servers).
   */
  at: readonly string[];
  /** `map`: servers by name (`{ name: entry }`); `list`: entries carrying a `name` (Continue). */
  container: 'map' | 'list';
  /**
   * Set when `file` is a directory in which every file with one of these extensions holds servers
   * (Continue's `.continue/mcpServers/*.yaml`; a new server is a new file there).
   */
  directory?: readonly string[];
}

/**
 * The files `host` keeps its servers in under `options`, lowest precedence first (user before
 * project; within a scope the host's own order), whether or not they exist. Pure.
 */
export function hostFiles(host: HostId, options: HostLocationOptions): HostFile[] {
  const home = options.homeDir;
  const cwd = path.resolve(options.cwd);
  const platform = options.platform ?? process.platform;
  const env = options.env ?? {};
  const dirs = platformDirs(home, platform, env);
  // Where a VS Code extension (Cline, Roo Code) keeps its settings.
  const globalStorage = (extension: string, name: string) =>
    path.join(dirs.appData, 'Code', 'User', 'globalStorage', extension, 'settings', name);
  const file = (
    scope: HostScope,
    format: HostFormat,
    where: string,
    at: readonly string[] = ['mcpServers'],
    container: 'map' | 'list' = 'map',
  ): HostFile => ({ host, file: where, scope, format, at, container });
  switch (host) {
    case 'claude-desktop':
      return [file('user', 'json', path.join(dirs.appData, 'Claude', 'claude_desktop_config.json'))];
    case 'claude-code': {
      // `CLAUDE_CONFIG_DIR` moves both ~/.claude.json and ~/.claude/.
      const configDir = absolute(env.CLAUDE_CONFIG_DIR);
      const state = configDir ? path.join(configDir, '.claude.json') : path.join(home, '.claude.json');
      const settings = configDir ?? path.join(home, '.claude');
      // Claude Code's order, lowest first: user, project (.mcp.json), local (this project in ~/.claude.json).
      return [
        file('user', 'json', path.join(settings, 'settings.json')),
        file('user', 'json', state),
        file('project', 'json', path.join(cwd, '.mcp.json')),
        file('project', 'json', path.join(cwd, '.claude', 'settings.json')),
        file('project', 'json', path.join(cwd, '.claude', 'settings.local.json')),
        file('project', 'json', state, ['projects', cwd, 'mcpServers']),
      ];
    }
    case 'cursor':
      return [
        file('user', 'json', path.join(home, '.cursor', 'mcp.json')),
        file('project', 'json', path.join(cwd, '.cursor', 'mcp.json')),
      ];
    case 'vscode':
      return [
        file('user', 'jsonc', path.join(dirs.appData, 'Code', 'User', 'mcp.json'), ['servers']),
        file('user', 'jsonc', path.join(dirs.appData, 'Code - Insiders', 'User', 'mcp.json'), ['servers']),
        file('project', 'jsonc', path.join(cwd, '.vscode', 'mcp.json'), ['servers']),
      ];
    case 'windsurf':
      return [file('user', 'json', path.join(home, '.codeium', 'windsurf', 'mcp_config.json'))];
    case 'codex': {
      const codexHome = absolute(env.CODEX_HOME) ?? path.join(home, '.codex');
      return [
        file('user', 'toml', path.join(codexHome, 'config.toml'), ['mcp_servers']),
        // Codex reads a project's .codex/config.toml only once the project is trusted.
        file('project', 'toml', path.join(cwd, '.codex', 'config.toml'), ['mcp_servers']),
      ];
    }
    case 'gemini':
      return [
        file('user', 'jsonc', path.join(home, '.gemini', 'settings.json')),
        file('project', 'jsonc', path.join(cwd, '.gemini', 'settings.json')),
      ];
    case 'goose': {
      const dir =
        platform === 'win32' ? path.join(dirs.appData, 'Block', 'goose', 'config') : path.join(dirs.xdgConfig, 'goose');
      return [file('user', 'yaml', path.join(dir, 'config.yaml'), ['extensions'])];
    }
    case 'zed': {
      const dir = platform === 'win32' ? path.join(dirs.appData, 'Zed') : path.join(dirs.xdgConfig, 'zed');
      return [
        file('user', 'jsonc', path.join(dir, 'settings.json'), ['context_servers']),
        file('project', 'jsonc', path.join(cwd, '.zed', 'settings.json'), ['context_servers']),
      ];
    }
    case 'opencode': {
      // OpenCode uses the XDG layout on every OS (xdg-basedir), `~/.config/opencode` by default.
      const dir = path.join(absolute(env.XDG_CONFIG_HOME) ?? path.join(home, '.config'), 'opencode');
      const custom = absolute(env.OPENCODE_CONFIG);
      return [
        file('user', 'jsonc', path.join(dir, 'opencode.json'), ['mcp']),
        file('user', 'jsonc', path.join(dir, 'opencode.jsonc'), ['mcp']),
        ...(custom ? [file('user', 'jsonc', custom, ['mcp'])] : []),
        file('project', 'jsonc', path.join(cwd, 'opencode.json'), ['mcp']),
        file('project', 'jsonc', path.join(cwd, 'opencode.jsonc'), ['mcp']),
      ];
    }
    case 'continue':
      return [
        file('user', 'yaml', path.join(home, '.continue', 'config.yaml'), ['mcpServers'], 'list'),
        {
          ...file('project', 'yaml', path.join(cwd, '.continue', 'mcpServers'), ['mcpServers'], 'list'),
          directory: ['.yaml', '.yml', '.json'],
        },
      ];
    case 'cline':
      return [file('user', 'json', globalStorage('saoudrizwan.claude-dev', 'cline_mcp_settings.json'))];
    case 'roo-code':
      return [
        file('user', 'json', globalStorage('rooveterinaryinc.roo-cline', 'mcp_settings.json')),
        file('project', 'json', path.join(cwd, '.roo', 'mcp.json')),
      ];
  }
}

/**
 * The per-user application directories of `platform`: `appData` is where desktop (Electron) apps
 * keep settings (`~/Library/Application Support`, `%APPDATA%`, `$XDG_CONFIG_HOME`), `xdgConfig`
 * where XDG-style tools do (`$XDG_CONFIG_HOME` on linux, `~/.config` on macOS).
 */
function platformDirs(
  home: string,
  platform: NodeJS.Platform,
  env: Record<string, string | undefined>,
): { appData: string; xdgConfig: string } {
  const xdg =
    (platform !== 'win32' && platform !== 'darwin' ? absolute(env.XDG_CONFIG_HOME) : undefined) ??
    path.join(home, '.config');
  if (platform === 'darwin') return { appData: path.join(home, 'Library', 'Application Support'), xdgConfig: xdg };
  if (platform === 'win32')
    return { appData: absolute(env.APPDATA) ?? path.join(home, 'AppData', 'Roaming'), xdgConfig: xdg };
  return { appData: xdg, xdgConfig: xdg };
}

/** `value` when it is an absolute path (the XDG rule: a relative value is ignored), else undefined. */
function absolute(value: string | undefined): string | undefined {
  return value && path.isAbsolute(value) ? value : undefined;
}

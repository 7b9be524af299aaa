/**
 * Read-only import of the MCP servers other hosts already have configured: Claude Desktop,
 * Claude Code (`~/.claude.json`, including its per-project entries), Cursor and VS Code. Every
 * path is derived from the `homeDir`/`cwd`/`platform` options, so nothing outside them is read;
 * nothing is ever written.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, errorMessage, McpError } from '../../protocol/errors.js';
import { parseConfigText } from './text-formats.js';

/** The hosts {@link importFrom} knows. */
export type ImportHost = 'claude-desktop' | 'claude-code' | 'cursor' | 'vscode';

/** Every host {@link importFrom} knows, in a fixed order. */
export const IMPORT_HOSTS: readonly ImportHost[] = ['claude-desktop', 'claude-code', 'cursor', 'vscode'];

/** Where to look. Defaults are the real home, working directory and platform of this process. */
export interface ImportOptions {
  /** Home directory (default `os.homedir()`). */
  homeDir?: string;
  /** Project directory for per-project files (default `process.cwd()`). */
  cwd?: string;
  /** Platform whose file locations apply (default `process.platform`). */
  platform?: NodeJS.Platform;
  /** Windows `%APPDATA%` (default `<homeDir>/AppData/Roaming`); used only when `platform` is `win32`. */
  appData?: string;
}

/** One server entry found in another host's file, as that file wrote it (no expansion, no checks). */
export interface ImportedServer {
  name: string;
  /** The raw entry object; feed it to the loader as an inline or explicit config. */
  entry: Record<string, unknown>;
  /** The file it came from. */
  file: string;
  /** Where in the file, e.g. `mcpServers` or `projects["/abs/p"].mcpServers`. */
  at: string;
}

/** What {@link importFrom} found. */
export interface ImportResult {
  host: ImportHost;
  /** In precedence order, lowest first: a later entry with the same name shadows an earlier one. */
  servers: ImportedServer[];
  /** The files that existed and were read. */
  files: string[];
  /** Unreadable or malformed files (`CONFIG_INVALID`, naming the file and line); the others still load. */
  errors: McpError[];
  /** Things ignored on purpose, e.g. VS Code `inputs`. */
  warnings: string[];
}

/** One place a host keeps servers: the file and how to pick the servers out of its document. */
interface HostSource {
  file: string;
  pick: (document: Record<string, unknown>) => Array<{ at: string; entries: unknown }>;
}

/**
 * The files `host` keeps its servers in, lowest precedence first (user-wide before per-project),
 * whether or not they exist. Pure: derived from the options only.
 */
export function hostConfigFiles(host: ImportHost, options: ImportOptions = {}): string[] {
  return sourcesOf(host, options).map((source) => source.file);
}

/**
 * Reads `host`'s config files read-only and returns their server entries with their source file.
 * Missing files are skipped silently; a malformed file becomes an entry in `errors` and the other
 * files still load. Never rejects for a file's content. VS Code `inputs` are not supported (their
 * prompts need a UI): a warning names the file.
 */
export async function importFrom(host: ImportHost, options: ImportOptions = {}): Promise<ImportResult> {
  const result: ImportResult = { host, servers: [], files: [], errors: [], warnings: [] };
  for (const source of sourcesOf(host, options)) {
    let text: string;
    try {
      text = await readFile(source.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      result.errors.push(new ConfigError(`cannot read: ${errorMessage(error)}`, { cause: error, file: source.file }));
      continue;
    }
    result.files.push(source.file);
    let document: unknown;
    try {
      document = await parseConfigText(source.file, text);
    } catch (error) {
      result.errors.push(error instanceof McpError ? error : new ConfigError(String(error), { file: source.file }));
      continue;
    }
    if (!isObject(document)) {
      result.errors.push(new ConfigError('the top level must be an object', { file: source.file }));
      continue;
    }
    if (host === 'vscode' && document.inputs !== undefined) {
      result.warnings.push(`${source.file}: VS Code "inputs" are not supported (ignored); use \${env:VAR} instead`);
    }
    for (const { at, entries } of source.pick(document)) {
      if (entries === undefined) continue;
      if (!isObject(entries)) {
        result.errors.push(new ConfigError(`${at} must be an object of servers by name`, { file: source.file }));
        continue;
      }
      for (const [name, entry] of Object.entries(entries)) {
        if (!isObject(entry)) {
          result.errors.push(new ConfigError('must be an object', { file: source.file, server: name }));
          continue;
        }
        result.servers.push({ name, entry, file: source.file, at });
      }
    }
  }
  return result;
}

function sourcesOf(host: ImportHost, options: ImportOptions): HostSource[] {
  const home = options.homeDir ?? os.homedir();
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const platform = options.platform ?? process.platform;
  const servers = (document: Record<string, unknown>) => [{ at: 'mcpServers', entries: document.mcpServers }];
  switch (host) {
    case 'claude-desktop': {
      const dir =
        platform === 'darwin'
          ? path.join(home, 'Library', 'Application Support', 'Claude')
          : platform === 'win32'
            ? path.join(options.appData ?? path.join(home, 'AppData', 'Roaming'), 'Claude')
            : path.join(home, '.config', 'Claude');
      return [{ file: path.join(dir, 'claude_desktop_config.json'), pick: servers }];
    }
    case 'claude-code':
      // User-wide servers, then the "local" ones Claude Code keeps per project (absolute path key).
      return [
        {
          file: path.join(home, '.claude.json'),
          pick: (document) => {
            const project = isObject(document.projects) ? document.projects[cwd] : undefined;
            return [
              { at: 'mcpServers', entries: document.mcpServers },
              {
                at: `projects[${JSON.stringify(cwd)}].mcpServers`,
                entries: isObject(project) ? project.mcpServers : undefined,
              },
            ];
          },
        },
      ];
    case 'cursor':
      return [
        { file: path.join(home, '.cursor', 'mcp.json'), pick: servers },
        { file: path.join(cwd, '.cursor', 'mcp.json'), pick: servers },
      ];
    case 'vscode':
      // VS Code's workspace mcp.json uses `servers`; accept `mcpServers` too, as VS Code does.
      return [
        {
          file: path.join(cwd, '.vscode', 'mcp.json'),
          pick: (document) => [
            {
              at: document.servers !== undefined ? 'servers' : 'mcpServers',
              entries: document.servers ?? document.mcpServers,
            },
          ],
        },
      ];
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

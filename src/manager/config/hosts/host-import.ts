/**
 * Read-only import of the MCP servers other hosts already have configured (every host of
 * {@link HOSTS}), as entries in mcpwire's shape under their own names: what `config import --from
 * HOST` prints and what the config layer's `import` option loads as its lowest layer. Built on
 * {@link discoverHosts}; nothing is ever written.
 */
import os from 'node:os';
import path from 'node:path';
import type { McpError } from '../../../protocol/errors.js';
import { discoverHosts } from './discover.js';
import { HOST_IDS, hostFiles, type HostId } from './host-table.js';

/** The hosts {@link importFrom} knows (every host id). */
export type ImportHost = HostId;

/** Every host {@link importFrom} knows, in a fixed order. */
export const IMPORT_HOSTS: readonly ImportHost[] = HOST_IDS;

/** Where to look. Defaults are the real home, working directory and platform of this process. */
export interface ImportOptions {
  /** Home directory (default `os.homedir()`). */
  homeDir?: string;
  /** Project directory for per-project files (default `process.cwd()`). */
  cwd?: string;
  /** Platform whose file locations apply (default `process.platform`). */
  platform?: NodeJS.Platform;
  /**
   * Windows `%APPDATA%` (default `env.APPDATA`, else `<homeDir>/AppData/Roaming`); used only when
   * `platform` is `win32`.
   */
  appData?: string;
  /**
   * Variables that move host files (`XDG_CONFIG_HOME`, `CODEX_HOME`, …) and that entries are
   * checked against (default none).
   */
  env?: Record<string, string | undefined>;
}

/** One server entry found in another host's file, in mcpwire's entry shape (variables as `${VAR}`, not expanded). */
export interface ImportedServer {
  name: string;
  /** The entry; feed it to the loader as an inline or explicit config. */
  entry: Record<string, unknown>;
  /** The file it came from. */
  file: string;
  /** Where in the file, e.g. `mcpServers["fs"]` or `projects["/abs/p"].mcpServers["fs"]`. */
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
  /** Entries left out because mcpwire cannot run them as the host would, each with its reason and file. */
  warnings: string[];
}

/**
 * The files `host` keeps its servers in, lowest precedence first (user-wide before per-project),
 * whether or not they exist, each once. Pure: derived from the options only.
 */
export function hostConfigFiles(host: ImportHost, options: ImportOptions = {}): string[] {
  return [...new Set(hostFiles(host, locations(options)).map((place) => place.file))];
}

/**
 * Reads `host`'s config files read-only and returns their server entries with their source file.
 * Missing files are skipped silently; a malformed file becomes an entry in `errors` and the other
 * files still load. Never rejects for a file's content. An entry mcpwire cannot honour (a VS Code
 * `${input:…}`, a Goose built-in, a sandboxed server, …) is left out with a warning naming file,
 * server and reason.
 */
export async function importFrom(host: ImportHost, options: ImportOptions = {}): Promise<ImportResult> {
  const found = await discoverHosts({ ...locations(options), hosts: [host] });
  const result: ImportResult = {
    host,
    servers: [],
    files: found.files.filter((f) => f.status === 'loaded').map((f) => f.file),
    errors: found.errors,
    warnings: [],
  };
  for (const server of found.entries) {
    if (server.problems.length) {
      result.warnings.push(`${server.file}: server "${server.name}" not imported: ${server.problems.join('; ')}`);
      continue;
    }
    result.servers.push({ name: server.name, entry: server.entry, file: server.file, at: server.at });
  }
  return result;
}

function locations(options: ImportOptions): {
  homeDir: string;
  cwd: string;
  platform?: NodeJS.Platform;
  env: Record<string, string | undefined>;
} {
  const env = { ...(options.env ?? {}), ...(options.appData ? { APPDATA: options.appData } : {}) };
  return {
    homeDir: options.homeDir ?? os.homedir(),
    cwd: path.resolve(options.cwd ?? process.cwd()),
    ...(options.platform ? { platform: options.platform } : {}),
    env,
  };
}

/**
 * The layered configuration: the user file (`~/.mcpwire/config.json|yaml|yml`), the project
 * files (`.mcp.json`, `mcp.yaml`, `.mcp.yaml` in the working directory), explicit paths and
 * in-memory objects, each with servers under `mcpServers` (Claude Code / Desktop, Cursor),
 * `mcp_servers` (workflow YAML files) or `servers` (VS Code). Later layers win by server name, whole entry (project
 * over user, explicit over both, inline over all); every effective server records its provenance. A broken file or
 * entry is reported with file (and line) and skipped: the rest loads. On reload a file that broke keeps its last good
 * contents ({@link ConfigLoader}). Servers imported read-only from other hosts (`import`) form the lowest layer.
 * Servers from project files (and from host files inside the project) are marked untrusted: they need the user's
 * approval before they run.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, errorMessage, McpError } from '../../protocol/errors.js';
import { checkOptions, optionKeys } from '../../protocol/option-keys.js';
import type { ManagedServer, Provenance } from '../servers/managed-server.js';
import { parseEnvFile } from './env-file.js';
import { hostLayerFiles, readHostLayer, unknownHost, type HostLayerOptions } from './hosts/host-layer.js';
import type { HostId } from './hosts/host-table.js';
import { parsePermissions, type PermissionBlock } from '../permissions/permission-block.js';
import { toManagedServer } from './server-entry.js';
import { parseConfigText } from './text-formats.js';
import { expandServer, variableOrigins } from './variables.js';

export type { PermissionBlock } from '../permissions/permission-block.js';

/** Where to look, and with what variables. */
export interface ConfigOptions {
  /** Project directory (default `process.cwd()`). */
  cwd?: string;
  /** Home directory for the user file (default `os.homedir()`). */
  homeDir?: string;
  /** The user file itself, instead of `~/.mcpwire/config.{json,yaml,yml}`; `false` for none. */
  userConfigPath?: string | false;
  /** `false` skips the project files. */
  project?: boolean;
  /** More files, above user and project. */
  configPaths?: string[];
  /** In-memory configs (`{ mcpServers: {…} }`, `{ mcp_servers: {…} }` or `{ servers: {…} }`), above everything. */
  inline?: object[];
  /** Variables for `${VAR}` (default `process.env`). */
  env?: Record<string, string | undefined>;
  /**
   * Other hosts whose servers are read (read-only) as the lowest layer, scope `import`, in this
   * order (see `importFrom`). Default none.
   */
  import?: HostId[];
  /**
   * Other hosts whose usable servers are read (read-only) as the lowest layer under namespaced
   * names (`cursor:fs`), scope `import`, with the host in `provenance.host`: `true` for every host,
   * or a list of host ids. Servers mcpwire cannot run as the host would, or cannot start as they
   * stand (an unset variable), are left out with a warning naming file, server and reason; a host
   * file that does not parse is a warning too. Default none. See `discoverHosts`.
   */
  hosts?: boolean | HostId[];
  /** Platform whose host file locations apply to `import` and `hosts` (default `process.platform`). */
  platform?: NodeJS.Platform;
}

const CONFIG_OPTION_KEYS = optionKeys<ConfigOptions>(
  'config options',
  {
    cwd: true,
    homeDir: true,
    userConfigPath: true,
    project: true,
    configPaths: true,
    inline: true,
    env: true,
    import: true,
    hosts: true,
    platform: true,
  },
  {
    configPath: 'configPaths',
    files: 'configPaths',
    paths: 'configPaths',
    userConfig: 'userConfigPath',
    home: 'homeDir',
    dir: 'cwd',
    projectDir: 'cwd',
  },
);

/**
 * Throws `INVALID_ARGUMENT` naming the first key of `options` that {@link ConfigOptions} does not
 * have, or an unknown host id in `import` or `hosts`.
 */
export function checkConfigOptions(options: ConfigOptions): void {
  checkOptions(options, CONFIG_OPTION_KEYS);
  const bad =
    unknownHost('config option "hosts"', options.hosts) ?? unknownHost('config option "import"', options.import);
  if (bad) throw new McpError('INVALID_ARGUMENT', bad);
}

/** Where an effective server came from, and the entries of lower layers it shadowed. */
export interface ConfigProvenance extends Provenance {
  /** The same-named entries this one replaced (whole entry, no deep merge), lowest layer first. */
  overrides?: Provenance[];
}

/** One effective server of a {@link LoadedConfig}. */
export interface LoadedServer extends ManagedServer {
  provenance: ConfigProvenance;
  /**
   * Where values that were not written literally came from: field path (`env.TOKEN`, `url`) →
   * the text as written (`${TOKEN}`, `Bearer ${env:TOKEN}`) or `envFile <path>`. For display
   * (`mcpwire config show`); not part of the definition's identity.
   */
  origins?: Record<string, string>;
  /**
   * false for servers defined in a project file (or a host file inside the project): the
   * repository chose them, so they need the user's approval (see `ApprovalStore`) before they
   * run. User, explicit, inline and user-level imported servers are trusted.
   */
  trusted: boolean;
}

/** The effective configuration and everything noticed while building it. */
export interface LoadedConfig {
  servers: LoadedServer[];
  /** Files that could not be read or parsed, and entries that were invalid: each names its file. */
  errors: McpError[];
  warnings: string[];
  permissions: PermissionBlock[];
  /** Every file considered, whether it existed and loaded. */
  files: Array<{ file: string; scope: Provenance['scope']; status: 'loaded' | 'missing' | 'error' | 'last-good' }>;
}

interface Source {
  file: string;
  scope: Provenance['scope'];
  /** Inline objects need no reading. */
  value?: unknown;
  optional: boolean;
  /** Already listed in `files` (imported host files are read by `readHostLayer`). */
  listed?: boolean;
  /** For host files: each server's host provenance, by its name here. */
  hosts?: Map<string, NonNullable<Provenance['host']>>;
}

/** Loads the configuration once. Never rejects for a bad file: see `errors`. */
export function loadConfig(options: ConfigOptions = {}): Promise<LoadedConfig> {
  return new ConfigLoader(options).load();
}

/**
 * A loader that remembers each file's last good contents: a reload that meets a broken file keeps
 * using what that file said before, and reports the error.
 */
export class ConfigLoader {
  private readonly options: ConfigOptions;
  private readonly lastGood = new Map<string, unknown>();

  /** Throws `INVALID_ARGUMENT` for an unknown key in `options`. */
  constructor(options: ConfigOptions = {}) {
    checkConfigOptions(options);
    this.options = options;
  }

  /** The files this loader reads (for a watcher), in layer order. */
  files(): string[] {
    return [
      ...hostLayerFiles(this.hostLayerOptions()),
      ...this.sources().flatMap((source) => (source.value === undefined ? [source.file] : [])),
    ];
  }

  async load(): Promise<LoadedConfig> {
    const env = this.options.env ?? process.env;
    const result: LoadedConfig = { servers: [], errors: [], warnings: [], permissions: [], files: [] };
    const merged = new Map<string, LoadedServer>();
    const cwd = path.resolve(this.options.cwd ?? process.cwd());
    for (const source of [...(await this.importSources(result)), ...this.sources()]) {
      const value = await this.read(source, result);
      if (value === undefined) continue;
      if (!value || typeof value !== 'object' || Array.isArray(value)) {
        result.errors.push(
          new ConfigError('the top level must be an object with "mcpServers", "mcp_servers" or "servers"', {
            file: source.file,
          }),
        );
        continue;
      }
      const document = value as Record<string, unknown>;
      const permissions = parsePermissions(document.permissions, source.file, source.scope);
      result.errors.push(...permissions.errors);
      if (permissions.block) result.permissions.push(permissions.block);
      const key = serversKeyOf(document, source, permissions.block !== undefined, result.errors);
      if (key === undefined) continue;
      const entries = document[key];
      if (!entries || typeof entries !== 'object' || Array.isArray(entries)) {
        result.errors.push(new ConfigError(`"${key}" must be an object of servers by name`, { file: source.file }));
        continue;
      }
      if (document.inputs !== undefined)
        result.warnings.push(`${source.file}: VS Code "inputs" are not supported (ignored); use \${env:VAR} instead`);
      for (const [name, raw] of Object.entries(entries as Record<string, unknown>)) {
        const host = source.hosts?.get(name);
        const provenance: Provenance = { file: source.file, scope: source.scope, ...(host ? { host } : {}) };
        try {
          const server = await this.build(name, raw, provenance, env, result.warnings);
          const shadowed = merged.get(name)?.provenance;
          const overrides = shadowed
            ? [...(shadowed.overrides ?? []), { file: shadowed.file, scope: shadowed.scope }]
            : undefined;
          merged.set(name, {
            ...server,
            provenance: overrides ? { ...provenance, overrides } : provenance,
            trusted: isTrusted(provenance, cwd),
          });
        } catch (error) {
          result.errors.push(
            error instanceof McpError ? error : new ConfigError(String(error), { file: source.file, server: name }),
          );
        }
      }
    }
    result.servers = [...merged.values()];
    return result;
  }

  private async build(
    name: string,
    raw: unknown,
    provenance: Provenance,
    env: Record<string, string | undefined>,
    warnings: string[],
  ): Promise<ManagedServer> {
    const secrets = new Set<string>();
    const fileOrigins: Record<string, string> = {};
    let entry = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
    if (entry && typeof entry.envFile === 'string') {
      const envFile = path.resolve(path.dirname(provenance.file), entry.envFile);
      const fileEnv = await readEnvFile(envFile, provenance, name);
      const written = (entry.env as Record<string, unknown> | undefined) ?? {};
      for (const [key, value] of Object.entries(fileEnv)) {
        secrets.add(value);
        if (!(key in written)) fileOrigins[`env.${key}`] = `envFile ${envFile}`;
      }
      entry = { ...entry, env: { ...fileEnv, ...(entry.env ?? {}) } };
    }
    const expanded = entry ? expandServer(entry, env, { file: provenance.file, server: name }, secrets) : raw;
    const server: ManagedServer & { origins?: Record<string, string> } = toManagedServer(
      name,
      expanded,
      provenance,
      warnings,
      secrets,
    );
    const origins = { ...fileOrigins, ...(entry ? variableOrigins(raw as Record<string, unknown>) : {}) };
    if (Object.keys(origins).length) server.origins = origins;
    return server;
  }

  private sources(): Source[] {
    const cwd = this.options.cwd ?? process.cwd();
    const home = this.options.homeDir ?? os.homedir();
    const out: Source[] = [];
    if (this.options.userConfigPath !== false) {
      if (this.options.userConfigPath)
        out.push({ file: path.resolve(this.options.userConfigPath), scope: 'user', optional: false });
      else
        for (const name of ['config.json', 'config.yaml', 'config.yml'])
          out.push({ file: path.join(home, '.mcpwire', name), scope: 'user', optional: true });
    }
    if (this.options.project !== false)
      for (const name of ['.mcp.json', 'mcp.yaml', '.mcp.yaml'])
        out.push({ file: path.join(cwd, name), scope: 'project', optional: true });
    for (const file of this.options.configPaths ?? [])
      out.push({ file: path.resolve(cwd, file), scope: 'explicit', optional: false });
    (this.options.inline ?? []).forEach((value, i) =>
      out.push({ file: `inline[${i}]`, scope: 'inline', value, optional: false }),
    );
    return out;
  }

  private hostLayerOptions(): HostLayerOptions {
    const cwd = path.resolve(this.options.cwd ?? process.cwd());
    return {
      homeDir: this.options.homeDir ?? os.homedir(),
      cwd,
      ...(this.options.platform ? { platform: this.options.platform } : {}),
      env: this.options.env ?? process.env,
      ...(this.options.import ? { import: this.options.import } : {}),
      ...(this.options.hosts !== undefined ? { hosts: this.options.hosts } : {}),
      ownFiles: this.sources().map((source) => source.file),
    };
  }

  /**
   * One source per host file, holding that file's entries (see `readHostLayer`). A file that fails
   * to read or parse keeps its last good entries, as the other files do.
   */
  private async importSources(result: LoadedConfig): Promise<Source[]> {
    const options = this.hostLayerOptions();
    if (!options.import?.length && !options.hosts) return [];
    const out: Source[] = [];
    for (const file of await readHostLayer(options, this.lastGood, result)) {
      result.files.push({ file: file.file, scope: 'import', status: file.status });
      if (file.value !== undefined)
        out.push({
          file: file.file,
          scope: 'import',
          value: file.value,
          optional: true,
          listed: true,
          hosts: file.hosts,
        });
    }
    return out;
  }

  private async read(source: Source, result: LoadedConfig): Promise<unknown> {
    if (source.value !== undefined) {
      if (!source.listed) result.files.push({ file: source.file, scope: source.scope, status: 'loaded' });
      return source.value;
    }
    let text: string;
    try {
      text = await readFile(source.file, 'utf8');
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      if (missing && source.optional) return undefined;
      result.files.push({ file: source.file, scope: source.scope, status: missing ? 'missing' : 'error' });
      result.errors.push(
        new ConfigError(missing ? 'no such file' : `cannot read: ${errorMessage(error)}`, {
          file: source.file,
          cause: error,
        }),
      );
      return this.lastGood.get(source.file);
    }
    try {
      const value = await parseConfigText(source.file, text);
      this.lastGood.set(source.file, value);
      result.files.push({ file: source.file, scope: source.scope, status: 'loaded' });
      return value;
    } catch (error) {
      result.errors.push(error as McpError);
      const previous = this.lastGood.get(source.file);
      result.files.push({
        file: source.file,
        scope: source.scope,
        status: previous === undefined ? 'error' : 'last-good',
      });
      return previous;
    }
  }
}

/** The keys a document may hold its servers under: Claude / Cursor, workflow YAML files, VS Code. */
const SERVERS_KEYS = ['mcpServers', 'mcp_servers', 'servers'] as const;
/** A key that is probably meant as one of {@link SERVERS_KEYS} (`mcp-servers`, `MCPServers`, `server`). */
const SERVERS_LOOKALIKE = /^(mcp)?servers?$/;

/**
 * The key `document` holds its servers under, or undefined when it holds none. Problems go to
 * `errors`, each naming the file and the key, so a file never yields no servers silently: two
 * servers keys (the first wins), a misspelt one, or (for an explicit file or an inline object,
 * which exist only to define servers) none at all.
 */
function serversKeyOf(
  document: Record<string, unknown>,
  source: Source,
  hasPermissions: boolean,
  errors: McpError[],
): (typeof SERVERS_KEYS)[number] | undefined {
  const present = SERVERS_KEYS.filter((key) => document[key] !== undefined);
  if (present.length > 1)
    errors.push(
      new ConfigError(
        `servers under both ${present.map((k) => `"${k}"`).join(' and ')}; only "${present[0]}" is read (keep one)`,
        { file: source.file },
      ),
    );
  if (present[0] !== undefined) return present[0];
  const lookalike = Object.keys(document).find((key) =>
    SERVERS_LOOKALIKE.test(key.toLowerCase().replace(/[-_\s]/g, '')),
  );
  if (lookalike !== undefined) {
    errors.push(
      new ConfigError(
        `unknown key "${lookalike}" (did you mean "mcpServers" or "mcp_servers"?); no servers were read from this file`,
        { file: source.file },
      ),
    );
  } else if ((source.scope === 'explicit' || source.scope === 'inline') && !hasPermissions) {
    const keys = Object.keys(document);
    errors.push(
      new ConfigError(
        `no servers: expected "mcpServers", "mcp_servers" or "servers"${keys.length ? ` (top-level keys: ${keys.join(', ')})` : ' (the file is empty)'}`,
        { file: source.file },
      ),
    );
  }
  return undefined;
}

/** Project files are untrusted, and so are other hosts' files that live inside the project. */
function isTrusted(provenance: Provenance, cwd: string): boolean {
  if (provenance.scope === 'project') return false;
  if (provenance.scope !== 'import') return true;
  const relative = path.relative(cwd, provenance.file);
  return relative.startsWith('..') || path.isAbsolute(relative);
}

/** Reads a server's envFile (see {@link parseEnvFile}); a missing file is an error naming the server. */
async function readEnvFile(file: string, provenance: Provenance, server: string): Promise<Record<string, string>> {
  try {
    return parseEnvFile(await readFile(file, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : errorMessage(error);
    throw new ConfigError(`envFile ${file}: ${reason}`, {
      cause: error,
      file: provenance.file,
      server,
      field: 'envFile',
    });
  }
}

/**
 * Discovery: every server the hosts of {@link HOSTS} have configured, read-only, each in
 * mcpwire's entry shape with its provenance (host, file, scope, where in the file) and, when
 * mcpwire cannot run it as the host would, the reasons. A file that is missing is skipped; one
 * that cannot be read or parsed is an error naming file, line and column, and every other file
 * still lists. Nothing is ever written.
 */
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, errorMessage, McpError } from '../../../protocol/errors.js';
import { toManagedServer } from '../server-entry.js';
import { expandServer } from '../variables.js';
import { isObject } from './entry-builder.js';
import { translateEntry } from './host-entries.js';
import { HOST_IDS, hostFiles, type HostFile, type HostId, type HostScope } from './host-table.js';
import { parseHostText } from './parse-host-file.js';

/** Where to look; defaults are this process's home, working directory, platform and environment. */
export interface DiscoverOptions {
  /** The hosts to read, in this order (default every host). */
  hosts?: readonly HostId[];
  homeDir?: string;
  cwd?: string;
  platform?: NodeJS.Platform;
  /** Variables that move host files (see `hostFiles`) and that entries are checked against. */
  env?: Record<string, string | undefined>;
}

/** One server a host has configured. */
export interface DiscoveredServer {
  /** `HOST:NAME`, the name `--server` and `importHosts` address it by. */
  id: string;
  host: HostId;
  /** Its name in the host's file. */
  name: string;
  file: string;
  scope: HostScope;
  /** Where in the file: `mcpServers["fs"]`, `projects["/p"].mcpServers["fs"]`, `mcp_servers["fs"]`, `mcpServers[2]`. */
  at: string;
  /** The entry in mcpwire's shape, variables as `${VAR}` (not expanded). */
  entry: Record<string, unknown>;
  /** Why mcpwire cannot run it as the host would (its fields or references); empty when it can. */
  problems: string[];
  /** Why it cannot start as it stands here (no command, an unset variable), once `problems` is empty. */
  invalid?: string;
  /** The variable it needs that is not set, when that is why it is `invalid`. */
  unset?: string;
  /** Host fields not taken and translations worth knowing. */
  notes: string[];
  /** Environment variables it refers to. */
  variables: string[];
  /** `enabled: false` (or the host's `disabled: true`). */
  disabled: boolean;
  /** Same-named entries of the same host it shadows (lower precedence), lowest first. */
  shadows?: Array<{ file: string; at: string }>;
}

/** One host file considered. */
export interface HostFileStatus {
  host: HostId;
  file: string;
  scope: HostScope;
  status: 'loaded' | 'missing' | 'error';
}

/** What {@link discoverHosts} found. */
export interface Discovery {
  /** The effective server of each name per host (a later file of the host shadows an earlier one), host by host. */
  servers: DiscoveredServer[];
  /** Every entry read, shadowed ones included, lowest precedence first within each host. */
  entries: DiscoveredServer[];
  files: HostFileStatus[];
  /** Files that could not be read or parsed (`CONFIG_INVALID`, naming file, line and column). */
  errors: ConfigError[];
}

/** Reads the hosts' files (see the file comment). Never rejects for a file's content. */
export async function discoverHosts(options: DiscoverOptions = {}): Promise<Discovery> {
  const homeDir = options.homeDir ?? os.homedir();
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;
  const result: Discovery = { servers: [], entries: [], files: [], errors: [] };
  for (const host of options.hosts ?? HOST_IDS) {
    const found: DiscoveredServer[] = [];
    for (const place of hostFiles(host, { homeDir, cwd, platform: options.platform, env })) {
      for (const { file, format, json } of await filesOf(place)) {
        const document = await readDocument(file, format, place, result);
        if (document === undefined) continue;
        const context = { homeDir, cwd, env, file, json };
        found.push(...entriesOf(document, place, context));
      }
    }
    result.entries.push(...found);
    const effective = new Map<string, DiscoveredServer>();
    for (const server of found) {
      const before = effective.get(server.name);
      effective.delete(server.name); // the later definition takes the later place
      effective.set(
        server.name,
        before ? { ...server, shadows: [...(before.shadows ?? []), { file: before.file, at: before.at }] } : server,
      );
    }
    result.servers.push(...effective.values());
  }
  return result;
}

/** The files of one place: itself, or (a directory place) its files with a known extension, sorted. */
async function filesOf(place: HostFile): Promise<Array<{ file: string; format: HostFile['format']; json: boolean }>> {
  if (!place.directory) return [{ file: place.file, format: place.format, json: false }];
  let names: string[];
  try {
    names = await readdir(place.file);
  } catch {
    return [];
  }
  return names
    .filter((name) => place.directory!.includes(path.extname(name).toLowerCase()))
    .sort()
    .map((name) => {
      const json = path.extname(name).toLowerCase() === '.json';
      return { file: path.join(place.file, name), format: json ? 'jsonc' : place.format, json };
    });
}

async function readDocument(
  file: string,
  format: HostFile['format'],
  place: HostFile,
  result: Discovery,
): Promise<unknown> {
  const status = (value: HostFileStatus['status']) =>
    result.files.push({ host: place.host, file, scope: place.scope, status: value });
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      // A file shared by two places (Claude Code's ~/.claude.json) is listed once.
      if (!result.files.some((f) => f.file === file && f.host === place.host)) status('missing');
      return undefined;
    }
    status('error');
    result.errors.push(new ConfigError(`cannot read: ${errorMessage(error)}`, { cause: error, file }));
    return undefined;
  }
  try {
    const document = await parseHostText(file, text, format);
    if (!result.files.some((f) => f.file === file && f.host === place.host)) status('loaded');
    return document;
  } catch (error) {
    if (!result.files.some((f) => f.file === file && f.host === place.host && f.status === 'error')) {
      status('error');
      result.errors.push(error instanceof ConfigError ? error : new ConfigError(String(error), { file }));
    }
    return undefined;
  }
}

interface EntryContext {
  homeDir: string;
  cwd: string;
  env: Record<string, string | undefined>;
  file: string;
  json: boolean;
}

/** The servers of one document at `place.at`: a map by name, or (Continue) a list of entries with a `name`. */
function entriesOf(document: unknown, place: HostFile, context: EntryContext): DiscoveredServer[] {
  let container: unknown = document;
  for (const key of place.at) container = isObject(container) ? container[key] : undefined;
  if (container === undefined || container === null) return [];
  const prefix = place.at
    .map((key, i) => (/^[A-Za-z_]\w*$/.test(key) ? `${i ? '.' : ''}${key}` : `[${JSON.stringify(key)}]`))
    .join('');
  // A list (Continue) names its entries by `name`; a JSON file in Continue's folder holds a map, as Claude's do.
  const pairs: Array<[string, unknown, string]> = Array.isArray(container)
    ? container.map((item, i) => [
        isObject(item) && typeof item.name === 'string' ? item.name : `#${i}`,
        item,
        `${prefix}[${i}]`,
      ])
    : isObject(container)
      ? Object.entries(container).map(([name, item]) => [name, item, `${prefix}[${JSON.stringify(name)}]`])
      : [];
  if (!Array.isArray(container) && !isObject(container)) {
    return [
      unusable(
        place,
        context.file,
        prefix,
        prefix,
        `"${prefix}" must be ${place.container === 'list' ? 'a list' : 'an object'} of servers`,
      ),
    ];
  }
  return pairs.map(([name, raw, at]) => {
    if (!isObject(raw)) return unusable(place, context.file, name, at, 'the entry must be an object');
    const translated = translateEntry(place.host, raw, context, context.json);
    if (place.host === 'claude-code' && /^settings(\.local)?\.json$/.test(path.basename(context.file)))
      translated.notes.push(
        'Claude Code itself does not start servers from a settings file (only .mcp.json, ~/.claude.json)',
      );
    const server: DiscoveredServer = {
      id: `${place.host}:${name}`,
      host: place.host,
      name,
      file: context.file,
      scope: place.scope,
      at,
      entry: translated.entry,
      problems: translated.problems,
      notes: translated.notes,
      variables: translated.variables,
      disabled: translated.entry.enabled === false || translated.entry.disabled === true,
    };
    if (server.problems.length === 0) {
      const invalid = checkEntry(server, context.env);
      if (invalid !== undefined) {
        server.invalid = invalid.reason;
        if (invalid.variable !== undefined) server.unset = invalid.variable;
      }
    }
    return server;
  });
}

function unusable(place: HostFile, file: string, name: string, at: string, problem: string): DiscoveredServer {
  return {
    id: `${place.host}:${name}`,
    host: place.host,
    name,
    file,
    scope: place.scope,
    at,
    entry: {},
    problems: [problem],
    notes: [],
    variables: [],
    disabled: false,
  };
}

/**
 * Why `server`'s entry cannot start with `env` (no command or URL, a bad field, an unset variable:
 * then `variable` names it), or undefined.
 */
function checkEntry(
  server: DiscoveredServer,
  env: Record<string, string | undefined>,
): { reason: string; variable?: string } | undefined {
  const site = { file: server.file, server: server.id };
  try {
    const expanded = expandServer(server.entry, env, site, new Set());
    toManagedServer(server.id, expanded, { file: server.file, scope: 'import' }, [], new Set());
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError && error.variable !== undefined)
      return {
        reason: `${error.field ?? 'a field'} needs variable ${error.variable}, which is not set`,
        variable: error.variable,
      };
    return { reason: error instanceof McpError ? error.reason : errorMessage(error) };
  }
}

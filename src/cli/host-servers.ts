/**
 * Other hosts' servers on the command line: discovery under the command line's home, working
 * directory and environment (`$HOME`, `--cwd`, `XDG_CONFIG_HOME`, `APPDATA`, `CODEX_HOME`, …), the
 * server a `--server HOST:NAME` (or an unambiguous `NAME`) addresses, and the rows `servers --all`
 * adds. Files mcpwire reads as its own (`.mcp.json`) are not listed twice.
 */
import path from 'node:path';
import { discoverHosts, type DiscoveredServer, type Discovery } from '../manager/config/hosts/discover.js';
import { hostInfo, isHostId, type HostId } from '../manager/config/hosts/host-table.js';
import { ConfigLoader, type LoadedServer } from '../manager/config/load-config.js';
import { redactValue } from '../manager/config/redact.js';
import type { ManagerStatus } from '../manager/manager-types.js';
import { McpError } from '../protocol/errors.js';
import { UsageError, type ParsedArgs } from './argv.js';
import type { CliIO } from './io.js';
import { notedTable } from './table.js';
import { configOptions } from './config-options.js';

/** Every host's servers under this command line's locations, without mcpwire's own files. */
export async function discoverForCli(args: ParsedArgs, io: CliIO, hosts?: readonly HostId[]): Promise<Discovery> {
  const options = configOptions(args, io);
  const own = new Set(new ConfigLoader(options).files());
  const found = await discoverHosts({
    ...(hosts ? { hosts } : {}),
    ...(options.homeDir ? { homeDir: options.homeDir } : {}),
    cwd: options.cwd!,
    env: io.env,
  });
  return {
    ...found,
    servers: found.servers.filter((s) => !own.has(s.file)),
    entries: found.entries.filter((s) => !own.has(s.file)),
    files: found.files.filter((f) => !own.has(f.file)),
  };
}

/**
 * The server `name` addresses among other hosts' servers: `HOST:NAME`, or a `NAME` exactly one host
 * has (undefined when none has it). Throws {@link UsageError} listing the candidates when several
 * hosts have `NAME`, and `CONFIG_INVALID` naming file and reason when the entry cannot be used
 * (mcpwire cannot honour it, or it cannot start as it stands: an unset variable).
 */
export async function resolveDiscovered(name: string, args: ParsedArgs, io: CliIO): Promise<LoadedServer | undefined> {
  const colon = name.indexOf(':');
  const prefix = colon > 0 ? name.slice(0, colon) : undefined;
  let server: DiscoveredServer | undefined;
  if (prefix !== undefined && isHostId(prefix)) {
    const found = await discoverForCli(args, io, [prefix]);
    server = found.servers.find((s) => s.id === name);
    if (!server) {
      const names = found.servers.map((s) => s.id).join(', ') || 'none';
      const files = found.files.filter((f) => f.status !== 'missing').map((f) => f.file);
      throw new McpError(
        'CONFIG_INVALID',
        `server "${name}": ${hostInfo(prefix).displayName} has no server "${name.slice(colon + 1)}" (its servers: ${names}; files read: ${files.join(', ') || 'none'})`,
      );
    }
  } else {
    const candidates = (await discoverForCli(args, io)).servers.filter((s) => s.name === name);
    if (candidates.length === 0) return undefined;
    if (candidates.length > 1)
      throw new UsageError(
        `server "${name}" is configured by several hosts: ${candidates.map((s) => s.id).join(', ')}; name one as --server HOST:NAME`,
      );
    server = candidates[0]!;
  }
  const reason = server.problems.length ? server.problems.join('; ') : server.invalid;
  if (reason !== undefined)
    throw new McpError(
      'CONFIG_INVALID',
      `server "${server.id}" (${server.file} ${server.at}) cannot be used: ${reason}`,
    );
  const options = configOptions(args, io);
  const loaded = await new ConfigLoader({
    ...options,
    configPaths: [],
    userConfigPath: false,
    project: false,
    hosts: [server.host],
  }).load();
  return loaded.servers.find((s) => s.name === server.id);
}

/** How `servers --all` shows a discovered server: its status and the reason it cannot be used. */
export function discoveredStatus(server: DiscoveredServer): { status: string; reason: string } {
  if (server.problems.length) return { status: 'unusable', reason: server.problems.join('; ') };
  if (server.invalid !== undefined) return { status: server.unset ? 'needs-env' : 'invalid', reason: server.invalid };
  return { status: server.disabled ? 'disabled' : 'ready', reason: '' };
}

/** The transport a discovered entry names or implies. */
export function discoveredTransport(server: DiscoveredServer): string {
  const type = server.entry.type;
  if (typeof type === 'string') {
    const key = type.toLowerCase().replace(/[-_]/g, '');
    return key === 'streamablehttp' ? 'http' : type;
  }
  return server.entry.command !== undefined ? 'stdio' : server.entry.url !== undefined ? 'http' : '';
}

/** A discovered server for `--json`: provenance, status, reasons, the entry with secret-looking values as `***`. */
export function discoveredJson(server: DiscoveredServer): Record<string, unknown> {
  const { status, reason } = discoveredStatus(server);
  return {
    id: server.id,
    host: server.host,
    name: server.name,
    file: server.file,
    scope: server.scope,
    at: server.at,
    transport: discoveredTransport(server),
    status,
    reasons: reason ? [reason] : [],
    notes: server.notes,
    variables: server.variables,
    definition: redactValue(server.entry),
    ...(server.shadows ? { shadows: server.shadows } : {}),
  };
}

/** `file` as a table shows it: under the project directory as `./…`, under the home as `~/…`. */
export function shortPath(file: string, cwd: string, home: string | undefined): string {
  const under = (dir: string) => {
    const relative = path.relative(dir, file);
    return relative.startsWith('..') || path.isAbsolute(relative) ? undefined : relative;
  };
  const inProject = under(cwd);
  if (inProject !== undefined) return `.${path.sep}${inProject}`;
  const inHome = home ? under(home) : undefined;
  return inHome !== undefined ? `~${path.sep}${inHome}` : file;
}

/**
 * `servers --all`: the configured servers (as `status` reports them) and then every server other
 * hosts have configured (not started), each with where it is defined and, for one mcpwire cannot
 * use, the reason; host files that do not parse are listed below the table.
 */
export async function allServers(
  args: ParsedArgs,
  io: CliIO,
  status: ManagerStatus,
): Promise<{ json: Record<string, unknown>; text: string }> {
  const found = await discoverForCli(args, io);
  const home = io.env.HOME;
  const cwd = configOptions(args, io).cwd!;
  // The last cell is where it is defined and why it is unusable; a cut one's note is the reason, naming the server.
  const rows: string[][] = [];
  const notes: Array<string | undefined> = [];
  const keep: string[] = [];
  for (const s of status.servers) {
    const from = s.provenance ? `mcpwire ${s.provenance.scope} ${shortPath(s.provenance.file, cwd, home)}` : 'mcpwire';
    rows.push([s.name, s.enabled ? s.status : 'disabled', s.transport, s.lastError ? `${from}: ${s.lastError}` : from]);
    notes.push(s.lastError);
    keep.push(s.lastError ? `${from}: ` : from);
  }
  for (const s of found.servers) {
    const { status: shown, reason } = discoveredStatus(s);
    const from = `${hostInfo(s.host).displayName} ${s.scope} ${shortPath(s.file, cwd, home)}`;
    rows.push([s.id, shown, discoveredTransport(s), reason ? `${from}: ${reason}` : from]);
    notes.push(reason ? `server "${s.id}": ${reason}` : undefined);
    keep.push(reason ? `${from}: ` : from);
  }
  const lines = [
    rows.length
      ? notedTable(['NAME', 'STATUS', 'TRANSPORT', 'DEFINED IN'], rows, io.columns, { notes, keep })
      : 'no servers',
  ];
  for (const error of found.errors) lines.push(`host file error: ${error.message}`);
  for (const error of status.configErrors) lines.push(`config error: ${error}`);
  for (const warning of status.configWarnings) lines.push(`config warning: ${warning}`);
  return {
    json: {
      ...status,
      discovered: found.servers.map(discoveredJson),
      hostFiles: found.files,
      hostErrors: found.errors.map((e) => e.message),
    },
    text: lines.join('\n'),
  };
}

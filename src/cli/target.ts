/**
 * Which server a command talks to, from the shared target options: a stdio command after `--`,
 * `--url` (with `--header`, `--transport`), or `--server NAME` from the layered config
 * (`--config FILE` adds files) or from another host's config (`--server HOST:NAME`). The answer
 * is a {@link ManagedServer}, so a server named on the command line and one from a config file
 * are connected the same way.
 */
import path from 'node:path';
import { configLoader } from './config-options.js';
import type { LoadedConfig, LoadedServer } from '../manager/config/load-config.js';
import type { ManagedServer } from '../manager/servers/managed-server.js';
import { McpError } from '../protocol/errors.js';
import { commandDisplayName } from '../transport/command-name.js';
import { headerPairs, listOption, pairs, stringOption, UsageError, type ParsedArgs } from './argv.js';
import { cliApproval, requireApproval } from './approval.js';
import { assertConfigUsable } from './config-errors.js';
import type { CliIO } from './io.js';

export { configLoader, configOptions } from './config-options.js';

/**
 * A resolved target. `autoTransport`: a `--url` without `--transport` (the client probes the
 * shape). `byUrl`: named by `--url` (its login command names the URL, not a server name).
 */
export interface ResolvedTarget {
  spec: ManagedServer;
  autoTransport: boolean;
  byUrl: boolean;
}

/**
 * The target of this command line. Throws {@link UsageError} when none or several are given,
 * `CONFIG_INVALID` when `--server` names no configured server (the message lists the configured
 * ones and the files that failed to load) or any config file has an error, `NOT_APPROVED` when
 * it names a project server the approval rule ({@link cliApproval}) refuses.
 */
export async function resolveTarget(args: ParsedArgs, io: CliIO): Promise<ResolvedTarget> {
  const url = stringOption(args, 'url');
  const server = stringOption(args, 'server');
  const given = [args.command.length > 0, url !== undefined, server !== undefined].filter(Boolean).length;
  if (given === 0) throw new UsageError('no server given: put a command after --, or use --url URL or --server NAME');
  if (given > 1) throw new UsageError('give one server: a command after --, --url or --server, not several');
  const env = pairs(listOption(args, 'env'), 'env') as Record<string, string>;
  const cwd = stringOption(args, 'cwd');
  const transport = stringOption(args, 'transport');
  if (transport !== undefined && !['stdio', 'http', 'sse'].includes(transport))
    throw new UsageError(`--transport must be http or sse, got "${transport}"`);

  if (args.command.length > 0) {
    const [command, ...rest] = args.command;
    return {
      spec: {
        name: commandDisplayName(command!, rest),
        transport: 'stdio',
        command: command!,
        args: rest,
        ...(Object.keys(env).length ? { env, secrets: Object.values(env) } : {}),
        ...(cwd ? { cwd: path.resolve(io.cwd, cwd) } : {}),
        restart: false,
      },
      autoTransport: false,
      byUrl: false,
    };
  }
  if (url !== undefined) {
    let host: string;
    try {
      host = new URL(url).host;
    } catch {
      throw new UsageError(`--url is not a URL: "${url}"`);
    }
    const headers = headerPairs(listOption(args, 'header'));
    return {
      spec: {
        name: host,
        transport: transport === 'sse' ? 'sse' : 'http',
        url,
        ...(Object.keys(headers).length ? { headers, secrets: Object.values(headers) } : {}),
        restart: false,
      },
      autoTransport: transport === undefined,
      byUrl: true,
    };
  }
  const found = await findServer(server!, args, io);
  // Approved as the file defines it: what the command line adds (-e) is the user's own.
  await requireApproval(found, cliApproval(args, io));
  const spec: ManagedServer = { ...found, restart: false };
  if (Object.keys(env).length) spec.env = { ...(spec.env ?? {}), ...env };
  return { spec, autoTransport: false, byUrl: false };
}

/**
 * The server `--server NAME` names: one of the config files' servers, else one other hosts have
 * configured (`HOST:NAME`, or a `NAME` only one host has; see `resolveDiscovered`). Throws
 * `CONFIG_INVALID` when none is, or a config file has an error; {@link UsageError} when several
 * hosts have `NAME`.
 */
export async function findServer(name: string, args: ParsedArgs, io: CliIO): Promise<LoadedServer> {
  const loaded = await configLoader(args, io).load();
  const found =
    loaded.servers.find((s) => s.name === name) ??
    (await (await import('./host-servers.js')).resolveDiscovered(name, args, io));
  if (!found) throw notConfigured(name, loaded);
  assertConfigUsable(
    name,
    loaded.errors.map((e) => e.message),
  );
  return found;
}

function notConfigured(name: string, loaded: LoadedConfig): McpError {
  const names = loaded.servers.map((s) => s.name);
  const problems = loaded.errors.length ? `; config problems: ${loaded.errors.map((e) => e.message).join('; ')}` : '';
  return new McpError(
    'CONFIG_INVALID',
    `server "${name}" is not configured (configured: ${names.join(', ') || 'none'}; other hosts' servers: mcpwire servers --all)${problems}`,
  );
}

/**
 * A server written inline in a workflow step, made into a {@link ManagedServer} by the config
 * layer's own rules, so a step accepts what a config file accepts: `command` as a string or an
 * array (`["python", "db_server.py"]`), `${VAR}` / `${VAR:-default}` / `${env:VAR}` in command,
 * args, env, cwd, url and headers (`Authorization: "Bearer ${GITHUB_TOKEN}"`), host transport
 * names. Values taken from variables are recorded as the server's secrets.
 */
import { ConfigError, McpError } from '../../protocol/errors.js';
import { meantEntryKey, toManagedServer, unknownEntryKeys } from '../config/server-entry.js';
import { expandServer } from '../config/variables.js';
import type { ManagedServer } from './managed-server.js';

/** An inline server of a step: a config file's server entry, with an optional `name`. */
export type StepServer = Omit<
  ManagedServer,
  'name' | 'transport' | 'command' | 'provenance' | 'secrets' | 'trusted'
> & {
  /** The server's name in errors and tool names (default: the command's base name, or the URL's host). */
  name?: string;
  /** `stdio`, `http`, `sse` or a host's name for them (`streamable-http`, `local`); default from `command` / `url`. */
  transport?: string;
  /** Same as `transport` (the key VS Code and Claude Code write). */
  type?: string;
  /** The executable, or the whole command line as an array. */
  command?: string | string[];
};

/** Where inline step servers say they come from (errors and `getStatus()` name it). */
const PROVENANCE = { file: 'workflow step', scope: 'inline' } as const;

/**
 * `server` with its variables expanded from `env` and checked like a config entry; never
 * restarted (a step is one call). Throws `CONFIG_INVALID` naming the field at fault (an unset
 * variable, a wrong type, an unknown key: a step is no place for ignored keys).
 */
export function stepServer(server: StepServer, env: Record<string, string | undefined>): ManagedServer {
  if (!server || typeof server !== 'object' || Array.isArray(server))
    throw new McpError('INVALID_ARGUMENT', 'step.server must be a server name or an inline server definition');
  const { name, ...entry } = server;
  const label = name ?? 'inline';
  const secrets = new Set<string>();
  const expanded = expandServer(entry, env, { file: PROVENANCE.file, server: label }, secrets);
  const unknown = unknownEntryKeys(expanded);
  if (unknown.length > 0)
    throw new ConfigError(`unknown key ${unknown.map((k) => `"${k}"${meantOf(k)}`).join(', ')}`, {
      file: PROVENANCE.file,
      server: label,
      field: unknown[0]!,
    });
  const converted = toManagedServer(label, expanded, { ...PROVENANCE }, [], secrets);
  const derived = name ?? (converted.command ? baseName(converted.command) : hostOf(converted.url));
  return { ...converted, name: derived.replace(/__/g, '_'), restart: false };
}

function meantOf(key: string): string {
  const meant = meantEntryKey(key);
  return meant === undefined ? '' : ` (did you mean "${meant}"?)`;
}

function baseName(command: string): string {
  return command.split(/[\\/]/).pop() || command;
}

function hostOf(url: string | undefined): string {
  try {
    return new URL(String(url)).host;
  } catch {
    return 'inline';
  }
}

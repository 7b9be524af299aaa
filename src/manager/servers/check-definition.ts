/**
 * The checks of server definitions a host writes by hand (`ManagerOptions.servers`,
 * `McpManager.setServer`): each is read by the rules of a config file entry so that a typo is
 * never silently ignored: keys are those of a {@link ManagedServer} (and of the config layer's
 * `LoadedServer`, which a host may pass on as is), fields have the types the entry schema gives
 * them, and a server has what it needs to be reached. Unlike a config file (which warns and goes
 * on), a program gets an error.
 */
import { ConfigError, McpError } from '../../protocol/errors.js';
import { optionKeys, unknownOptionError, type OptionKeys } from '../../protocol/option-keys.js';
import type { LoadedServer } from '../config/load-config.js';
import { entryFieldProblem, inferredTransport, missingTarget, transportProblem } from '../config/server-entry.js';
import { SERVER_ENTRY_SCHEMA } from '../config/server-schema.js';
import type { ManagedServer, RestartPolicy } from './managed-server.js';

const SERVER_KEYS = optionKeys<LoadedServer>(
  'server definition',
  {
    name: true,
    transport: true,
    command: true,
    args: true,
    env: true,
    cwd: true,
    url: true,
    headers: true,
    headersHelper: true,
    enabled: true,
    autoConnect: true,
    timeoutMs: true,
    startupTimeoutMs: true,
    toolTimeoutMs: true,
    includeTools: true,
    excludeTools: true,
    restart: true,
    oauth: true,
    provenance: true,
    secrets: true,
    trusted: true,
    origins: true,
  },
  // What config files of other hosts write, and what people type.
  {
    type: 'transport',
    disabled: 'enabled: false',
    timeout: 'timeoutMs',
    startupTimeout: 'startupTimeoutMs',
    toolTimeout: 'toolTimeoutMs',
    envFile: 'env (envFile is read by the config layer)',
  },
);

const RESTART_KEYS = optionKeys<RestartPolicy>(
  'restart',
  { maxRestarts: true, initialDelayMs: true, maxDelayMs: true, resetAfterMs: true },
  {
    maxRetries: 'maxRestarts',
    retries: 'maxRestarts',
    restarts: 'maxRestarts',
    initialDelay: 'initialDelayMs',
    delayMs: 'initialDelayMs',
    maxDelay: 'maxDelayMs',
    resetAfter: 'resetAfterMs',
  },
);

/**
 * `servers` as the manager runs them (each with its transport); throws unless it is an array of
 * valid definitions with distinct names (see {@link checkServerDefinition}; `where` names the
 * list, e.g. `McpManager options`).
 */
export function checkServerList(servers: unknown, where: string): ManagedServer[] {
  if (!Array.isArray(servers))
    throw new McpError(
      'INVALID_ARGUMENT',
      `${where}: "servers" must be an array of server definitions, got ${servers === null ? 'null' : typeof servers}`,
    );
  const names = new Set<string>();
  return servers.map((given: unknown, i) => {
    const at = `${where}.servers[${i}]`;
    const server = checkServerDefinition(given, at);
    if (names.has(server.name))
      throw new McpError('INVALID_ARGUMENT', `${at}: a second server named "${server.name}" (names must be distinct)`, {
        server: server.name,
      });
    names.add(server.name);
    return server;
  });
}

/**
 * `server` as the manager runs it: the same definition, with the `transport` a config file would
 * infer when it has none (`command`: stdio, `url`: http). Throws unless it is a definition the
 * manager can run. An unknown key (here or in `restart`) is `INVALID_ARGUMENT` naming the server,
 * the key and the key probably meant; a missing or mistyped field (`name`, `transport`, neither
 * `command` nor `url`, `url` for http/sse, `toolTimeoutMs: "2m"`, …) is `CONFIG_INVALID` naming
 * the server and the field, as for a config file entry. `where` says whose definition it is
 * (`McpManager options.servers[2]`).
 */
export function checkServerDefinition(server: unknown, where: string): ManagedServer {
  if (!server || typeof server !== 'object' || Array.isArray(server))
    throw new McpError('INVALID_ARGUMENT', `${where} must be a server definition object ({ name, command | url, … })`);
  const fields = server as Record<string, unknown>;
  const name = fields.name;
  if (typeof name !== 'string' || name === '')
    throw new ConfigError(`${where}: "name" must be a non-empty string`, { field: 'name' });
  refuseUnknownKeys(fields, SERVER_KEYS, where, name);
  if (fields.restart && typeof fields.restart === 'object')
    refuseUnknownKeys(fields.restart, RESTART_KEYS, `${where}.restart`, name);
  const invalid = (message: string, field?: string) =>
    new ConfigError(`${where}: ${message}`, { server: name, ...(field !== undefined ? { field } : {}) });
  const transport = fields.transport ?? inferredTransport(fields);
  if (transport === undefined) throw invalid('needs a "command" (a stdio server) or a "url" (an http or sse server)');
  const unknownTransport = transportProblem(transport);
  if (unknownTransport) throw invalid(unknownTransport, 'transport');
  const missing = missingTarget(transport, fields);
  if (missing) throw invalid(missing.message, missing.field);
  const schemaFields: Record<string, unknown> = {};
  for (const key of Object.keys(SERVER_ENTRY_SCHEMA.properties))
    if (fields[key] !== undefined) schemaFields[key] = fields[key];
  const problem = entryFieldProblem(schemaFields);
  if (problem) throw invalid(`${problem.field} ${problem.message}`, problem.field);
  if (fields.restart === 'never')
    throw invalid(
      'restart must be false or { maxRestarts, initialDelayMs, maxDelayMs, resetAfterMs } ("never" is a config file spelling)',
      'restart',
    );
  if (
    fields.secrets !== undefined &&
    !(Array.isArray(fields.secrets) && fields.secrets.every((s) => typeof s === 'string'))
  )
    throw invalid('secrets must be an array of strings', 'secrets');
  if (fields.trusted !== undefined && typeof fields.trusted !== 'boolean')
    throw invalid('trusted must be true or false', 'trusted');
  return fields.transport === transport ? (server as ManagedServer) : ({ ...fields, transport } as ManagedServer);
}

function refuseUnknownKeys(value: object, known: OptionKeys, where: string, server: string): void {
  const error = unknownOptionError(value, { ...known, what: where });
  if (error) throw new McpError('INVALID_ARGUMENT', error.message, { server });
}
